"""A simulation's results: win rates with 95% Wilson intervals, points, hand lengths, the
advantage of each seat and of each position at the table, as a JSON-ready dict."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from unotable.sim.config import SimConfig, uses_native
from unotable.sim.hand import Tally
from unotable.sim.runs import GameRecord, HandRecord, Record

Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"wins": k, "win_rate": k / n if n else 0.0, "ci95": [low, high]}


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def summarize(cfg: SimConfig, records: Sequence[Record], seconds: float | None = None) -> dict[str, Any]:
    """The results as a JSON-ready dict (the ``--json`` file).

    Keys: ``config``; ``hands`` (hands played, in games too) and ``games``; ``seats`` (per seat,
    per player in games: ``bot``, ``wins``, ``win_rate``, ``ci95`` as ``[low, high]``,
    ``advantage`` (win rate less an equal share), ``mean_points``, UNO lapses and catches);
    ``bots`` (the same pooled by bot); ``positions`` (hands only: by place from the dealer's
    left, who plays first but after a Reverse); ``teams`` (team modes); ``hand_length``;
    ``timing`` (wall-clock figures, the only part that differs from run to run).
    """
    names = [spec.label for spec in cfg.bots]
    tallies = [r.tally for r in records]
    out: dict[str, Any] = {"config": _config(cfg, names)}
    if cfg.hands:
        hands = [r for r in records if isinstance(r, HandRecord)]
        seats = _hand_results(cfg, names, hands, out)
        hand_lengths = [r.tally.actions for r in hands]
        units = len(hands)
    else:
        games = [r for r in records if isinstance(r, GameRecord)]
        seats = _game_results(cfg, names, games, out)
        hand_lengths = [x for g in games for x in g.hand_actions]
        units = len(games)
    _add_counts(seats, tallies)
    out["seats"] = seats
    out["bots"] = _pooled(names, seats, units)
    out["hand_length"] = _lengths(hand_lengths)
    out["timing"] = _timing(seats, tallies, units, seconds)
    return out


def _config(cfg: SimConfig, names: list[str]) -> dict[str, Any]:
    return {
        "rules": cfg.rules.to_dict(),
        "bots": names,
        "seed": cfg.seed,
        "hands" if cfg.hands else "games": cfg.units,
        "core": "native" if uses_native(cfg) else "python",
    }


def _hand_results(
    cfg: SimConfig, names: list[str], hands: list[HandRecord], out: dict[str, Any]
) -> list[dict[str, Any]]:
    """The rows by seat of single hands; adds ``positions``, ``teams`` and ``hands`` to ``out``."""
    k = cfg.participants
    n = len(hands)
    wins = Counter(r.winner for r in hands)
    seats = [
        {
            "seat": s,
            "bot": names[s],
            **_rate(wins[s], n),
            "advantage": _share(wins[s], n) - 1 / k,
            "mean_points": _mean([r.points[s] for r in hands]),
        }
        for s in range(k)
    ]
    positions = Counter((r.winner - r.dealer - 1) % k for r in hands)
    out["positions"] = [
        {"position": p, **_rate(positions[p], n), "advantage": _share(positions[p], n) - 1 / k}
        for p in range(k)
    ]
    if cfg.rules.teams:
        team_wins = Counter(r.winner % 2 for r in hands)
        out["teams"] = [{"team": t, **_rate(team_wins[t], n)} for t in range(2)]
    out["hands"] = n
    return seats


def _game_results(
    cfg: SimConfig, names: list[str], games: list[GameRecord], out: dict[str, Any]
) -> list[dict[str, Any]]:
    """The rows by player of whole games; adds ``games``, ``hands`` and the mean hands per game
    to ``out``."""
    k = cfg.participants
    n = len(games)
    by_team = cfg.rules.mode in ("partners", "teams")
    seats = []
    for p in range(k):
        won = sum(1 for g in games if p in g.winners)
        seats.append(
            {
                "player": p,
                "seat": p,
                "bot": names[p],
                **_rate(won, n),
                "advantage": _share(won, n) - 1 / k,
                "mean_points": _mean([g.scores[p % 2 if by_team else p] for g in games]),
            }
        )
    out["games"] = n
    out["hands"] = sum(g.hands for g in games)
    out["mean_hands_per_game"] = _mean([g.hands for g in games])
    return seats


def _share(k: int, n: int) -> float:
    return k / n if n else 0.0


def _add_counts(seats: list[dict[str, Any]], tallies: list[Tally]) -> None:
    """The decisions, UNO chances and lapses, and catches of each row's seat."""
    for s, row in enumerate(seats):
        row["decisions"] = sum(t.decisions[s] for t in tallies)
        row["uno_chances"] = sum(t.uno_chances[s] for t in tallies)
        row["uno_lapses"] = sum(t.lapses[s] for t in tallies)
        row["caught"] = sum(t.caught[s] for t in tallies)


def _pooled(names: list[str], seats: list[dict[str, Any]], units: int) -> list[dict[str, Any]]:
    """The wins pooled by bot (a bot at several seats counts each seat's trials)."""
    pooled: dict[str, dict[str, Any]] = {}
    for s, row in enumerate(seats):
        entry = pooled.setdefault(names[s], {"bot": names[s], "seats": [], "wins": 0, "trials": 0})
        entry["seats"].append(s)
        entry["wins"] += row["wins"]
        entry["trials"] += units
    return [
        {**e, "win_rate": _share(e["wins"], e["trials"]), "ci95": list(wilson(e["wins"], e["trials"]))}
        for e in pooled.values()
    ]


def _lengths(hand_lengths: list[int]) -> dict[str, Any]:
    return {
        "mean_actions": _mean(hand_lengths),
        "min": min(hand_lengths, default=0),
        "max": max(hand_lengths, default=0),
        "histogram": {str(x): c for x, c in sorted(Counter(hand_lengths).items())},
    }


def _timing(
    seats: list[dict[str, Any]], tallies: list[Tally], units: int, seconds: float | None
) -> dict[str, Any]:
    think = [sum(t.think[s] for t in tallies) for s in range(len(seats))]
    decisions = [row["decisions"] for row in seats]
    return {
        "seconds": seconds,
        "units_per_second": (units / seconds) if seconds else None,
        "decision_ms": [1000 * think[s] / decisions[s] if decisions[s] else 0.0 for s in range(len(seats))],
    }


def results_without_timing(results: dict[str, Any]) -> dict[str, Any]:
    """The results less their wall-clock part: identical for every run of the same seed."""
    return {key: value for key, value in results.items() if key != "timing"}

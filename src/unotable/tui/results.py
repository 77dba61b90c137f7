"""The terminal's words between hands and at the end of a game: who went out and what the hand
scored, who won, the standings' columns, the seed to replay, and the one paragraph printed when
the game is left (:func:`summary`). In the language in force (:mod:`unotable.i18n`), each
sentence a whole English msgid with named fields; the rest of the terminal's words are
:mod:`unotable.tui.words`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from unotable.i18n import N_, _, language, ngettext
from unotable.names import join_names
from unotable.ruletext import edition_title
from unotable.tui.words import hand_count, points, times


def _you(names: Sequence[str]) -> bool:
    return list(names) == [_("You")]


def went_out(winner: str, score: int, charged: bool) -> str:
    """The first line after a hand."""
    if charged:
        return ngettext(
            "{name} went out. The hand was charged {n} point.",
            "{name} went out. The hand was charged {n} points.",
            score,
        ).format(name=winner, n=score)
    return ngettext(
        "{name} went out. The hand scored {n} point.", "{name} went out. The hand scored {n} points.", score
    ).format(name=winner, n=score)


def hand_over_title(hand: int) -> str:
    """The title of the screen between hands."""
    return _("Hand {number} is over").format(number=hand)


def game_won(names: Sequence[str]) -> str:
    """ "You win the game!", "Ana wins the game!", "Ana and Ben win the game!"."""
    if _you(names):
        return _("You win the game!")
    return ngettext("{names} wins the game!", "{names} win the game!", len(names)).format(
        names=join_names(names)
    )


_RECORD_COLUMNS: Final = (
    N_("place"),
    N_("player"),
    N_("points"),
    N_("hands won"),
    N_("UNO missed"),
    N_("caught"),
    N_("catches"),
    N_("challenges"),
)


def record_columns() -> tuple[str, ...]:
    """The columns of the standings."""
    return tuple(_(c) for c in _RECORD_COLUMNS)


def replay_line(seed: int) -> str:
    """The seed, shown once the game is over: the same deals again."""
    return _(
        "Seed {seed}: play the same deals again with uno play --seed {seed} (and the same flags)."
    ).format(seed=seed)


def place(n: int, shared: bool = False) -> str:
    """1st, 2nd, 3rd, 4th... (1.º in Portugal's Portuguese, 1º in Brazil's, 1er and 2e in French);
    a place ``shared`` with another player level on points is marked: 1st= (1.º ex aequo,
    1er ex æquo), docs/rules.md §9."""
    lang = language()
    if lang == "pt":
        text = f"{n}.º"
    elif lang == "pt_BR":
        text = f"{n}º"
    elif lang == "fr":
        text = "1er" if n == 1 else f"{n}e"
    else:
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        text = f"{n}{suffix}"
    return _("{place}=").format(place=text) if shared else text


def summary(
    *,
    edition: str,
    players: int,
    target: int,
    hands: int,
    finished: bool,
    leaders: Sequence[str],
    leader_points: int,
    you: tuple[int, int, bool] | None,
    record: tuple[int, int, int, int, int, int] | None,
    seed: int | None,
    save: str | None,
) -> str:
    """The one paragraph printed when the game is left.

    :param edition: the edition's name (``"cars2"``).
    :param leaders: the winners (finished) or the leaders; ``leader_points`` their points.
    :param you: your place, points and whether another player shares the place, if you played.
    :param record: your hands won, UNO calls missed, times caught, catches, challenges won and lost.
    :param seed: shown only for a finished game.
    """
    game = _("{edition} ({players} players, to {target})").format(
        edition=edition_title(edition), players=players, target=target
    )
    saved = " " + _("Saved: uno play --resume {file} goes on.").format(file=save) if save else ""
    if hands == 0 and not finished:
        return _("{game}: left during the first hand.").format(game=game) + saved
    fields = {"game": game, "hands": hand_count(hands), "names": join_names(leaders),
              "points": points(leader_points)}  # fmt: skip
    if finished:
        if _you(leaders):
            text = _("{game}: you won after {hands} with {points}.").format(**fields)
        else:
            text = ngettext(
                "{game}: {names} won after {hands} with {points}.",
                "{game}: {names} won after {hands} with {points}.",
                len(leaders),
            ).format(**fields)
    elif _you(leaders):
        text = _("{game}, left after {hands}: you lead with {points}.").format(**fields)
    else:
        text = ngettext(
            "{game}, left after {hands}: {names} leads with {points}.",
            "{game}, left after {hands}: {names} lead with {points}.",
            len(leaders),
        ).format(**fields)
    if you is not None and record is not None and _("You") not in leaders:
        mine = {"place": place(you[0], you[2]), "points": points(you[1])}
        text += " " + (
            _("You finished {place} with {points}.") if finished else _("You are {place} with {points}.")
        ).format(**mine)
    if record is not None:
        text += " " + _record(record)
    if finished and seed is not None:
        text += " " + _("Seed {seed} (uno play --seed {seed} deals the same cards again).").format(seed=seed)
    if not finished and save:
        text += saved
    return text


def _record(record: tuple[int, int, int, int, int, int]) -> str:
    """Your record in one sentence of whole parts."""
    won, missed, caught, catches, ch_won, ch_lost = record
    parts = [ngettext("{n} hand won", "{n} hands won", won).format(n=won) if won else _("no hand won")]
    parts.append(_("UNO missed {times}").format(times=times(missed)) if missed else _("UNO never missed"))
    if caught:
        parts.append(_("caught {times}").format(times=times(caught)))
    parts.append(
        ngettext("{n} catch", "{n} catches", catches).format(n=catches) if catches else _("nobody caught")
    )
    if ch_won or ch_lost:
        total = ch_won + ch_lost
        parts.append(
            ngettext("{won} of {n} challenge won", "{won} of {n} challenges won", total).format(
                won=ch_won, n=total
            )
        )
    return _("Your game: {record}.").format(record=", ".join(parts))

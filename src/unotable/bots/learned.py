"""The learned bot: a small policy network trained by ``examples/train.py``, run with numpy.

It reads its seat's view alone, through the env's observation encoding
(:mod:`unotable.env.encoding`) laid out for ten seats, so one network plays every edition,
option and table size. Its actions are the notation's, with the seats they name (a Howler's
target, a catch, a wrong card) made relative to its own seat, plus ``decline`` for an
out-of-turn moment it lets pass. Needs numpy (the ``[rl]`` extra); the weights ship as
``learned.npz`` beside this module.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from unotable.bots.base import BaseBot, check_number, tables
from unotable.cards import CLASSIC_CARD_TYPES, HOWLER
from unotable.env.actions import IS_WINDOW
from unotable.env.encoding import Layout
from unotable.i18n import _
from unotable.notation import ACTION_ID, ACTIONS, Action, Kind
from unotable.rules import MAX_PLAYERS, Rules
from unotable.state import Phase
from unotable.views import View

WEIGHTS: Final = Path(__file__).with_name("learned.npz")
"""The shipped weights."""
LAYOUT: Final = Layout(Rules(players=MAX_PLAYERS))
"""The observation layout the network reads (ten seats; smaller tables leave the rest zero)."""
NET_ACTIONS: Final = 245
"""The notation ids the network was trained on: every action before the house rules' ``play C7
SEAT`` spellings (RULES §11 ``seven_zero``, numbered after them, P-169)."""
NUM_ACTIONS: Final = NET_ACTIONS + 1
"""The network's outputs: those notation ids (seats relative), then ``decline``."""
DECLINE: Final = NET_ACTIONS
_SEAT_KINDS: Final = frozenset({int(Kind.CATCH), int(Kind.WRONG), int(Kind.PENALIZE)})


@lru_cache(maxsize=128)
def relative_ids(seat: int, n: int) -> tuple[int, ...]:
    """Per notation id at seat ``seat`` of a table of ``n``: the network's id (the seat it
    names counted from ``seat``); -1 for a seat beyond the table."""
    out: list[int] = []
    for aid, a in enumerate(ACTIONS):
        names_seat = int(a.kind) in _SEAT_KINDS or (a.kind is Kind.PLAY and a.arg >= 0 and a.card == HOWLER)
        if a.card >= CLASSIC_CARD_TYPES:  # a later edition's card (docs/rules.md §12): unscored
            out.append(-1)
        elif aid >= NET_ACTIONS:  # a 7 that swaps hands: the network scores playing the 7
            out.append(ACTION_ID[Action(a.kind, a.card, -1, a.uno).text()])
        elif not names_seat:
            out.append(aid)
        elif a.arg >= n:
            out.append(-1)
        else:
            rel = Action(a.kind, a.card, (a.arg - seat) % n, a.uno)
            out.append(ACTION_ID[rel.text()])
    return tuple(out)


def _classic_cards(v: View) -> View:
    """``v`` with the later editions' cards left out (the network reads the first three
    editions' 65 card types: a card numbered past them would land in another segment)."""
    t = CLASSIC_CARD_TYPES
    return replace(
        v,
        hand=tuple(c for c in v.hand if c < t),
        discard=(*(c for c in v.discard[:-1] if c < t), v.discard[-1] if v.discard[-1] < t else 0),
        drawn=v.drawn if v.drawn < t else -1,
        known={o: tuple(c for c in cards if c < t) for o, cards in v.known.items()},
        pending_card=v.pending_card if v.pending_card < t else -1,
    )


def features(v: View, window: bool, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The network's input for ``v`` (``window``: an out-of-turn moment)."""
    x = np.zeros(LAYOUT.size, np.float32) if out is None else out
    if v.rules.edition.card_space > CLASSIC_CARD_TYPES:
        v = _classic_cards(v)
    LAYOUT.encode(v, window, x)
    return x


def offered(v: View, window: bool) -> list[int]:
    """The notation ids ``v``'s seat may take in this turn (without ``decline``)."""
    if not window:
        return [a for a in v.legal if not IS_WINDOW[a]]
    if v.seat != v.current:
        return list(v.legal)
    return [a for a in v.legal if IS_WINDOW[a]]


def choices(v: View, window: bool) -> tuple[list[int], list[int]]:
    """The network's ids offered in this turn and the notation id of each (-1: decline)."""
    rel = relative_ids(v.seat, len(v.hand_sizes))
    ids = offered(v, window)
    net = [rel[a] for a in ids]
    if window:
        net.append(DECLINE)
        ids = [*ids, -1]
    return net, ids


class Policy:
    """The network's forward pass in numpy: ReLU layers, then the action logits.

    :raises ValueError: if the file does not hold weights for this layout.
    """

    def __init__(self, path: Path | str = WEIGHTS) -> None:
        with np.load(path) as data:
            count = int(data["layers"])
            self.layers = [
                (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)
            ]
        if self.layers[0][0].shape[0] != LAYOUT.size or self.layers[-1][0].shape[1] != NUM_ACTIONS:
            raise ValueError(
                f"{path}: weights for {self.layers[0][0].shape[0]} inputs and "
                f"{self.layers[-1][0].shape[1]} actions, not {LAYOUT.size} and {NUM_ACTIONS}"
            )

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action logits of input ``x``."""
        h = x
        for w, b in self.layers[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.layers[-1]
        out: npt.NDArray[np.float32] = h @ w + b
        return out


@lru_cache(maxsize=4)
def load_policy(path: str = str(WEIGHTS)) -> Policy:
    """The (cached) policy of a weights file."""
    return Policy(path)


class LearnedBot(BaseBot):
    """Plays the shipped policy: its most likely legal action, or a sample of it.

    :param sample: draw from the policy's distribution (a temperature of 1) instead of taking
        its most likely action.
    :param weights: a weights file to play instead of the shipped one.
    :param forget_uno: as every bot: how often it plays its next-to-last card without the call.
    """

    name = "learned"

    def __init__(
        self, seed: int = 0, *, sample: bool = False, weights: str | None = None, forget_uno: float = 0.0
    ) -> None:
        super().__init__(seed, forget_uno=forget_uno)
        if not isinstance(sample, bool):
            raise ValueError(
                _("{name} must be true or false, not {value}").format(name="sample", value=repr(sample))
            )
        check_number("forget_uno", forget_uno, 0.0, 1.0)
        self.sample = sample
        self.policy = load_policy(str(weights) if weights is not None else str(WEIGHTS))
        self._x = np.zeros(LAYOUT.size, np.float32)

    def _decide(self, v: View, window: bool) -> int:
        net, ids = choices(v, window)
        if v.rules.lenient_plays and not window and v.phase == Phase.TURN:
            # A wrong card would be pointed out and taken back, and the same view would ask the
            # same question again: the bot plays only cards that match.
            tb = tables(v)
            keep = [
                k
                for k, a in enumerate(ids)
                if ACTIONS[a].kind is not Kind.PLAY or tb.is_playable(v.color, v.top, ACTIONS[a].card)
            ]
            net, ids = [net[k] for k in keep], [ids[k] for k in keep]
        if len(ids) == 1:
            return ids[0]
        logits = self.policy.logits(features(v, window, self._x))[net]
        if self.sample:
            p = np.exp(logits - logits.max())
            p /= p.sum()
            r = self.rng.random()
            k = min(int(np.searchsorted(np.cumsum(p), r)), len(ids) - 1)
        else:
            k = int(np.argmax(logits))
        chosen = ids[k]
        if chosen >= NET_ACTIONS:  # the 7's target: the opponent with the fewest cards
            same = [a for a in ids if a >= NET_ACTIONS and net[ids.index(a)] == net[k]]
            chosen = min(same, key=lambda a: (v.hand_sizes[ACTIONS[a].arg], a))
        return chosen

    def act(self, view: View) -> int:
        """The policy's answer to its phase (a lapse drops the UNO call at ``forget_uno``)."""
        if view.current != view.seat:
            raise ValueError(f"seat {view.seat} has no decision to make (current: {view.current})")
        aid = self._decide(view, False)
        if ACTIONS[aid].uno:
            self.uno_chances += 1
            if self.chance(self.forget_uno):
                plain = ACTION_ID[ACTIONS[aid].text().removesuffix(" uno")]
                if plain in view.legal:
                    self.lapses += 1
                    return plain
        return aid

    def react(self, view: View) -> int | None:
        """The policy's out-of-turn action, or None when it declines (or has none)."""
        if not offered(view, True):
            return None
        aid = self._decide(view, True)
        return None if aid < 0 else aid


__all__ = ["DECLINE", "LAYOUT", "NUM_ACTIONS", "LearnedBot", "Policy", "choices", "features", "relative_ids"]

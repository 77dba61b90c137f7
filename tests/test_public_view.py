"""The view of nobody (``views.view(state, None)``): what every seat may see, for spectators, and
events as nobody in particular sees them (``views.public_event``)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from unotable import views
from unotable.events import Event
from unotable.match import Game
from unotable.notation import ACTION_TEXT
from unotable.rules import Rules, find_edition
from unotable.views import public_event, view

PUBLIC_KEYS = (
    "rules",
    "hand_sizes",
    "discard",
    "draw_pile_size",
    "color",
    "current",
    "direction",
    "dealer",
    "phase",
    "drew_facing",
    "pending",
    "uno_exposed",
    "wrong_seat",
    "scores",
    "winner",
    "hand_points",
    "game_winners",
)


def hands(edition: str, players: int, count: int) -> Iterator[tuple[Game, list[Event]]]:
    """Random whole hands: the game after each step, with the events that led to it."""
    for seed in range(count):
        game = Game.new(Rules(edition=find_edition(edition), players=players), seed)
        rng = random.Random(seed)
        yield game, list(game.deal_events)
        while not game.hand_over:
            player = rng.choice(game.actors())
            yield game, game.apply(player, rng.choice(game.legal_actions(player)))


@pytest.mark.parametrize(("edition", "players"), [("classic", 3), ("harry-potter", 4), ("cars2", 3)])
def test_the_view_of_nobody_is_what_every_seat_sees_alike(edition: str, players: int) -> None:
    reasons: Counter[str] = Counter()
    for game, events in hands(edition, players, 12):
        st = game.state
        nobody = view(st, None)
        seats = [view(st, s) for s in range(st.n)]
        d = nobody.to_dict()
        assert d["seat"] is None and d["hand"] == [] and d["legal"] == [] and d["drawn"] is None
        for key in PUBLIC_KEYS:
            assert all(d[key] == s.to_dict()[key] for s in seats), key
        # Known to nobody: only cards every other seat knows (a Howler's, the Blank's reveal).
        for owner, cards in nobody.known.items():
            for s in seats:
                if s.seat != owner:
                    assert not Counter(cards) - Counter(s.known.get(owner, ())), (owner, s.seat)
        for e in events:
            shown = public_event(e, st.n)
            if e.kind == "reveal":
                reasons[e.reason] += 1
                everyone = e.visible_to is not None and set(range(st.n)) <= e.visible_to
                assert bool(shown.cards) == (everyone and bool(e.cards)), e
                assert everyone == (e.reason in ("howler", "blank")), e
            elif e.kind in {"draw", "deal"}:
                assert not shown.cards or e.visible_to is None
    if edition == "harry-potter":
        assert reasons["howler"] > 0
    if edition == "cars2":
        assert reasons["mater"] > 0


def test_a_howler_s_hand_is_known_to_nobody_in_particular_until_it_is_played() -> None:
    for game, events in hands("harry-potter", 3, 40):
        howled = [e for e in events if e.kind == "reveal" and e.reason == "howler"]
        if not howled:
            continue
        e = howled[0]
        assert e.seat is not None
        known = view(game.state, None).known.get(e.seat, ())
        assert Counter(known) == Counter(e.cards)
        return
    pytest.fail("no Howler reveal in 40 hands")  # pragma: no cover


def test_a_seat_outside_the_table_is_refused() -> None:
    st = Game.new(Rules(players=3), 1).state
    with pytest.raises(ValueError, match="no seat 3"):
        view(st, 3)
    assert ACTION_TEXT  # the notation's table is loaded with the views


# ---- the view of nobody fails closed


@dataclasses.dataclass(frozen=True)
class _LeakyView(views.View):
    """A view with a new private field: a seat's secret, set for a seat's view only."""

    secret: str = ""

    def __post_init__(self) -> None:
        if self.seat >= 0:
            object.__setattr__(self, "secret", f"seat {self.seat} holds {self.hand}")

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "secret": self.secret}


def test_a_new_private_field_of_a_seat_s_view_never_reaches_a_spectator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(views, "View", _LeakyView)
    game = Game.new(Rules(players=3), 4)
    seat = view(game.state, 0)
    assert isinstance(seat, _LeakyView) and seat.secret.startswith("seat 0 holds")
    nobody = view(game.state, None)
    assert isinstance(nobody, _LeakyView) and nobody.secret == ""
    # and so the web's spectators (the fan-out sends the core's view of nobody)
    fanout = pytest.importorskip("unotable.web.fanout")
    assert fanout.view_for(game, None)["secret"] == ""
    assert fanout.view_for(game, game.seat_of(0))["secret"].startswith("seat 0 holds")


def test_every_field_of_a_view_is_public_or_named_private() -> None:
    # A field added to View must be put on one side: public (PUBLIC_FIELDS, read from the state
    # alike for every seat) or private (here, and then the view of nobody leaves it out).
    private = {"seat", "hand", "drawn", "known", "legal", "backs"}  # backs: UNO Flip (FL-2)
    names = {f.name for f in dataclasses.fields(views.View)}
    assert names == set(views.PUBLIC_FIELDS) | private
    assert not private & set(views.PUBLIC_FIELDS)

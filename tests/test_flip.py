"""UNO Flip (docs/rules.md §15): the deck on both sides, the pairing of faces (FL-1), what each
seat sees (FL-2), the Flip turning everything over (FL-3), and the native core's refusal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unotable.cards import (
    CARD_CODE,
    CARD_COLOR,
    DARK_FACE,
    POINTS,
    parse_card,
)
from unotable.determinize import determinize
from unotable.engine import from_position, legal_ids, new_hand, step
from unotable.errors import ConfigError
from unotable.events import Event
from unotable.invariants import check_invariants
from unotable.rules import FLIP, Rules, find_edition
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import view

RULES = Rules(edition=FLIP, players=4)


def _pairs(st: State) -> Counter[tuple[int, int]]:
    """Every card as (light face, dark face)."""
    assert st.backs is not None
    places = [*st.hands, st.draw, st.discard]
    out: Counter[tuple[int, int]] = Counter()
    for cards, backs in zip(places, st.backs, strict=True):
        for t, b in zip(cards, backs, strict=True):
            out[(b, t) if st.side else (t, b)] += 1
    return out


def test_the_deck_has_112_cards_on_each_side() -> None:
    light, dark = FLIP.base_deck(), FLIP.dark_deck()
    assert len(light) == len(dark) == 112
    assert not any(DARK_FACE[t] for t in light) and all(DARK_FACE[t] for t in dark)
    codes = Counter(CARD_CODE[t] for t in light)
    for letter in "RYGB":
        assert sum(n for c, n in codes.items() if c.startswith(letter)) == 26
        assert codes[f"{letter}+1"] == codes[f"{letter}F"] == codes[f"{letter}S"] == codes[f"{letter}R"] == 2
        assert all(codes[f"{letter}{v}"] == 2 for v in range(1, 10)) and codes[f"{letter}0"] == 0
    assert codes["LW"] == codes["LW+2"] == 4
    codes = Counter(CARD_CODE[t] for t in dark)
    for letter in "PTOV":
        assert sum(n for c, n in codes.items() if c.startswith(letter)) == 26
        assert codes[f"{letter}+5"] == codes[f"{letter}SE"] == codes[f"{letter}R"] == codes[f"{letter}F"] == 2
    assert codes["DW"] == codes["DW+C"] == 4
    assert find_edition("uno-flip") is FLIP


@pytest.mark.parametrize(
    ("code", "points"),
    [("R7", 7), ("R+1", 10), ("GS", 20), ("BR", 20), ("YF", 20), ("LW", 40), ("LW+2", 50),
     ("P9", 9), ("T+5", 20), ("OR", 20), ("VSE", 30), ("PF", 20), ("DW", 40), ("DW+C", 60)],
)  # fmt: skip
def test_points_on_each_side(code: str, points: int) -> None:
    assert POINTS[parse_card(code)] == points


def test_the_pairing_is_dealt_from_the_seed() -> None:
    """FL-1: the same seed pairs the faces alike; another seed otherwise."""
    a, _ = new_hand(RULES, 11)
    b, _ = new_hand(RULES, 11)
    c, _ = new_hand(RULES, 12)
    assert _pairs(a) == _pairs(b)
    assert _pairs(a) != _pairs(c)
    assert sorted(t for t, _ in _pairs(a).elements()) == sorted(FLIP.base_deck())
    assert sorted(d for _, d in _pairs(a).elements()) == sorted(FLIP.dark_deck())


def test_cards_keep_their_faces_through_random_play() -> None:
    """Every card keeps its two faces wherever it goes: flips, draws, reshuffles (FL-3, FL-9)."""
    flips = 0
    for seed in range(40):
        st, _ = new_hand(Rules(edition=FLIP, players=2 + seed % 5), seed)
        pairs = _pairs(st)
        rnd = random.Random(seed)
        for _ in range(600):
            if st.phase >= PHASE_HAND_OVER:
                break
            events: list[Event] = []
            step(st, st.current, rnd.choice(legal_ids(st, st.current)), events)
            flips += sum(e.kind == "flip" for e in events)
            check_invariants(st, Counter(FLIP.base_deck()))
            assert _pairs(st) == pairs
    assert flips > 50


def _position(side: int) -> State:
    light = [["R5", "B+1", "LW"], ["G3", "G4", "RF"], ["Y5", "Y8"]]
    dark = [["P1", "T+5", "DW+C"], ["O3", "VSE", "PF"], ["T8", "T9"]]
    hands, backs = (light, dark) if side == 0 else (dark, light)
    pile, pile_backs = (["Y1", "Y2"], ["T2", "T3"]) if side == 0 else (["T2", "T3"], ["Y1", "Y2"])
    top, top_back = (["R2"], ["P2"]) if side == 0 else (["P2"], ["R2"])
    return from_position(
        Rules(edition=FLIP, players=3),
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=[parse_card(c) for c in pile],
        discard=[parse_card(c) for c in top],
        color=0,
        current=0,
        backs=[[parse_card(c) for c in b] for b in [*backs, pile_backs, top_back]],
    )


@pytest.mark.parametrize("side", [0, 1])
def test_each_seat_sees_the_other_faces_of_the_others_cards(side: int) -> None:
    """FL-2: a seat sees its own faces in play, the other faces of every other hand (not its own
    cards' other faces), the draw pile's top other face, nothing else of the pairing."""
    st = _position(side)
    assert st.backs is not None
    for seat in range(3):
        v = view(st, seat)
        assert v.side == side
        assert v.hand == tuple(st.hands[seat])
        assert v.backs[seat] == ()
        for other in range(3):
            if other != seat:
                assert v.backs[other] == tuple(sorted(st.backs[other]))
                assert not set(v.backs[other]) & set(st.hands[other])
        assert v.draw_back == st.backs[3][-1]
        d = v.to_dict()
        assert d["side"] == ("dark" if side else "light")
        assert str(seat) not in d["other_faces"]
        assert d["draw_top_other"] == CARD_CODE[st.backs[3][-1]]
    nobody = view(st, None)
    assert nobody.backs == () and nobody.hand == () and nobody.draw_back == st.backs[3][-1]


def test_a_view_does_not_change_with_the_faces_hidden_from_it() -> None:
    """FL-2: an opponent's faces in play, the pairing of its own cards and the draw pile below
    its top are hidden: changing them leaves the seat's view as it was."""
    st = _position(0)
    other = st.copy()
    assert other.backs is not None
    other.hands[1] = [parse_card(c) for c in ("B3", "B4", "BF")]  # seat 1's light faces
    other.backs[0] = [parse_card(c) for c in ("T1", "O+5", "DW")]  # seat 0's own dark faces
    other.draw[0], other.backs[3][0] = parse_card("G1"), parse_card("O1")  # below the top
    assert view(other, 0) == view(st, 0)
    assert view(other, 2) != view(st, 2)  # seat 2 sees seat 0's dark faces


def test_a_flip_shows_each_seat_what_it_saw_turned_towards_it() -> None:
    """FL-3: after a Flip, the faces a seat saw of another's hand are the ones it now plays with
    no more: the other seat plays them; it sees their former faces in play."""
    st = _position(0)
    before = {s: view(st, 1).backs[s] for s in (0, 2)}
    step(st, 0, _id("play R5"))
    step(st, 1, _id("play RF"))  # G3/O3, G4/VSE, RF/PF... seat 1 plays its Flip on the red 5
    assert st.side == 1
    assert tuple(sorted(st.hands[2])) == before[2]
    assert tuple(sorted(view(st, 1).backs[2])) == tuple(sorted(parse_card(c) for c in ("Y5", "Y8")))
    assert CARD_CODE[st.discard[-1]] == "PF" and CARD_COLOR[st.discard[-1]] == 0


def _id(text: str) -> int:
    from unotable.notation import parse_action  # noqa: PLC0415

    return parse_action(text)


def test_a_position_needs_both_faces() -> None:
    rules = Rules(edition=FLIP, players=2)
    r5, g3 = parse_card("R5"), parse_card("G3")
    with pytest.raises(ConfigError, match="other face"):
        from_position(rules, hands=[[r5], [g3]], draw_pile=[], discard=[r5], color=0, current=0)
    with pytest.raises(ConfigError, match="light side"):
        from_position(
            rules,
            hands=[[r5], [g3]],
            draw_pile=[],
            discard=[r5],
            color=0,
            current=0,
            backs=[[parse_card("P5")], [parse_card("B3")], [], [parse_card("P6")]],
        )


def test_worlds_deal_the_flip_deck_as_each_seat_sees_it() -> None:
    """The search bots' worlds (determinize): each keeps what the seat sees (its hand, the
    others' other faces, the draw pile's top other face, the discard pile) and pairs the rest
    of both decks at random; a world is a state the rules can reach."""
    for seed in range(30):
        st, _ = new_hand(Rules(edition=FLIP, players=2 + seed % 4), seed)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(60)):
            if st.phase >= PHASE_HAND_OVER:
                break
            step(st, st.current, rnd.choice(legal_ids(st, st.current)))
        if st.phase >= PHASE_HAND_OVER:
            continue
        for seat in range(st.n):
            v = view(st, seat)
            world = determinize(v, random.Random(seed * 7 + seat))
            check_invariants(world, Counter(FLIP.base_deck()))
            assert view(world, seat) == v


def test_the_env_observation_grows_by_the_faces_a_flip_seat_sees() -> None:
    """docs/env.md: a Flip table's observation adds the side, the other faces of each other
    seat's cards and of the draw pile's top, and nothing a seat does not see."""
    from unotable.env.encoding import layout_for  # noqa: PLC0415

    np = pytest.importorskip("numpy")
    st = _position(1)
    lay = layout_for(st.rules)
    assert {"side", "other_faces", "draw_top_other"} <= set(lay.by_name)
    assert "side" not in layout_for(Rules(players=3)).by_name
    out = np.zeros(lay.size, dtype=np.float32)
    lay.encode(view(st, 0), False, out)
    parts = lay.split(out)
    assert parts["side"][0] == 1
    assert parts["other_faces"][0][parse_card("B3")] == 0 and parts["other_faces"][0][parse_card("RF")] == 1
    assert parts["draw_top_other"][st.backs[3][-1]] == 1 if st.backs else False
    hidden = st.copy()
    assert hidden.backs is not None
    hidden.hands[1] = [parse_card(c) for c in ("T3", "T4", "TF")]
    again = np.zeros(lay.size, dtype=np.float32)
    lay.encode(view(hidden, 0), False, again)
    assert (again == out).all()


def test_events_name_the_dark_colours_on_the_dark_side() -> None:
    """A colour called on the dark side is written with its letter (docs/notation.md)."""
    st = _position(1)
    events: list[Event] = []
    step(st, 0, _id("play DW+C O"), events)
    play = next(e for e in events if e.kind == "play")
    assert play.to_dict()["color"] == "O" and play.dark
    light = _position(0)
    events = []
    step(light, 0, _id("play LW G"), events)
    assert next(e for e in events if e.kind == "play").to_dict()["color"] == "G"

"""A random-play soak: ``SOAK_HANDS`` (10,000) complete hands, every invariant checked at every step.

The hands are spread over the five editions, 2-10 players and the options of docs/rules.md
(``must_play_drawn``, ``lenient_plays``, ``scoring: lowest``, small and large targets, classic
blanks, Harry Potter birthdays, the house rules of RULES §11 alone and combined, a named or a
drawn dealer), played as games: scores carry from hand to hand until someone wins the game. A
fixed seed (``SOAK_SEED``) makes the run the same every time.

The policy: the current seat, in its turn, plays a uniformly chosen legal play with probability
``PLAY_BIAS`` when it has one, else takes a uniformly chosen legal action (drawing included);
in any other phase it takes a uniformly chosen legal action. While an UNO or wrong-card window
is open, or a seat may jump in (``jump_in``), a random seat takes one of its out-of-turn
actions (``uno``, ``catch``, ``wrong``, a jump-in) with probability ``OUT_OF_TURN``; the table
penalizes a random seat with probability ``PENALIZE``.

At every step: :func:`check_invariants` with the whole deck, and the cards drawn and played
(from the events; hands move with a 7 or a 0) account exactly for the change of every hand, the
draw pile and the discard pile (a pointed-out wrong card accounts from the state before the
wrong card). At the end of every hand: it ended within ``STEP_CAP`` steps, the winner holds no
cards, the scores changed by the hand's points and nothing else, and the game winners are the
ones RULES §9 names.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from unotable.cards import (
    BLANK,
    CARD_CODE,
    CARD_VALUE,
    COLORS,
    DRAW_THREE,
    DRAW_TWO,
    FL_DRAW_FIVE,
    FL_DRAW_ONE,
    IS_WILD,
    NM_DRAW_FOUR,
)
from unotable.engine import legal_ids, new_hand, step
from unotable.events import Event
from unotable.house import HOUSE_RULE, HOUSE_RULES, official, sensible
from unotable.invariants import check_invariants
from unotable.notation import ACTION_KIND, DRAW_ID, PENALIZE_IDS, Kind
from unotable.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules
from unotable.state import Phase, State

SOAK_HANDS: Final = 10_000
"""How many complete hands the soak plays."""
SOAK_SEED: Final = 20_240_611
"""The seed of the whole run (rules, deals and policy): the soak is deterministic."""
STEP_CAP: Final = 20_000
"""A hand not over after this many actions is a failure (hands average about 110 actions here,
the longest about 1,000)."""
MAX_HANDS_PER_GAME: Final = 12
CONFIGS_PER_TABLE: Final = 4
PLAY_BIAS: Final = 0.9
OUT_OF_TURN: Final = 0.25
PENALIZE: Final = 0.002

EDITION_NAMES: Final = ("classic", "harry-potter", "cars2", "modern", "all-wild", "no-mercy")
"""The editions of the main soak (its stream of rules and deals as before UNO Flip)."""
FLIP_HANDS: Final = 2_500
"""UNO Flip's soak (docs/rules.md §15): its own stream, so that the main soak's stays as it was."""
WINDOW_KINDS: Final = frozenset({int(Kind.UNO), int(Kind.CATCH), int(Kind.WRONG)})
WRONG_KIND: Final = int(Kind.WRONG)
EXAMPLE_BLANKS: Final[dict[str, Any]] = {
    "R": "R7",
    "Y": {"draw": 1, "skip": True},
    "G": {"wild": True},
    "B": {"reverse": True},
}


def random_blanks(rnd: random.Random) -> dict[str, Any]:
    """A classic blank definition: the example of the brief, or a random one per colour."""
    if rnd.random() < 0.5:
        return EXAMPLE_BLANKS
    out: dict[str, Any] = {}
    for colour in COLORS:
        r = rnd.random()
        if r < 0.25:
            out[colour] = rnd.choice(["R7", "G0", "B+2", "YS", "W", "W+4"])
        elif r < 0.75:
            effect = {
                "draw": rnd.choice([0, 0, 1, 2, 4]),
                "skip": rnd.random() < 0.4,
                "reverse": rnd.random() < 0.3,
                "wild": rnd.random() < 0.4,
                "reveal": rnd.random() < 0.3,
            }
            out[colour] = {k: v for k, v in effect.items() if v}
    return out


def random_rules(rnd: random.Random, edition: str, players: int) -> Rules:
    """Rules for ``edition`` and ``players`` with options at random."""
    data: dict[str, Any] = {
        "edition": edition,
        "players": players,
        "must_play_drawn": rnd.random() < 0.3,
        "lenient_plays": rnd.random() < 0.3,
        "scoring": "lowest" if rnd.random() < 0.3 else "standard",
        "target": rnd.choice([500, 500, 250, 100]),
    }
    if edition == "classic" and rnd.random() < 0.5:
        data["blanks"] = random_blanks(rnd)
    if edition == "harry-potter" and rnd.random() < 0.3:
        data["birthdays"] = [
            None if rnd.random() < 0.3 else f"{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
            for _ in range(players)
        ]
    if edition == "modern" and rnd.random() < 0.5:  # docs/rules.md §12, M-5
        data["custom"] = rnd.choice(
            [{"draw": 2}, {"skip": True, "reveal": True}, {"reverse": True, "draw": 1}]
        )
    data["stacking"] = rnd.choice([False, False, "same", "any"])
    for name in ("seven_zero", "jump_in", "draw_to_match"):
        data[name] = rnd.random() < 0.4
    for rule in HOUSE_RULES:  # issue 27's rules (docs/rules.md §11.5), each on 30% of the time
        if rule.name not in data and rnd.random() < 0.3:
            values = range(rule.values[0], rule.values[1] + 1) if rule.kind == "int" else rule.values[1:]
            data[rule.name] = rnd.choice(list(values))
    house = sensible({**official(), **{k: v for k, v in data.items() if k in HOUSE_RULE}})  # §11.6
    data.update((k, v) for k, v in house.items() if k in data)
    if edition == "all-wild":  # docs/rules.md §13, AW-10: every card is wild, no hand could end
        data.pop("no_action_finish", None)
    if edition == "no-mercy":  # docs/rules.md §14, NM-1: the box stacks any draw as large or larger
        data.pop("stack_cards", None)
        data["stacking"] = "any"
    return Rules.from_dict(data)


def table_configs(rnd: random.Random, editions: tuple[str, ...] = EDITION_NAMES) -> list[Rules]:
    """``CONFIGS_PER_TABLE`` random rules for every edition and every number of players, in turn.

    A fixed list, so that the engine's per-rules lookup tables are built once per entry."""
    return [
        random_rules(rnd, edition, players)
        for _ in range(CONFIGS_PER_TABLE)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        for edition in editions
    ]


def card_points(card: int) -> int:
    """RULES §1: face value, 20 for Skip/Reverse/Draw, 50 for a wild or a custom-effect blank;
    40 for the modern deck's Wild Shuffle Hands and Wild Customizable (docs/rules.md §12); 30 for
    No Mercy's Skip Everyone and Discard All (§14); UNO Flip's Draw One 10, Skip Everyone 30,
    Wilds 40, Wild Draw Two 50, Wild Draw Color 60 (§15)."""
    value = CARD_VALUE[card]
    if CARD_CODE[card] in ("SHUFFLE", "CUSTOM"):
        return 40
    if CARD_CODE[card] == "AW":  # All Wild's plain Wild (docs/rules.md §13, AW-9)
        return 20
    flip = {"LW": 40, "DW": 40, "LW+2": 50, "DW+C": 60}  # UNO Flip's (docs/rules.md §15)
    if CARD_CODE[card] in flip:
        return flip[CARD_CODE[card]]
    if CARD_CODE[card][1:] == "+1":  # UNO Flip's Draw One
        return 10
    if IS_WILD[card] or value == BLANK:
        return 50
    if CARD_CODE[card][1:] in ("SE", "DA"):  # No Mercy's Skip Everyone and Discard All (NM-10)
        return 30
    return value if value <= 9 else 20


@dataclass
class Tally:
    """What the soak saw, to show that it reached what it means to test."""

    hands: int = 0
    deadlocks: int = 0
    """Hands left when every seat sat at the hand limit with nothing to play, going round (H-19)."""
    games_over: int = 0
    steps: int = 0
    longest: int = 0
    events: Counter[str] = field(default_factory=Counter)
    tables: set[tuple[str, int]] = field(default_factory=set)
    options: Counter[str] = field(default_factory=Counter)


def choose(st: State, rnd: random.Random) -> tuple[int, int]:
    """The policy of the module docstring: a seat and one of its legal action ids."""
    n = st.n
    jump = st.tables.jump_in and st.phase == Phase.TURN
    if (st.exposed or st.wrong_seat >= 0 or jump) and rnd.random() < OUT_OF_TURN:
        seat = rnd.randrange(n)
        window = [a for a in legal_ids(st, seat) if seat != st.current or ACTION_KIND[a] in WINDOW_KINDS]
        if window:
            return seat, rnd.choice(window)
    if rnd.random() < PENALIZE:
        return -2, PENALIZE_IDS[rnd.randrange(n)]
    seat = st.current
    ids = legal_ids(st, seat)
    assert ids, f"the current seat {seat} has no legal action in {st.phase_name}"
    if st.phase == Phase.TURN and rnd.random() < PLAY_BIAS:
        plays = [a for a in ids if a != DRAW_ID]
        if plays:
            return seat, rnd.choice(plays)
    return seat, rnd.choice(ids)


Sizes = tuple[list[int], int, int]
"""Every hand's size, the draw pile's and the discard pile's."""


def sizes(st: State) -> Sizes:
    return [len(h) for h in st.hands], len(st.draw), len(st.discard)


def check_accounting(base: Sizes, after: State, events: list[Event]) -> None:
    """Cards drawn and played, as the events tell them, account for every pile's change from
    ``base`` (the state before the action, or before the wrong card it points out)."""
    hands, draw, discard = base
    sizes = list(hands)
    drawn = played = reshuffled = 0
    for e in events:
        if e.kind == "draw":
            assert e.seat is not None and len(e.cards) == e.count
            sizes[e.seat] += e.count
            drawn += e.count
        elif e.kind in ("play", "invisibility"):
            assert e.seat is not None and len(e.cards) == 1
            sizes[e.seat] -= 1
            played += 1
        elif e.kind == "reshuffle":
            reshuffled += e.count
        elif e.kind == "swap":  # RULES §11 seven_zero
            assert e.seat is not None and e.target is not None
            sizes[e.seat], sizes[e.target] = sizes[e.target], sizes[e.seat]
        elif e.kind == "pass_hands":  # among the seats still in (docs/rules.md §14, NM-9)
            live = [s for s in range(len(sizes)) if sizes[s]]
            moved = [sizes[s] for s in live]
            moved = moved[-1:] + moved[:-1] if e.reason == "left" else moved[1:] + moved[:1]
            for s, size in zip(live, moved, strict=True):
                sizes[s] = size
        elif e.kind == "discard_all":  # docs/rules.md §14, NM-5: cards onto the discard pile
            assert e.seat is not None
            sizes[e.seat] -= e.count
            played += e.count
        elif e.kind == "knocked_out":  # NM-9: the hand goes under the draw pile
            assert e.seat is not None
            sizes[e.seat] -= e.count
            drawn -= e.count
        elif e.kind == "shuffle_hands":  # docs/rules.md §12, M-2: dealt one at a time from seat + 1
            assert e.seat is not None and e.count == sum(sizes)
            n = len(sizes)
            sizes = [e.count // n + ((s - e.seat - 1) % n < e.count % n) for s in range(n)]
    assert [len(h) for h in after.hands] == sizes, events
    assert len(after.draw) == draw - drawn + reshuffled, events
    assert len(after.discard) == discard + played - reshuffled, events


def check_cards(st: State, deck: list[int], counter: Counter[int]) -> None:
    """Every card of the deck (sorted) is in exactly one place; then every other invariant.

    The same as ``check_invariants(st, counter)``, which is called for its message when cards
    are not conserved; comparing sorted lists is several times faster than comparing Counters.
    """
    cards = st.draw + st.discard
    for hand in st.hands:
        cards += hand
    if st.backs is not None and st.side:  # UNO Flip on its dark side: the deck is the light faces
        cards = [t for backs in st.backs for t in backs]
    cards.sort()
    if cards != deck:
        check_invariants(st, counter)
        raise AssertionError("cards not conserved")
    check_invariants(st)


def play_hand(
    rules: Rules, seed: int, scores: list[int], dealer: int | None, rnd: random.Random, tally: Tally
) -> State:
    """Play one hand to its end, checking everything the module docstring lists."""
    counter = Counter(rules.deck())
    deck = sorted(counter.elements())
    st, events = new_hand(rules, seed, dealer=dealer, scores=scores)
    check_invariants(st, counter)
    dealt = sum(e.count for e in events if e.kind == "draw")
    assert dealt == sum(len(h) for h in st.hands) >= HAND_SIZE * st.n
    tally.events.update(e.kind for e in events)
    steps = 0
    stuck = 0
    while st.phase < Phase.HAND_OVER:
        steps += 1
        assert steps <= STEP_CAP, f"hand not over after {STEP_CAP} actions: {rules}, seed {seed}"
        if stuck >= st.n:  # H-19: every seat at the hand limit with nothing to play goes round
            tally.deadlocks += 1
            return st
        seat, aid = choose(st, rnd)
        if ACTION_KIND[aid] == WRONG_KIND:  # everything since the wrong card is undone
            assert st.wrong_snapshot is not None
            base = sizes(st.wrong_snapshot)
        else:
            base = sizes(st)
        events = []
        step(st, seat, aid, events)
        check_cards(st, deck, counter)
        check_accounting(base, st, events)
        tally.events.update(e.kind for e in events)
        at_limit = [e.kind for e in events] == ["pass", "turn"] and events[0].reason == "hand limit"
        stuck = stuck + 1 if at_limit else 0
    tally.steps += steps
    tally.longest = max(tally.longest, steps)
    tally.hands += 1

    # RULES §9: the winner went out, and the scores moved by the hand's points only.
    winner = st.winner
    # No Mercy (docs/rules.md §14, NM-9): or the last player standing, the others knocked out.
    standing = rules.edition.no_mercy and sum(1 for h in st.hands if h) == 1
    assert 0 <= winner < st.n and (not st.hands[winner] or standing)
    points = [sum(card_points(c) for c in h) for h in st.hands]
    last = st.discard[-1]
    on_draw_card = CARD_CODE[last] in ("W+4", "AW+2", "AW+4", "WR+4", "W+6", "W+10", "LW+2", "DW+C") or (
        not IS_WILD[last]
        and CARD_VALUE[last] in (DRAW_TWO, DRAW_THREE, NM_DRAW_FOUR, FL_DRAW_ONE, FL_DRAW_FIVE)
    )  # AW-8, §14, §15
    if rules.double_finish and on_draw_card and not st.hands[winner]:  # docs/rules.md §11.5, H-20
        points = [2 * p for p in points]
    if rules.scoring == "lowest":
        assert st.hand_points == sum(points)
        assert st.scores == [scores[s] + points[s] for s in range(st.n)]
        if max(st.scores) >= rules.target:
            low = min(st.scores)
            assert st.game_winners == [s for s in range(st.n) if st.scores[s] == low]
        else:
            assert st.game_winners == []
    else:
        assert st.hand_points == sum(points) - points[winner]  # a winner standing scores not its own
        assert st.scores == [scores[s] + (st.hand_points if s == winner else 0) for s in range(st.n)]
        assert st.game_winners == ([winner] if st.scores[winner] >= rules.target else [])
    assert (st.phase == Phase.GAME_OVER) == bool(st.game_winners)
    return st


def soak(editions: tuple[str, ...], hands: int, seed: int) -> tuple[Tally, int]:
    """``hands`` complete hands of random play over ``editions``, checked; the tally and the games."""
    rnd = random.Random(seed)
    tally = Tally()
    configs = table_configs(rnd, editions)
    game = 0
    while tally.hands < hands:
        rules = configs[game % len(configs)]
        game += 1
        tally.tables.add((rules.edition.name, rules.players))
        for name in ("must_play_drawn", "lenient_plays", "seven_zero", "jump_in", "draw_to_match"):
            tally.options[name] += getattr(rules, name)
        tally.options[f"stacking {rules.stacking}"] += 1
        for rule in HOUSE_RULES[4:]:  # issue 27's rules: each played somewhere
            tally.options[rule.name] += rule.is_on(getattr(rules, rule.name))
        tally.options["lowest"] += rules.scoring == "lowest"
        tally.options["blanks"] += bool(rules.blanks)
        tally.options["custom"] += rules.custom is not None
        scores = [0] * rules.players
        for _ in range(MAX_HANDS_PER_GAME):
            dealer = None if rnd.random() < 0.5 else rnd.randrange(rules.players)
            st = play_hand(rules, rnd.getrandbits(64), scores, dealer, rnd, tally)
            scores = st.scores
            if st.game_winners:
                tally.games_over += 1
                break
            if tally.hands >= hands:
                break
    return tally, game


def test_random_play_soak_of_flip() -> None:
    """UNO Flip's own soak: every invariant, both faces of every card kept (cards conserved by
    their light faces), its events seen."""
    tally, _games = soak(("flip",), FLIP_HANDS, SOAK_SEED + 15)
    assert tally.hands == FLIP_HANDS
    assert len(tally.tables) == MAX_PLAYERS - MIN_PLAYERS + 1
    for kind in ("flip", "challenge", "reshuffle", "skip", "reverse", "returned", "hand_over"):
        assert tally.events[kind] > 0, f"the soak never saw a {kind!r} event"


def test_random_play_soak() -> None:
    """``SOAK_HANDS`` complete hands of random play keep every invariant (module docstring)."""
    tally, game = soak(EDITION_NAMES, SOAK_HANDS, SOAK_SEED)

    # The soak reached what it means to test.
    assert tally.hands == SOAK_HANDS
    assert len(tally.tables) == len(EDITION_NAMES) * (MAX_PLAYERS - MIN_PLAYERS + 1)
    assert all(count > 0 for count in tally.options.values()), tally.options
    assert tally.games_over > 0
    for kind in (
        "play", "draw", "pass", "color", "uno", "catch", "challenge", "accept", "invisibility",
        "reveal", "skip", "reverse", "reshuffle", "penalty", "wrong", "returned", "hand_over",
        "game_over", "dealer_draw", "swap", "pass_hands", "shuffle_hands", "discard_all", "knocked_out",
    ):  # fmt: skip
        assert tally.events[kind] > 0, f"the soak never saw a {kind!r} event"
    print(
        f"\nsoak: {tally.hands} hands in {game} games, {tally.steps} actions "
        f"({tally.steps / tally.hands:.0f} per hand, longest {tally.longest}), "
        f"{tally.games_over} games won, {tally.deadlocks} left at the hand limit (H-19); "
        f"events {dict(tally.events.most_common())}"
    )

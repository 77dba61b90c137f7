"""The glue between the rules core and the C extension: tables, states in and out, batched loops.

The Python engine is the specification. A native state plays the same hand as the Python state
dealt from the same seed (the same shuffle, card for card), and :func:`to_state` /
:func:`from_state` turn one into the other, so that any position the Python engine can make
(a scenario, a determinized view) can be played on in C and compared field by field.

Rules the native core does not play raise :class:`NativeUnsupportedError`; :func:`unsupported`
says why without raising, for callers that fall back to the Python engine. The check is an
allow-list (:func:`native_options`): an option of :class:`Rules` it does not name, a new house
rule included, is refused unless it is at its official value.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import MISSING, Field, dataclass, fields
from typing import TYPE_CHECKING, Any, Final

from unotable import house
from unotable.cards import CARD_COLOR, CLASSIC_CARD_TYPES, NUM_CARD_TYPES, POINTS, WILD_DRAW_FOUR
from unotable.engine import E_DRAW, dealer_candidates, tables_for
from unotable.errors import ConfigError
from unotable.native import COMPILED, core_module
from unotable.notation import ACTION_FIELDS, ACTION_MORE
from unotable.rules import Rules
from unotable.state import State

if TYPE_CHECKING:
    from unotable.native._core import State as NativeState
    from unotable.native._core import Tables as NativeTables

MASK64: Final = (1 << 64) - 1
POLICIES: Final = ("random", "plays-first", "greedy")
"""The policies the batched loops play inside the core, by code."""
DEALS: Final = ("engine", "fast")
"""How the batched loops shuffle: as the Python engine, or by a cheaper Fisher-Yates."""
MAX_ACTIONS: Final = 200_000
"""A hand still going after this many actions in a batched loop is a bug: it raises."""


class NativeUnsupportedError(ConfigError):
    """The native core cannot play these rules (or is not loaded); use the Python engine."""


NATIVE_OPTIONS: Final = frozenset(
    {"edition", "players", "must_play_drawn", "scoring", "target", "mode", "blanks", "birthdays", "seed"}
)
"""The options of :class:`Rules` the native core plays at every value (the allow-list). Every
other option, a house rule whose record (:data:`unotable.house.HOUSE_RULES`) does not say
``native`` included, must be at its official value, or the rules are refused: an option the core
does not know is never played as the official rules."""


NATIVE_MODES: Final = ("solo", "partners", "teams", "rotating-partners", "two-tables", "challenge")
"""The values of ``mode`` the native core plays (it numbers them in this order); ``elimination``
is the Python engine's alone."""


NATIVE_EDITIONS: Final = ("classic", "harry-potter", "cars2")
"""The editions the native core plays (its card space is their 65 card types); the later ones
(docs/rules.md §12) are the Python engine's alone."""
NT: Final = CLASSIC_CARD_TYPES
"""The native core's number of card types (``NT`` of rules.h)."""


def to_native_facing(f: int) -> int:
    """A ``drew_facing`` entry, ``(colour + 1) * NUM_CARD_TYPES + top``, in the native core's
    numbering (``NT`` per colour); -1 stays -1."""
    return f if f < 0 else (f // NUM_CARD_TYPES) * NT + f % NUM_CARD_TYPES


def from_native_facing(f: int) -> int:
    """The inverse of :func:`to_native_facing`."""
    return f if f < 0 else (f // NT) * NUM_CARD_TYPES + f % NT


NATIVE_ACTIONS: Final = ACTION_MORE.index(True)
"""The notation's actions the native core knows: every one before ``multi_play``'s ``play CARD
more`` (numbered last, P-490), which it never plays and whose fields are those of a plain play."""


def native_options() -> frozenset[str]:
    """The options the native core plays at every value: :data:`NATIVE_OPTIONS` and the house
    rules whose record says ``native``."""
    return NATIVE_OPTIONS | {rule.name for rule in house.HOUSE_RULES if rule.native}


def _official(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


def unsupported(rules: Rules) -> str | None:
    """Why the native core cannot play ``rules``, or None if it can.

    It fails closed: every field of ``rules`` (of its class, a subclass's new options included)
    that is not in :func:`native_options` must be at its official value (its default).
    """
    if not COMPILED:
        return "the native core is not loaded (not built, or UNOTABLE_PURE is set)"
    if rules.edition.name not in NATIVE_EDITIONS:
        return f"the native core does not play the edition {rules.edition.name} (docs/rules.md §12)"
    if rules.mode not in NATIVE_MODES:
        return f"the native core does not play the mode {rules.mode} (docs/rules.md §10)"
    allowed = native_options()
    for f in fields(rules):
        if f.name in allowed:
            continue
        value, official = getattr(rules, f.name), _official(f)
        if value is official or (type(value) is type(official) and value == official):
            continue
        if f.name in house.HOUSE_RULE:
            return f"the native core does not play the house rule {f.name} (docs/rules.md §11)"
        if f.name == "lenient_plays":
            return "the native core does not play lenient_plays (docs/rules.md §8, R-13)"
        return f"the native core does not play the option {f.name} (only at its official value, {official!r})"
    return None


def check_supported(rules: Rules) -> None:
    """:raises NativeUnsupportedError: if the native core cannot play ``rules``."""
    reason = unsupported(rules)
    if reason is not None:
        raise NativeUnsupportedError(reason)


_TABLES: dict[Rules, NativeTables] = {}


def native_tables(rules: Rules) -> NativeTables:
    """The C tables of ``rules`` (cached).

    :raises NativeUnsupportedError: if the native core cannot play them.
    """
    known = _TABLES.get(rules)
    if known is not None:
        return known
    check_supported(rules)
    assert core_module is not None
    tb = tables_for(rules)
    blanks = bytearray(20)
    for color in range(4):
        effect = rules.blank_effect(color)
        if effect is not None:
            blanks[color * 5 : color * 5 + 5] = bytes(
                (effect.draw, effect.skip, effect.reverse, effect.wild, effect.reveal)
            )
    rows = [tb.playable[(c + 1) * NUM_CARD_TYPES + top] for c in range(-1, 4) for top in range(NT)]
    playable = bytes(int(ok) for row in rows for ok in row[:NT])
    actions = array("b")
    for kind, card, arg, uno in ACTION_FIELDS[:NATIVE_ACTIONS]:
        actions.extend((kind, card, arg, int(uno)))
    table: NativeTables = core_module.Tables(
        rules.players,
        tb.draw_amount,
        int(tb.response_windows),
        tb.suggestion_penalty,
        int(tb.must_play_drawn),
        rules.target,
        NATIVE_MODES.index(rules.mode),
        1 if rules.scoring == "lowest" else 0,
        int(rules.teams),
        bytes(tb.deck),
        array("b", tb.effect[:NT]).tobytes(),
        bytes(int(w) for w in tb.wild[:NT]),
        array("b", CARD_COLOR[:NT]).tobytes(),
        bytes(POINTS[:NT]),
        playable,
        bytes(blanks),
        actions.tobytes(),
    )
    if len(_TABLES) >= 256:
        _TABLES.clear()
    _TABLES[rules] = table
    return table


def new_hand(rules: Rules, seed: int, *, dealer: int | None = None) -> NativeState:
    """A native state dealt as ``engine.new_hand(rules, seed, dealer=dealer)`` deals it.

    :raises NativeUnsupportedError: if the native core cannot play ``rules``.
    :raises ConfigError: if ``dealer`` is no seat.
    """
    table = native_tables(rules)
    assert core_module is not None
    if dealer is not None and not 0 <= dealer < rules.players:
        raise ConfigError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer}")
    candidates = dealer_candidates(rules) if dealer is None else []
    if dealer is None and len(candidates) == 1:
        dealer = candidates[0]
    try:
        st: NativeState = core_module.new_hand(
            table, seed & MASK64, -1 if dealer is None else dealer, bytes(candidates)
        )
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return st


def from_state(st: State) -> NativeState:
    """The native twin of a Python state.

    :raises NativeUnsupportedError: if its rules are not the native core's, or a wrong card's
        window is open (``lenient_plays``).
    """
    table = native_tables(st.rules)
    assert core_module is not None
    if st.wrong_seat >= 0:
        raise NativeUnsupportedError("the native core has no wrong-card window (lenient_plays)")
    masks: list[list[int]] = []
    for owner, hand in enumerate(st.hands):
        mask = [0] * len(hand)
        for viewer, cards in st.known.get(owner, {}).items():
            for card in cards:
                for i, t in enumerate(hand):
                    if t == card and not mask[i] >> viewer & 1:
                        mask[i] |= 1 << viewer
                        break
        masks.append(mask)
    winners = 0
    for w in st.game_winners:
        winners |= 1 << w
    fields: dict[str, Any] = {
        "hands": [list(h) for h in st.hands],
        "known": masks,
        "draw": list(st.draw),
        "discard": list(st.discard),
        "drew_facing": [to_native_facing(f) for f in st.drew_facing],
        "scores": list(st.scores),
        "color": st.color,
        "current": st.current,
        "direction": st.direction,
        "dealer": st.dealer,
        "phase": st.phase,
        "drawn": st.drawn,
        "after_color": st.after_color,
        "pend_card": st.pend_card,
        "pend_from": st.pend_from,
        "pend_color": st.pend_color,
        "pend_guilty": int(st.pend_guilty),
        "exposed": st.exposed,
        "winner": st.winner,
        "hand_points": -1 if st.hand_points is None else st.hand_points,
        "game_winners": winners,
        "rng": st.rng,
    }
    try:
        native: NativeState = core_module.load(table, fields)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return native


def to_state(native: NativeState, rules: Rules) -> State:
    """The Python state of a native one (``rules`` are those it was made with)."""
    d = native.dump()
    n = rules.players
    st = State.__new__(State)
    st.rules = rules
    st.tables = tables_for(rules)
    st.n = n
    st.hands = d["hands"]
    st.draw = d["draw"]
    st.discard = d["discard"]
    st.color = d["color"]
    st.current = d["current"]
    st.direction = d["direction"]
    st.dealer = d["dealer"]
    st.phase = d["phase"]
    st.drawn = d["drawn"]
    st.drew_facing = [from_native_facing(f) for f in d["drew_facing"]]
    st.after_color = d["after_color"]
    st.pend_card = d["pend_card"]
    st.pend_from = d["pend_from"]
    st.pend_guilty = bool(d["pend_guilty"])
    st.pend_color = d["pend_color"]
    # What accepting the pending card draws (RULES §11 stacks are the Python engine's alone).
    pending = st.pend_card
    st.pend_draw = (
        0
        if pending < 0
        else 4
        if pending == WILD_DRAW_FOUR
        else st.tables.draw_amount
        if st.tables.base_effect[pending] == E_DRAW
        else 0
    )
    st.exposed = d["exposed"]
    st.series = -1  # multi_play is the Python engine's alone
    st.wrong_seat = -1
    st.wrong_snapshot = None
    known: dict[int, dict[int, list[int]]] = {}
    for owner, (hand, masks) in enumerate(zip(d["hands"], d["known"], strict=True)):
        for card, mask in zip(hand, masks, strict=True):
            for viewer in range(n):
                if mask >> viewer & 1:
                    known.setdefault(owner, {}).setdefault(viewer, []).append(card)
    st.known = known
    st.scores = d["scores"][: rules.score_slots]
    st.winner = d["winner"]
    st.hand_points = None if d["hand_points"] < 0 else d["hand_points"]
    st.game_winners = [s for s in range(n) if d["game_winners"] >> s & 1]
    st.rng = d["rng"]
    st.side = 0  # UNO Flip is the Python engine's alone (NATIVE_EDITIONS)
    st.backs = None
    return st


@dataclass(frozen=True)
class HandResults:
    """What :func:`play_hands` returns, one entry per hand; the per-seat arrays have ``players``
    entries per hand (:meth:`per_seat` cuts them)."""

    players: int
    winners: array[int]
    actions: array[int]
    hand_points: array[int]
    points: array[int]
    """Points left in each seat's hand at the end."""
    scores: array[int]
    """The hand's scores from zero (by player, or by team in the first two entries)."""
    decisions: array[int]
    """Actions each seat took."""
    uno_calls: array[int]
    """Plays of each seat's next-to-last card (with the UNO call)."""

    def __len__(self) -> int:
        return len(self.winners)

    def per_seat(self, name: str, hand: int) -> list[int]:
        """The per-seat array ``name`` (``points``, ``scores``, ...) of hand number ``hand``."""
        values: array[int] = getattr(self, name)
        return list(values[hand * self.players : (hand + 1) * self.players])


def policy_codes(policies: Sequence[str], players: int) -> bytes:
    """The codes of one policy per seat (one name for every seat, or one per seat).

    :raises ConfigError: on an unknown policy or a wrong number of them.
    """
    names = list(policies) * players if len(policies) == 1 else list(policies)
    if len(names) != players:
        raise ConfigError(f"give one policy for every seat or one per seat ({players}), not {len(names)}")
    for name in names:
        if name not in POLICIES:
            raise ConfigError(f"unknown native policy {name!r} (known: {', '.join(POLICIES)})")
    return bytes(POLICIES.index(name) for name in names)


def play_hands(
    rules: Rules,
    seeds: Iterable[int],
    policies: Sequence[str],
    *,
    pick_seed: int = 0,
    dealer: int | str | None = None,
    dealers: Sequence[int] | None = None,
    deals: str = "engine",
    max_actions: int = MAX_ACTIONS,
) -> HandResults:
    """Play one whole hand per seed inside the core, dealt as ``engine.new_hand`` deals it.

    :param policies: one name of :data:`POLICIES` for every seat, or one per seat. ``random``
        is uniform over the legal actions but the out-of-turn ones (it always calls UNO with its
        next-to-last card); ``plays-first`` the same, but it draws only with nothing to play and
        plays a drawn card that can go; ``greedy`` is :class:`unotable.bots.simple.GreedyBot`'s
        rules in C (default options, never forgetting UNO).
    :param pick_seed: seeds the policies' random picks; hand ``i`` picks from a stream seeded by
        ``pick_seed`` and its own seed, so a hand's result never depends on the batch it is in.
    :param dealer: a seat, ``"seed"`` (``seed % players``, as the benchmark deals) or None (the
        edition's method, as ``new_hand`` with no dealer).
    :param dealers: one dealer per seed, instead of ``dealer``.
    :param deals: ``engine`` (default): every shuffle is the Python engine's, so each hand is
        dealt (and reshuffled) exactly as ``engine.new_hand`` deals it from the same seed;
        ``fast``: a Fisher-Yates shuffle from the same generator, as random but other deals,
        and cheaper still (3.4 k instructions a deck against about 12 k for the engine's
        SHAKE-128 keys made eight decks at a time; for throughput, where matching the Python
        engine's deals does not matter).
    :raises NativeUnsupportedError: if the native core cannot play ``rules``.
    :raises ConfigError: on a bad policy or dealer.
    """
    table = native_tables(rules)
    assert core_module is not None
    n = rules.players
    codes = policy_codes(policies, n)
    seed_array = array("Q", (s & MASK64 for s in seeds))
    candidates = b""
    if dealer is None:
        cands = dealer_candidates(rules)
        if len(cands) == 1:
            dealer_code = cands[0]
        else:
            dealer_code = -1
            candidates = bytes(cands)
    elif dealer == "seed":
        dealer_code = -2
    elif isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < n:
        dealer_code = dealer
    else:
        raise ConfigError(f"dealer must be a seat from 0 to {n - 1}, 'seed' or None, not {dealer!r}")
    if deals not in DEALS:
        raise ConfigError(f"deals must be one of {', '.join(DEALS)}, not {deals!r}")
    per_hand = b""
    if dealers is not None:
        if len(dealers) != len(seed_array) or not all(0 <= d < n for d in dealers):
            raise ConfigError(f"dealers must give one seat from 0 to {n - 1} per seed")
        per_hand = bytes(dealers)
    try:
        out = core_module.play_hands(
            table,
            seed_array.tobytes(),
            dealer_code,
            candidates,
            per_hand,
            codes,
            pick_seed & MASK64,
            max_actions,
            deals == "fast",
        )
    except RuntimeError as exc:
        raise ConfigError(str(exc)) from None
    w, a, hp, pts, sc, dec, unos = out
    return HandResults(
        n,
        array("b", w),
        array("i", a),
        array("i", hp),
        array("i", pts),
        array("i", sc),
        array("i", dec),
        array("i", unos),
    )


def state_bytes() -> int:
    """Bytes of one state in the batched loops (the C struct; the tables are shared)."""
    assert core_module is not None
    size: int = core_module.state_size()
    return size


def require_compiled() -> None:
    """:raises NativeUnsupportedError: if the native core is not loaded."""
    if not COMPILED:
        raise NativeUnsupportedError(unsupported(Rules()) or "the native core is not loaded")


__all__ = [
    "DEALS",
    "MAX_ACTIONS",
    "NATIVE_OPTIONS",
    "POLICIES",
    "HandResults",
    "NativeUnsupportedError",
    "check_supported",
    "dealer_candidates",
    "from_state",
    "native_options",
    "native_tables",
    "new_hand",
    "play_hands",
    "policy_codes",
    "require_compiled",
    "state_bytes",
    "to_state",
    "unsupported",
]

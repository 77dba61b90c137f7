"""The house rules of docs/rules.md §11, declared once: one :class:`HouseRule` record per rule.

Every layer reads these records instead of naming the rules itself: :class:`unotable.rules.Rules`
checks and writes its house options from them, :func:`unotable.rules.parse_house` reads the
``--house`` text of ``uno play`` and ``uno simulate`` with them, the presets are made from them,
``GET /api/options`` sends them to the web form (:func:`to_json`), the terminal's help and the
command-line help take their words from them, and the native core refuses any rule whose record
does not say ``native`` (its support check is an allow-list).

A house rule that only changes which actions are legal is then written in three places: its
record here, its field of :class:`unotable.rules.Rules` (one line, its default the record's), and
the engine's legality; plus a scenario file that proves it (docs/architecture.md).

A record also declares what the rule refuses that the books allow (:class:`Refusal`: the search's
rollouts check their greedy choice at a table with a refusal in force, ``Tables.refuses_more``)
and what it makes no sense with (``needs``, :class:`Conflict`: :func:`combination_error`).

The labels and help are English sentences marked for translation with ``N_``: the catalogues
(``unotable.i18n``) and the page (``t(label)``) translate them where they are shown.

Standard library only (this is the rules core: ``unotable.i18n`` is stdlib gettext); nothing
here imports ``unotable.rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from unotable.errors import ConfigError
from unotable.i18n import N_, _

KINDS: Final = ("bool", "choice", "int")
"""The kinds of value a house rule takes: on or off; one of a few values (``False`` for off);
a whole number in a range."""
PRESETS: Final = ("official", "popular", "party", "crazy")
"""The presets of docs/rules.md §11, for the places where a person picks rules."""
PRESET_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "official": N_("Official rules: no house rules"),
        "popular": N_("Popular: stacking the same draw card, draw until you can play"),
        "party": N_("Party: every house rule, stacking any draw card"),
        "crazy": N_("Crazy: nearly every house rule at once"),
    }
)
"""What each preset is, for a person choosing one (English msgids)."""

_TRUE: Final = ("true", "yes", "on", "1")
_FALSE: Final = ("false", "no", "off", "0")


def _json(value: Any) -> str:
    """``value`` as JSON writes it, for error messages about options read from JSON."""
    if value is True or value is False or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return repr(value)


ACTION_KINDS: Final = (
    "play",
    "draw",
    "pass",
    "color",
    "uno",
    "catch",
    "challenge",
    "accept",
    "invisibility",
    "wrong",
    "penalize",
)
"""The notation's kinds of action (``unotable.notation.Kind``, lower case, in its order; copied,
as the notation imports the rules, and checked by tests/test_house_records.py), which a
:class:`Refusal` names."""


@dataclass(frozen=True)
class Refusal:
    """Actions the books allow that a house rule refuses (docs/rules.md §11.5), and when."""

    kinds: tuple[str, ...]
    """The kinds of action refused (:data:`ACTION_KINDS`)."""
    when: str
    """The situation, in words (for the docs and the tests' messages; no person at a table reads
    it: a refused action's error says why in its own words)."""
    values: tuple[Any, ...] = ()
    """The rule's values that refuse; empty: every value but the official one."""


@dataclass(frozen=True)
class Conflict:
    """A value of another option that a house rule, while it is on, makes no sense with: such a
    table is refused (docs/rules.md §11.6)."""

    option: str
    """Another house rule's name, or ``"edition"`` (an edition's name in ``values``)."""
    values: tuple[Any, ...]
    """The option's values this rule makes no sense with."""
    why: str
    """Why, ending the error: ``house rule NAME means nothing with OPTION=VALUE: WHY``."""


@dataclass(frozen=True)
class HouseRule:
    """One house rule: its name (the option of :class:`unotable.rules.Rules`), its values, the
    presets it belongs to, its words, and whether the native core plays it.

    ``kind`` says what ``values`` holds:

    - ``"bool"``: ``(False, True)``;
    - ``"choice"``: every value, the official one (``False``, the rule off) first;
    - ``"int"``: ``(lowest, highest)``, a whole number in that range, both ends included.
    """

    name: str
    kind: str
    values: tuple[Any, ...]
    default: Any
    """The official value: the rule as the books play it (for most rules: off)."""
    label: str
    """A short name for a form or a list (English msgid)."""
    help: str
    """One sentence saying what the rule does, for a form's hint and ``--help`` (English msgid)."""
    presets: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """The rule's value in each preset it belongs to; every other preset has it at ``default``."""
    native: bool = False
    """Whether the native core plays this rule at other values than ``default``."""
    bare: Any = None
    """The value of the rule named alone in ``--house`` text: ``True`` for a ``bool`` rule
    (``jump_in``); ``stacking`` alone is ``"same"``; ``None``: the rule needs a value."""
    value_labels: tuple[str, ...] = ()
    """``choice``: a label per value, in the order of ``values`` (English msgids)."""
    notes: Mapping[Any, str] = field(default_factory=dict, hash=False)
    """What the terminal's rules help says when the rule is at a value (English msgids): by
    value, or under ``None`` for every value but ``default``."""
    needs: tuple[str, ...] = ()
    """The rules that must be on (off their official value) for this one to be on: a table
    with this rule on and one of them off is refused (docs/rules.md §11.6)."""
    conflicts: tuple[Conflict, ...] = ()
    """The values of other options this rule, while on, makes no sense with (docs/rules.md §11.6)."""
    refuses: tuple[Refusal, ...] = ()
    """What the rule refuses that the books allow. A rule that refuses actions must say so here:
    the search's rollouts check their greedy choice against the legal set only at a table with a
    refusal in force (``Tables.refuses_more``), and tests/test_house_records.py plays greedy at
    tables without one to find a refusal left undeclared."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"house rule {self.name}: kind must be one of {', '.join(KINDS)}")
        if self.kind == "choice" and len(self.value_labels) != len(self.values):
            raise ValueError(f"house rule {self.name}: one label per value")
        for preset in self.presets:
            if preset not in PRESETS:
                raise ValueError(f"house rule {self.name}: no preset {preset!r}")
        if self.bare is None and self.kind == "bool":
            object.__setattr__(self, "bare", True)
        for value in (self.default, self.bare, *self.presets.values(), *self.notes):
            if value is not None:
                self.check(value)
        for refusal in self.refuses:
            if not refusal.kinds or any(k not in ACTION_KINDS for k in refusal.kinds):
                raise ValueError(
                    f"house rule {self.name}: a refusal names kinds of {', '.join(ACTION_KINDS)}"
                )
            for value in refusal.values:
                self.check(value)
                if not self.is_on(value):
                    raise ValueError(f"house rule {self.name}: its official value refuses nothing")
        for conflict in self.conflicts:
            if conflict.option == self.name or not conflict.values:
                raise ValueError(f"house rule {self.name}: a conflict names another option and its values")
        object.__setattr__(self, "presets", MappingProxyType(dict(self.presets)))
        object.__setattr__(self, "notes", MappingProxyType(dict(self.notes)))

    def check(self, value: Any) -> Any:
        """``value`` if this rule takes it (as JSON gives it).

        :raises ConfigError: naming the rule and the values it takes.
        """
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ConfigError(
                _("option {name} must be true or false, not {value}").format(
                    name=self.name, value=_json(value)
                )
            )
        if self.kind == "choice":
            if any(value is v or (type(value) is type(v) and value == v) for v in self.values):
                return value
            raise self._not_one_of(value)
        low, high = self.values
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        raise self._not_one_of(value)

    def _not_one_of(self, value: Any) -> ConfigError:
        return ConfigError(
            _("option {name} must be {values}, not {value}").format(
                name=self.name, values=self.describe(), value=_json(value)
            )
        )

    def describe(self) -> str:
        """The values this rule takes, as JSON writes them (``false, "same" or "any"``)."""
        if self.kind == "int":
            low, high = self.values
            return _("a whole number from {low} to {high}").format(low=low, high=high)
        words = [_json(v) if not isinstance(v, str) else f'"{v}"' for v in self.values]
        return _("{values} or {last}").format(values=", ".join(words[:-1]), last=words[-1])

    def parse(self, raw: str | None) -> Any:
        """The value written ``raw`` in ``--house`` text (``None``: the rule named alone).

        :raises ConfigError: for a value this rule does not take.
        """
        if raw is None:
            if self.bare is None:
                raise ConfigError(_("house rule {name} needs a value: {name}=VALUE").format(name=self.name))
            return self.bare
        text = raw.strip().lower()
        if self.kind == "int":
            if text.isascii() and text.isdigit():
                low, high = self.values
                if low <= int(text) <= high:
                    return int(text)
            raise self._bad(raw)
        if text in _TRUE and self.kind == "bool":
            return True
        if (text in _FALSE or (text == "none" and self.kind == "choice")) and self._takes_false():
            return False
        for value in self.values:
            if isinstance(value, str) and value == text:
                return value
        raise self._bad(raw)

    def _takes_false(self) -> bool:
        return any(v is False for v in self.values)

    def _bad(self, raw: str) -> ConfigError:
        """The error for a value ``raw`` this rule does not take, naming those it does."""
        if self.kind == "bool":
            accepted = _("true or false")
        elif self.kind == "choice":
            spelled = [str(v).lower() for v in (*self.values[1:], self.values[0])]
            if self._takes_false():
                accepted = _("{values} or {last}").format(values=", ".join(spelled[:-1]), last=spelled[-1])
            else:
                accepted = ", ".join(spelled)
        else:
            accepted = _("from {low} to {high}").format(low=self.values[0], high=self.values[1])
        return ConfigError(
            _("bad value {raw!r} for {name} ({accepted})").format(raw=raw, name=self.name, accepted=accepted)
        )

    def spell(self, value: Any) -> str:
        """The rule at ``value`` as ``--house`` text writes it: ``jump_in`` (on), ``jump_in=false``,
        ``stacking=same``."""
        if self.kind == "bool" and value is True:
            return self.name
        return f"{self.name}={_json(value) if not isinstance(value, str) else value}"

    def is_on(self, value: Any) -> bool:
        """Whether ``value`` changes the books' rules (is not the official value)."""
        return not (value is self.default or (type(value) is type(self.default) and value == self.default))

    def refusals(self, value: Any) -> tuple[Refusal, ...]:
        """What this rule refuses at ``value`` (nothing at its official value)."""
        if not self.is_on(value):
            return ()
        return tuple(x for x in self.refuses if not x.values or any(self._same(value, v) for v in x.values))

    @staticmethod
    def _same(value: Any, other: Any) -> bool:
        return value is other or (type(value) is type(other) and value == other)

    def note(self, value: Any) -> str | None:
        """What the terminal's rules help says of this rule at ``value`` (English), or ``None``
        when it is at its official value."""
        if not self.is_on(value):
            return None
        return self.notes.get(value, self.notes.get(None))

    def to_json(self) -> dict[str, Any]:
        """The record as ``GET /api/options`` sends it (words in English: the page translates)."""
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "values": list(self.values),
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "presets": dict(self.presets),
            "native": self.native,
        }
        if self.value_labels:
            out["value_labels"] = list(self.value_labels)
        if self.needs:
            out["needs"] = list(self.needs)
        return out


HOUSE_RULES: Final[tuple[HouseRule, ...]] = (
    HouseRule(
        name="stacking",
        kind="choice",
        values=(False, "same", "any"),
        default=False,
        bare="same",
        label=N_("Stacking draw cards"),
        help=N_(
            "A player a draw card falls on may answer it with another draw card, and the total "
            "passes on to the next player."
        ),
        value_labels=(N_("Off"), N_("Only the same kind of draw card"), N_("Any draw card")),
        presets={"popular": "same", "party": "any", "crazy": "any"},
        notes={
            "same": N_(
                "Stacking: a draw card played on you may be answered with a draw card of the same "
                "kind, in any colour (Enter); the total passes to the next player, who answers "
                "again or accepts (A) and draws it all. A Wild Draw Four on a stack may be "
                "challenged: guilty, its player draws the whole total; innocent, the challenger "
                "draws the total and 2 more."
            ),
            "any": N_(
                "Stacking: a draw card played on you may be answered with a draw card (any draw "
                "card), in any colour (Enter); the total passes to the next player, who answers "
                "again or accepts (A) and draws it all. A Wild Draw Four on a stack may be "
                "challenged: guilty, its player draws the whole total; innocent, the challenger "
                "draws the total and 2 more."
            ),
        },
    ),
    HouseRule(
        name="seven_zero",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("Seven-O"),
        help=N_("Playing a 7 swaps hands with a player you name; playing a 0 passes every hand on."),
        presets={"party": True, "crazy": True},
        notes={
            True: N_(
                "Seven-O: a 7 swaps your hand with a player you name (a number or a click); a 0 "
                "passes every hand to the next player. Not as your last card. A player left with "
                "one card by a swap must call UNO (U) before anyone catches them."
            )
        },
    ),
    HouseRule(
        name="jump_in",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("Jump-in"),
        help=N_(
            "A player holding the very card on top of the discard pile may play it out of turn, "
            "and play goes on from them."
        ),
        presets={"party": True, "crazy": True},
        notes={
            True: N_(
                "Jump-in: whenever a turn waits, if you hold the card identical to the top card "
                "(same colour and value, never a wild card), press J to play it at once; play "
                "goes on from you."
            )
        },
    ),
    HouseRule(
        name="draw_to_match",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("Draw to match"),
        help=N_("A player who draws as their turn keeps drawing until they draw a card that plays."),
        presets={"popular": True, "party": True, "crazy": True},
        notes={
            True: N_(
                "Draw to match: when you draw as your turn you keep drawing until a card plays; "
                "then play it or keep it."
            )
        },
    ),
    HouseRule(
        name="stack_cards",
        kind="choice",
        values=(False, "draws", "fours", "up"),
        default=False,
        bare="up",
        label=N_("Which draw cards stack"),
        help=N_(
            "With stacking: only coloured draw cards stack, only Wild Draw Fours stack, or a Wild "
            "Draw Four may go on a coloured draw card but never the reverse."
        ),
        value_labels=(
            N_("As stacking says"),
            N_("Coloured draw cards only"),
            N_("Wild Draw Fours only"),
            N_("Upwards only: a Wild Draw Four on a draw card, not the reverse"),
        ),
        presets={"crazy": "up"},
        needs=("stacking",),
        refuses=(
            Refusal(
                ("play",), "in respond, a draw card answering one that stacking alone lets it answer (H-1)"
            ),
        ),
        notes={
            "draws": N_("Stacking: only coloured draw cards stack; a Wild Draw Four cannot be answered."),
            "fours": N_(
                "Stacking: only a Wild Draw Four answers a Wild Draw Four; draw cards cannot be answered."
            ),
            "up": N_(
                "Stacking: a Wild Draw Four may answer a coloured draw card, but a coloured draw card "
                "never answers a Wild Draw Four."
            ),
        },
    ),
    HouseRule(
        name="deflect",
        kind="choice",
        values=(False, "reverse", "skip", "both"),
        default=False,
        bare="both",
        label=N_("Deflecting draw cards"),
        help=N_(
            "With stacking, a Reverse or a Skip of the colour in play sends the pending draw back "
            "or on to the next player."
        ),
        value_labels=(N_("Off"), N_("With a Reverse"), N_("With a Skip"), N_("With a Reverse or a Skip")),
        presets={"crazy": "both"},
        needs=("stacking",),
        refuses=(Refusal(("challenge",), "in respond, a Wild Draw Four once deflected (H-5)"),),
        notes={
            None: N_(
                "Deflecting: when a draw is pending on you, a Reverse of the colour in play sends it "
                "back and a Skip of that colour sends it on, whole."
            )
        },
    ),
    HouseRule(
        name="forced_play",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("Forced play"),
        help=N_(
            "A player who can play must: no drawing while holding a playable card, and a playable "
            "drawn card is played."
        ),
        presets={"crazy": True},
        refuses=(
            Refusal(("draw",), "in a turn, while a card of the hand plays (H-9)"),
            Refusal(("pass",), "after a draw, when the card drawn plays (H-10)"),
        ),
        notes={
            None: N_(
                "Forced play: you may draw only when no card in your hand plays, and a playable drawn "
                "card must be played."
            )
        },
    ),
    HouseRule(
        name="no_bluffing",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("No bluffing"),
        help=N_("A Wild Draw Four may be played at any time and can never be challenged."),
        presets={"crazy": True},
        refuses=(Refusal(("challenge",), "in respond, a Wild Draw Four, always (H-12)"),),
        notes={None: N_("No bluffing: a Wild Draw Four may be played at any time and is never challenged.")},
    ),
    HouseRule(
        name="uno_penalty",
        kind="int",
        values=(1, 10),
        default=2,
        bare=4,
        label=N_("Missed UNO penalty"),
        help=N_("A player caught without calling UNO draws this many cards (2 in the books)."),
        presets={"crazy": 4},
        conflicts=(Conflict("uno_call", ("silent",), "nobody is caught"),),
        notes={
            None: N_(
                "Missed UNO: a player caught without calling UNO draws the table's number of cards, not 2."
            )
        },
    ),
    HouseRule(
        name="uno_call",
        kind="choice",
        values=(False, "strict", "silent"),
        default=False,
        bare="strict",
        label=N_("Calling UNO"),
        help=N_(
            "Strict: UNO must be called with the next-to-last card, never late. Silent: nobody "
            "calls UNO and nobody is caught."
        ),
        value_labels=(N_("As in the books"), N_("Strict: no late call"), N_("Silent: no call at all")),
        presets={"crazy": "strict"},
        refuses=(
            Refusal(("uno",), "a late call, once the next-to-last card is played (H-14)", ("strict",)),
            Refusal(("uno", "catch"), "always: no UNO window opens (H-15)", ("silent",)),
        ),
        notes={
            "strict": N_(
                "Strict UNO: call UNO with your next-to-last card (the uno of the play); a player "
                "who did not may be caught and can no longer call it late."
            ),
            "silent": N_("Silent UNO: nobody calls UNO and nobody is caught."),
        },
    ),
    HouseRule(
        name="no_action_finish",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("No going out on an action card"),
        help=N_(
            "A player may not play an action or wild card as their last card: they play or draw as "
            "usual instead."
        ),
        presets={"crazy": True},
        refuses=(
            Refusal(
                ("play", "invisibility"),
                "an action or wild card as the last card: a turn's play, a drawn card, an answer, "
                "a jump-in (H-16)",
            ),
        ),
        notes={
            None: N_(
                "No going out on an action card: an action or wild card cannot be your last card; "
                "draw or play another card instead."
            )
        },
    ),
    HouseRule(
        name="hand_limit",
        kind="int",
        values=(8, 112),
        default=112,
        bare=25,
        label=N_("Hand limit"),
        help=N_("A player holding this many cards draws no more; 112 means no limit."),
        presets={"crazy": 25},
        notes={None: N_("Hand limit: a player holding the table's limit of cards draws no more.")},
    ),
    HouseRule(
        name="double_finish",
        kind="bool",
        values=(False, True),
        default=False,
        label=N_("Double points on a draw card"),
        help=N_("A hand won by going out on a draw card or a Wild Draw Four scores double."),
        # Not in crazy: its no_action_finish refuses every last draw card (H-53).
        notes={None: N_("Double points: a hand won on a draw card or a Wild Draw Four scores double.")},
    ),
    HouseRule(
        name="multi_play",
        kind="choice",
        values=(False, "number", "identical"),
        default=False,
        bare="number",
        label=N_("Several cards at once"),
        help=N_(
            "A player who plays a number card may play their other cards of that number (or only "
            "the identical ones) in the same turn."
        ),
        value_labels=(
            N_("Off"),
            N_("Every card of the same number"),
            N_("Only identical cards (same colour and number)"),
        ),
        presets={"crazy": "number"},
        refuses=(
            Refusal(
                ("play", "draw", "pass"),
                "in a series (after play CARD more), every action but a card that follows it (H-25)",
            ),
        ),
        notes={
            "number": N_(
                "Several cards at once: with a number card you may play your other cards of that "
                "number, in any colour, one after the other in the same turn; the last one's "
                "colour is the colour in play. Call UNO with the card that leaves you one."
            ),
            "identical": N_(
                "Several cards at once: with a number card you may play your cards identical to it "
                "(same colour and number) in the same turn. Call UNO with the card that leaves you one."
            ),
        },
    ),
)
"""Every house rule, in the order forms and help list them."""

HOUSE_RULE: Final[Mapping[str, HouseRule]] = MappingProxyType({r.name: r for r in HOUSE_RULES})
"""The records by name."""


def preset(name: str) -> dict[str, Any]:
    """Every house rule's value in the preset ``name``.

    :raises ConfigError: if there is no such preset.
    """
    if name not in PRESETS:
        raise ConfigError(
            _("unknown preset {name!r} (presets: {presets})").format(name=name, presets=", ".join(PRESETS))
        )
    return {r.name: r.presets.get(name, r.default) for r in HOUSE_RULES}


def official() -> dict[str, Any]:
    """Every house rule at its official value (the ``official`` preset)."""
    return preset("official")


def values_from(data: Mapping[str, Any]) -> dict[str, Any]:
    """Every house rule's value from an object of some of them (as JSON gives it), the others
    official.

    :raises ConfigError: for an unknown rule or a value its rule does not take.
    """
    if not isinstance(data, Mapping):
        raise ConfigError(
            _("house rules must be an object of rules, not {type}").format(type=type(data).__name__)
        )
    out = official()
    for key, value in data.items():
        rule = HOUSE_RULE.get(key)
        if rule is None:
            raise ConfigError(
                _("unknown house rule {key!r} (rules: {rules})").format(key=key, rules=", ".join(HOUSE_RULE))
            )
        out[key] = rule.check(value)
    return out


def combination_error(values: Mapping[str, Any], edition: str | None = None) -> str | None:
    """Why the house rules ``values`` (every rule's value) make no sense together, or at a
    table of ``edition`` (its name), or ``None`` (docs/rules.md §11.6): a rule on whose ``needs``
    are off, or with an option at a value of its ``conflicts`` (silent UNO with a missed-UNO
    penalty: nobody is ever caught)."""
    for rule in HOUSE_RULES:
        problem = _problem(rule, values, edition)
        if problem is not None:
            return problem
    return None


def _problem(rule: HouseRule, values: Mapping[str, Any], edition: str | None) -> str | None:
    """Why ``rule`` at its value in ``values`` is refused (:func:`combination_error`), or ``None``."""
    if not rule.is_on(values[rule.name]):
        return None
    for need in rule.needs:
        if not HOUSE_RULE[need].is_on(values[need]):
            return f"house rule {rule.spell(values[rule.name])} needs {need} (docs/rules.md §11.6)"
    for conflict in rule.conflicts:
        if conflict.option == "edition":
            value: Any = edition
            spelled = f"edition={edition}"
        else:
            value = values[conflict.option]
            spelled = HOUSE_RULE[conflict.option].spell(value)
        if any(HouseRule._same(value, v) for v in conflict.values):
            return (
                f"house rule {rule.name} means nothing with {spelled}: {conflict.why} (docs/rules.md §11.6)"
            )
    return None


def sensible(values: Mapping[str, Any], edition: str | None = None) -> dict[str, Any]:
    """``values`` with every rule that :func:`combination_error` would refuse put back to its
    official value: what the random combinations of the tests and the soak play."""
    out = dict(values)
    while combination_error(out, edition) is not None:  # one rule put back (off) at a time
        rule = next(r for r in HOUSE_RULES if _problem(r, out, edition) is not None)
        out[rule.name] = rule.default
    return out


def refusals(values: Mapping[str, Any]) -> list[tuple[HouseRule, Refusal]]:
    """The refusals in force with the house rules ``values`` (some or every rule's value), by
    rule in the records' order: what makes ``Tables.refuses_more``."""
    return [(r, x) for r in HOUSE_RULES if r.name in values for x in r.refusals(values[r.name])]


def active(values: Mapping[str, Any]) -> list[tuple[HouseRule, Any]]:
    """The rules of ``values`` (a :attr:`unotable.rules.Rules.house`) not at their official
    value, in the records' order, with their values."""
    return [(r, values[r.name]) for r in HOUSE_RULES if r.name in values and r.is_on(values[r.name])]


def spell_rules() -> str:
    """Each rule as ``--house`` text names it, with its other values (for help texts):
    ``stacking=same|any, seven_zero, jump_in, draw_to_match``."""
    out: list[str] = []
    for r in HOUSE_RULES:
        if r.kind == "choice":
            out.append(f"{r.name}={'|'.join(str(v) for v in r.values if v is not False)}")
        elif r.kind == "int":
            out.append(f"{r.name}={r.values[0]}..{r.values[1]}")
        else:
            out.append(r.name)
    return ", ".join(out)


def to_json() -> list[dict[str, Any]]:
    """Every record as ``GET /api/options`` sends it (``house_rules``)."""
    return [r.to_json() for r in HOUSE_RULES]


__all__ = [
    "ACTION_KINDS",
    "HOUSE_RULE",
    "HOUSE_RULES",
    "KINDS",
    "PRESETS",
    "PRESET_LABELS",
    "Conflict",
    "HouseRule",
    "Refusal",
    "active",
    "combination_error",
    "official",
    "preset",
    "refusals",
    "sensible",
    "spell_rules",
    "to_json",
    "values_from",
]

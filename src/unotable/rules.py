"""Editions and rule options as frozen data.

An :class:`Edition` is what the box says: its deck, its draw card, its penalties, whether action
cards open a response window. :class:`Rules` is one table's choice: an edition, a number of
players and the options of docs/rules.md (house rules are options, off by default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

from unotable.cards import (
    AW_DRAW_FOUR,
    AW_DRAW_TWO,
    AW_REVERSE,
    AW_SKIP,
    AW_SKIP_TWO,
    AW_SWAP,
    AW_TARGET,
    AW_WILD,
    BLANK,
    CARD_BY_CODE,
    CARD_CODE,
    CLASSIC_CARD_TYPES,
    COLOR_BY_CODE,
    COLORS,
    DRAW_THREE,
    DRAW_TWO,
    FL_DARK,
    FL_DARK_WILD,
    FL_DRAW_ONE,
    FL_FLIP,
    FL_WILD,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    MATER,
    NM_DISCARD_ALL,
    NM_DRAW_FOUR,
    NM_ROULETTE,
    NM_SKIP_ALL,
    NM_WILD_REVERSE_FOUR,
    NM_WILD_SIX,
    NM_WILD_TEN,
    NUM_CARD_TYPES,
    REVERSE,
    SKIP,
    VALUES_PER_COLOR,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
    card_type,
    flip_light,
)
from unotable.errors import ConfigError
from unotable.house import HOUSE_RULE, PRESETS, combination_error
from unotable.house import HOUSE_RULES as HOUSE_RULE_RECORDS
from unotable.house import preset as house_preset
from unotable.i18n import N_, _, ngettext

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
HAND_SIZE: Final = 7
MAX_TARGET: Final = 100_000
"""The highest target score (200 times the books' 500): a game to a higher one would never end."""


NO_MERCY_COLOURED: Final = (
    (SKIP, 3),
    (REVERSE, 3),
    (DRAW_TWO, 3),
    (NM_SKIP_ALL, 2),
    (NM_DISCARD_ALL, 3),
    (NM_DRAW_FOUR, 2),
)
"""No Mercy's action cards of each colour and their copies (docs/rules.md §14)."""


@dataclass(frozen=True)
class Edition:
    """A published edition of the game (RULES §1)."""

    name: str
    title: str
    draw_value: int
    """The coloured draw card: ``DRAW_TWO`` or ``DRAW_THREE``."""
    draw_amount: int
    specials: tuple[tuple[int, int], ...]
    """Special wild cards and their number of copies."""
    has_blanks: bool
    suggestion_penalty: int
    response_windows: bool
    """Harry Potter: every action card played on a seat opens a ``respond`` phase (RULES §5)."""
    dealer_method: str
    """``draw`` (highest card deals), ``birthday`` (closest to 31 July, else draw) or ``random``
    (a deck with no number: AW-3)."""
    only_specials: bool = False
    """The deck is its ``specials`` alone, with no coloured card, Wild or Wild Draw Four (UNO
    All Wild, docs/rules.md §13)."""
    no_mercy: bool = False
    """UNO Show 'Em No Mercy (docs/rules.md §14): its own coloured cards (two of every number,
    three Skip, Reverse, Draw Two and Discard All, two Skip Everyone and Draw Four in each
    colour) and no Wild or Wild Draw Four; its box rules are house rules always in force
    (stacking up, 7-0, draw until a card plays, NM-1)."""
    flip: bool = False
    """UNO Flip (docs/rules.md §15): two-sided cards; :meth:`base_deck` is their light faces,
    :meth:`dark_deck` their dark faces, paired anew each hand (FL-1)."""

    @property
    def card_space(self) -> int:
        """How many card types this edition's cards are numbered within: the first three
        editions' 65 (the native core's, and their env observations'), or up to the edition's
        last card type (the modern deck's 67, All Wild's 75), so that a later card type leaves
        an earlier edition's observations unchanged."""
        if self.flip:  # its dark faces are the last card types
            return NUM_CARD_TYPES
        last = max(card for card, _ in self.specials) if self.specials else 0
        return last + 1 if last >= CLASSIC_CARD_TYPES else CLASSIC_CARD_TYPES

    @property
    def has_custom(self) -> bool:
        """Whether the deck holds Wild Customizable cards (docs/rules.md §12)."""
        return any(card == WILD_CUSTOM for card, _ in self.specials)

    def base_deck(self) -> list[int]:
        """The edition's cards without blanks, as card types in a canonical order."""
        deck: list[int] = []
        if self.flip:  # docs/rules.md §15: the light faces of the 112 cards
            for color in range(4):
                for value in (*range(1, 10), SKIP, REVERSE, FL_DRAW_ONE, FL_FLIP):
                    deck += [flip_light(color, value)] * 2
            return deck + [FL_WILD] * 4 + [FL_WILD_DRAW_TWO] * 4
        if self.only_specials:
            for card, copies in self.specials:
                deck += [card] * copies
            return deck
        if self.no_mercy:  # docs/rules.md §14: the 168 cards of the box
            for color in range(4):
                for value in range(10):
                    deck += [card_type(color, value)] * 2
                for value, copies in NO_MERCY_COLOURED:
                    deck += [card_type(color, value)] * copies
            for card, copies in self.specials:
                deck += [card] * copies
            return deck
        for color in range(4):
            deck.append(card_type(color, 0))
            for value in range(1, 10):
                deck += [card_type(color, value)] * 2
            for value in (SKIP, REVERSE, self.draw_value):
                deck += [card_type(color, value)] * 2
        deck += [WILD] * 4 + [WILD_DRAW_FOUR] * 4
        for card, copies in self.specials:
            deck += [card] * copies
        return deck

    def dark_deck(self) -> list[int]:
        """UNO Flip's dark faces (docs/rules.md §15), in a canonical order; empty for the other
        editions, whose cards have one face."""
        if not self.flip:
            return []
        deck: list[int] = []
        for t in FL_DARK:
            deck += [t] * (4 if t in (FL_DARK_WILD, FL_WILD_DRAW_COLOR) else 2)
        return deck


CLASSIC: Final = Edition(
    name="classic",
    title="UNO",
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=(),
    has_blanks=True,
    suggestion_penalty=4,
    response_windows=False,
    dealer_method="draw",
)
HARRY_POTTER: Final = Edition(
    name="harry-potter",
    title="Harry Potter UNO",
    draw_value=DRAW_THREE,
    draw_amount=3,
    specials=((HOWLER, 1), (INVISIBILITY, 1)),
    has_blanks=False,
    suggestion_penalty=2,
    response_windows=True,
    dealer_method="birthday",
)
CARS2: Final = Edition(
    name="cars2",
    title="Cars 2 UNO",
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=((MATER, 4),),
    has_blanks=False,
    suggestion_penalty=2,
    response_windows=False,
    dealer_method="draw",
)

MODERN: Final = Edition(
    name="modern",
    title="UNO (2018 deck)",
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=((WILD_SHUFFLE, 1), (WILD_CUSTOM, 3)),
    has_blanks=False,
    suggestion_penalty=4,  # M-7
    response_windows=False,
    dealer_method="draw",
)
"""The classic deck as sold since 2018 (docs/rules.md §12): a Wild Shuffle Hands and three Wild
Customizable in place of the blanks."""

ALL_WILD: Final = Edition(
    name="all-wild",
    title=N_("UNO All Wild"),  # marked: the page shows it in its language
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=(
        (AW_WILD, 26),
        (AW_REVERSE, 18),
        (AW_SKIP, 18),
        (AW_SKIP_TWO, 8),
        (AW_DRAW_TWO, 18),
        (AW_DRAW_FOUR, 8),
        (AW_TARGET, 8),
        (AW_SWAP, 8),
    ),  # AW-2
    has_blanks=False,
    suggestion_penalty=4,  # AW-10
    response_windows=False,
    dealer_method="random",  # AW-3
    only_specials=True,
)
"""UNO All Wild (docs/rules.md §13): 112 cards, every one wild, no colour to match or name."""

NO_MERCY: Final = Edition(
    name="no-mercy",
    title=N_("UNO Show 'Em No Mercy"),  # marked: the page shows it in its language
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=((NM_WILD_REVERSE_FOUR, 8), (NM_WILD_SIX, 4), (NM_WILD_TEN, 4), (NM_ROULETTE, 8)),
    has_blanks=False,
    suggestion_penalty=4,  # NM-11
    response_windows=False,
    dealer_method="draw",
    no_mercy=True,
)
"""UNO Show 'Em No Mercy (docs/rules.md §14): 168 cards, stacking up to a Wild Draw Ten, 7-0,
draw until a card plays."""

FLIP: Final = Edition(
    name="flip",
    title=N_("UNO Flip"),  # marked: the page shows it in its language
    draw_value=DRAW_TWO,
    draw_amount=2,
    specials=(),
    has_blanks=False,
    suggestion_penalty=4,  # FL-12
    response_windows=False,
    dealer_method="draw",
    flip=True,
)
"""UNO Flip (docs/rules.md §15): 112 two-sided cards, a light side and a dark side."""

EDITIONS: Final[dict[str, Edition]] = {
    e.name: e for e in (CLASSIC, HARRY_POTTER, CARS2, MODERN, ALL_WILD, NO_MERCY, FLIP)
}
"""The editions by name."""
EDITION_ALIASES: Final[dict[str, str]] = {
    "uno": "classic",
    "standard": "classic",
    "hp": "harry-potter",
    "harry_potter": "harry-potter",
    "harrypotter": "harry-potter",
    "cars": "cars2",
    "cars-2": "cars2",
    "2018": "modern",
    "uno-2018": "modern",
    "allwild": "all-wild",
    "all_wild": "all-wild",
    "nomercy": "no-mercy",
    "no_mercy": "no-mercy",
    "show-em-no-mercy": "no-mercy",
    "uno-flip": "flip",
    "unoflip": "flip",
}
NO_MERCY_BOX_RULES: Final[Mapping[str, Any]] = {
    "stacking": "any",
    "seven_zero": True,
    "draw_to_match": True,
    "must_play_drawn": True,
}
"""docs/rules.md §14, NM-1: the house rules No Mercy's sheet makes its own, always in force (a
draw card answers only with one drawing as many or more: ``Tables.answers``)."""


def find_edition(name: str) -> Edition:
    """The edition called ``name`` (or one of its aliases), case-insensitively.

    :raises ConfigError: if there is no such edition.
    """
    if not isinstance(name, str):
        raise ConfigError(_("edition must be a string, not {type}").format(type=type(name).__name__))
    key = name.strip().lower()
    key = EDITION_ALIASES.get(key, key)
    try:
        return EDITIONS[key]
    except KeyError:
        known = ", ".join(EDITIONS)
        raise ConfigError(
            _("unknown edition {name!r} (known: {known})").format(name=name, known=known)
        ) from None


@dataclass(frozen=True)
class BlankEffect:
    """A house rule written on a blank card, built from the engine's effect primitives.

    The effects apply in this order: the direction changes (``reverse``), the next player shows
    their hand to the table (``reveal``), draws ``draw`` cards, and loses their turn (``skip``;
    a reverse with two players also skips, as a Reverse does). A ``wild`` blank is playable on
    anything and its player calls the colour (``play RBLANK G``).
    """

    draw: int = 0
    skip: bool = False
    reverse: bool = False
    wild: bool = False
    reveal: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The effect as the ``blanks`` option writes it (defaults left out)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out


BlankDefinition = int | BlankEffect
"""A blank is either the card type it replaces or a custom effect."""

SCORING_MODES: Final = ("standard", "lowest")
MODES: Final = ("solo", "partners", "teams", "rotating-partners", "two-tables", "challenge", "elimination")
"""Game formats (RULES §10). A hand is scored by team in the partnership modes."""
TEAM_MODES: Final = ("partners", "teams", "rotating-partners", "two-tables")
"""Modes whose hands are won by a team: even seats (team 0) against odd seats (team 1)."""
TEAM_SIZES: Final[dict[str, tuple[int, ...]]] = {
    "partners": (4,),
    "teams": (4, 6, 8, 10),
    "rotating-partners": (4,),
    "two-tables": (4,),
}
"""Players at one table, by team mode (a two-tables game is two tables of four)."""
HOUSE_RULES: Final = tuple(r.name for r in HOUSE_RULE_RECORDS)
"""The names of the house rules of docs/rules.md §11, options of :class:`Rules` at their official
value by default. Their records (values, presets, words, native support) are
:data:`unotable.house.HOUSE_RULES`."""
STACKING_VALUES: Final = tuple(v for v in HOUSE_RULE["stacking"].values if v is not False)
"""The values of ``stacking`` other than ``False``: draw cards answer only their own kind, or any."""
HOUSE_PRESETS: Final[dict[str, dict[str, Any]]] = {name: house_preset(name) for name in PRESETS}
"""docs/rules.md §11's presets, for the places where a person picks rules: every house rule's
value (made from the records)."""


@dataclass(frozen=True)
class Rules:
    """The rules one table plays by: an edition, a number of players, and options."""

    edition: Edition = CLASSIC
    players: int = 4
    must_play_drawn: bool = False
    """R-5 option: a playable drawn card must be played."""
    lenient_plays: bool = False
    """RULES §8, R-13: a wrong card is accepted and may be pointed out."""
    scoring: str = "standard"
    """``standard`` (the winner scores the others' cards) or ``lowest`` (R-11)."""
    target: int = 500
    mode: str = "solo"
    blanks: tuple[tuple[int, BlankDefinition], ...] = ()
    """Classic only: (colour index, definition) per defined blank; others are left out."""
    birthdays: tuple[str | None, ...] | None = None
    """Harry Potter dealer choice: each seat's birthday ``MM-DD`` or ``None``."""
    custom: BlankEffect | None = None
    """Modern only (docs/rules.md §12, M-5): the rule the table wrote on its Wild Customizable
    cards, always a wild card's (``wild`` set); ``None``: they are plain Wilds."""
    stacking: bool | str = False
    """RULES §11: ``False``, ``"same"`` (a draw card answers its own kind) or ``"any"``."""
    seven_zero: bool = False
    """RULES §11: a 7 swaps hands with a seat its player names; a 0 passes every hand on."""
    jump_in: bool = False
    """RULES §11: a seat holding the card identical to the top card may play it out of turn."""
    draw_to_match: bool = False
    """RULES §11: a seat that draws as its turn draws until it draws a playable card."""
    stack_cards: bool | str = False
    """RULES §11.5: which draw cards stack on which: ``False`` (as ``stacking`` says),
    ``"draws"`` (coloured draw cards only), ``"fours"`` (Wild Draw Fours only), ``"up"`` (a Wild
    Draw Four on a coloured draw card, never the reverse)."""
    deflect: bool | str = False
    """RULES §11.5: ``"reverse"``, ``"skip"`` or ``"both"``: such a card of the colour in play
    sends a pending draw on (Skip) or back (Reverse)."""
    forced_play: bool = False
    """RULES §11.5: a player holding a playable card must play (no draw; a playable drawn card
    is played)."""
    no_bluffing: bool = False
    """RULES §11.5: a Wild Draw Four is never challenged."""
    uno_penalty: int = 2
    """RULES §11.5: the cards drawn by a player caught without calling UNO."""
    uno_call: bool | str = False
    """RULES §11.5: ``"strict"`` (no late call) or ``"silent"`` (no call at all)."""
    no_action_finish: bool = False
    """RULES §11.5: a player may not play an action or wild card as their last card."""
    hand_limit: int = 112
    """RULES §11.5: a player holding this many cards draws no more (112: no limit)."""
    double_finish: bool = False
    """RULES §11.5: a hand won on a draw card scores double."""
    multi_play: bool | str = False
    """docs/rules.md §11.5: ``"number"`` (a number card's player may play their other cards of
    that number in the same turn) or ``"identical"`` (only cards identical to it)."""
    seed: int | None = field(default=None, compare=False)
    """A seed carried with the rules by scenario files and saved games; not a rule."""

    def __post_init__(self) -> None:
        p = self.players
        if not isinstance(p, int) or isinstance(p, bool) or not MIN_PLAYERS <= p <= MAX_PLAYERS:
            raise ConfigError(
                _("players must be an integer from {low} to {high}, not {value!r}").format(
                    low=MIN_PLAYERS, high=MAX_PLAYERS, value=p
                )
            )
        for name in ("must_play_drawn", "lenient_plays"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(
                    _("option {name} must be true or false, not {value!r}").format(
                        name=name, value=getattr(self, name)
                    )
                )
        if self.edition.no_mercy:  # docs/rules.md §14, NM-1: the box's rules are always played
            if self.stacking == "same" or self.stack_cards is not False:
                raise ConfigError(
                    _("the {edition} deck stacks a draw card on any drawing as many or more").format(
                        edition=self.edition.name
                    )
                )
            for name, value in NO_MERCY_BOX_RULES.items():
                object.__setattr__(self, name, value)
        for rule in HOUSE_RULE_RECORDS:
            rule.check(getattr(self, rule.name))
        if self.scoring not in SCORING_MODES:
            raise ConfigError(
                _("option scoring must be one of {known}, not {value!r}").format(
                    known=", ".join(SCORING_MODES), value=self.scoring
                )
            )
        t = self.target
        if not isinstance(t, int) or isinstance(t, bool) or not 0 < t <= MAX_TARGET:
            raise ConfigError(
                _("option target must be a whole number from 1 to {high}, not {value!r}").format(
                    high=MAX_TARGET, value=t
                )
            )
        if self.mode not in MODES:
            raise ConfigError(
                _("option mode must be one of {known}, not {value!r}").format(
                    known=", ".join(MODES), value=self.mode
                )
            )
        if self.mode in TEAM_SIZES and p not in TEAM_SIZES[self.mode]:
            sizes = TEAM_SIZES[self.mode]
            raise ConfigError(
                ngettext(
                    "mode {mode} is played {sizes} to a table, not {players}",
                    "mode {mode} is played {sizes} (one of them) to a table, not {players}",
                    len(sizes),
                ).format(mode=self.mode, sizes=", ".join(map(str, sizes)), players=p)
            )
        if self.mode == "challenge" and self.scoring != "standard":
            raise ConfigError(
                _("mode challenge charges each player their own cards: scoring must be standard")
            )
        if self.mode == "elimination" and self.scoring != "standard":  # docs/rules.md §10, H-36
            raise ConfigError(
                _("mode elimination charges each player their own cards: scoring must be standard")
            )
        if self.mode == "elimination" and t != 500:
            raise ConfigError(
                _(
                    "mode elimination is played until one player is left, not to a target: "
                    "leave the target at 500, not {value}"
                ).format(value=t)
            )
        if self.mode in TEAM_MODES and self.scoring != "standard":
            raise ConfigError(
                _("mode {mode} is scored by team: scoring must be standard").format(mode=self.mode)
            )
        if self.custom is not None and not self.edition.has_custom:
            raise ConfigError(
                _("the {edition} deck has no Wild Customizable cards").format(edition=self.edition.name)
            )
        if self.custom is not None and not self.custom.wild:
            raise ConfigError(_("a Wild Customizable card is a wild card: its effect must be wild"))
        if self.no_action_finish and self.edition.only_specials:  # docs/rules.md §13, AW-10
            raise ConfigError(
                _(
                    "no_action_finish cannot be played with the {edition} deck: every card is a wild card"
                ).format(edition=self.edition.name)
            )
        if self.blanks and not self.edition.has_blanks:
            raise ConfigError(_("the {edition} deck has no blank cards").format(edition=self.edition.name))
        seen: set[int] = set()
        for color, definition in self.blanks:
            if color in seen:
                raise ConfigError(_("blank {color} is defined twice").format(color=COLORS[color]))
            seen.add(color)
            if isinstance(definition, int) and definition not in self.edition.base_deck():
                raise ConfigError(
                    _("blank {color} replaces {card}, not a card of this deck").format(
                        color=COLORS[color], card=CARD_CODE[definition]
                    )
                )
        _check_house_combination(self)
        if self.birthdays is not None and len(self.birthdays) != p:
            raise ConfigError(
                _("birthdays must give one entry per player ({players}), not {count}").format(
                    players=p, count=len(self.birthdays)
                )
            )

    @property
    def house(self) -> dict[str, Any]:
        """The value of every house rule of RULES §11 (``stacking``, ``seven_zero``, ``jump_in``,
        ``draw_to_match``)."""
        return {key: getattr(self, key) for key in HOUSE_RULES}

    @property
    def preset(self) -> str | None:
        """The name of the preset of RULES §11 whose house rules these are, or ``None``."""
        house = self.house
        for name, values in HOUSE_PRESETS.items():
            if values == house:
                return name
        return None

    @property
    def teams(self) -> bool:
        """Whether hands are won and scored by team (team 0: even seats; team 1: odd seats)."""
        return self.mode in TEAM_MODES

    @property
    def score_slots(self) -> int:
        """The length of the scores of a hand: 2 teams, or one per player."""
        return 2 if self.teams else self.players

    def deck(self) -> list[int]:
        """The whole deck of this table: the edition's cards plus the defined blanks."""
        deck = self.edition.base_deck()
        for color, definition in self.blanks:
            deck.append(definition if isinstance(definition, int) else card_type(color, BLANK))
        return deck

    def blank_effect(self, color: int) -> BlankEffect | None:
        """The custom effect of the blank of ``color``, or ``None`` if it has none."""
        for c, definition in self.blanks:
            if c == color and isinstance(definition, BlankEffect):
                return definition
        return None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from their JSON form: ``edition``, ``players`` and any option by its name.

        :raises ConfigError: on an unknown key, an unknown edition or a value of the wrong type.
        """
        if not isinstance(data, Mapping):
            raise ConfigError(_("rules must be an object, not {type}").format(type=type(data).__name__))
        known = {
            "edition",
            "players",
            "must_play_drawn",
            "lenient_plays",
            "scoring",
            "target",
            "mode",
            "blanks",
            "birthdays",
            "custom",
            "seed",
            *HOUSE_RULES,
        }
        for key in data:
            if key not in known:
                raise ConfigError(_("unknown rules option {key!r}").format(key=key))
        kwargs: dict[str, Any] = {}
        kwargs["edition"] = find_edition(data.get("edition", "classic"))
        for key in ("players", "must_play_drawn", "lenient_plays", "scoring", "target", "mode", *HOUSE_RULES):
            if key in data:
                kwargs[key] = data[key]
        if "blanks" in data:
            kwargs["blanks"] = _parse_blanks(data["blanks"])
        if "birthdays" in data:
            kwargs["birthdays"] = _parse_birthdays(data["birthdays"])
        if "custom" in data:
            kwargs["custom"] = _parse_custom(data["custom"])
        if "seed" in data:
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ConfigError(_("seed must be an integer, not {value!r}").format(value=seed))
            kwargs["seed"] = seed
        return cls(**kwargs)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form read by :meth:`from_dict` (options at their default are left out)."""
        out: dict[str, Any] = {"edition": self.edition.name, "players": self.players}
        defaults = _defaults()
        for key in ("must_play_drawn", "lenient_plays", "scoring", "target", "mode", *HOUSE_RULES):
            if getattr(self, key) != getattr(defaults, key):
                out[key] = getattr(self, key)
        if self.blanks:
            out["blanks"] = {
                COLORS[c]: CARD_CODE[d] if isinstance(d, int) else d.to_dict() for c, d in self.blanks
            }
        if self.birthdays is not None:
            out["birthdays"] = list(self.birthdays)
        if self.custom is not None:
            out["custom"] = {k: v for k, v in self.custom.to_dict().items() if k != "wild"}
        if self.seed is not None:
            out["seed"] = self.seed
        return out


_DEFAULT_RULES: list[Rules] = []


def _defaults() -> Rules:
    """The default rules, made once (:meth:`Rules.to_dict` leaves out what equals them)."""
    if not _DEFAULT_RULES:
        _DEFAULT_RULES.append(Rules())
    return _DEFAULT_RULES[0]


def _check_house_combination(rules: Rules) -> None:
    """docs/rules.md §11.6: house rules that make no sense together are refused, never played
    half-way.

    :raises ConfigError: naming the rules and what they need.
    """
    error = combination_error(rules.house, rules.edition.name)
    if error is not None:
        raise ConfigError(error)


def parse_house(spec: str) -> dict[str, Any]:
    """Every house rule's value as ``spec`` writes them: presets and rules separated by commas,
    later items overriding earlier ones, the rest official. An item is a preset of docs/rules.md
    §11 (``official``, ``popular``, ``party``), a rule by name (``jump_in``: on; ``stacking``
    alone is ``"same"``: the record's ``bare`` value), or ``name=value`` (``true``/``false`` for
    a rule that is on or off; ``same``/``any``/``false`` for ``stacking``). Examples:
    ``"popular"``, ``"stacking=same,jump_in"``, ``"party,seven_zero=false"``.

    :raises ConfigError: for an unknown preset or house rule, or a bad value.
    """
    if not isinstance(spec, str):
        raise ConfigError(
            _("house rules must be written as text, not {type}").format(type=type(spec).__name__)
        )
    out: dict[str, Any] = dict(HOUSE_PRESETS["official"])
    items = [item.strip() for item in spec.split(",")]
    if not any(items):
        raise ConfigError(
            _("no house rules given (a preset: official, popular, party, crazy; or a rule: jump_in)")
        )
    for item in items:
        if not item:
            continue
        name, eq, raw = (part.strip() for part in item.partition("="))
        key = name.lower().replace("-", "_")
        if not eq and key in HOUSE_PRESETS:
            out.update(HOUSE_PRESETS[key])
            continue
        rule = HOUSE_RULE.get(key)
        if rule is None:
            raise ConfigError(
                _("unknown house rule {name!r} (rules: {rules}; presets: {presets})").format(
                    name=name, rules=", ".join(HOUSE_RULES), presets=", ".join(HOUSE_PRESETS)
                )
            )
        out[key] = rule.parse(raw if eq else None)
    return out


def _parse_blanks(data: Any) -> tuple[tuple[int, BlankDefinition], ...]:
    if not isinstance(data, Mapping):
        raise ConfigError(_("option blanks must be an object from colour letter to a card code or an effect"))
    out: list[tuple[int, BlankDefinition]] = []
    for letter, definition in data.items():
        if letter not in COLOR_BY_CODE:
            raise ConfigError(
                _("blanks: {letter!r} is not a colour letter (R, Y, G, B)").format(letter=letter)
            )
        color = COLOR_BY_CODE[letter]
        if isinstance(definition, str):
            card = CARD_BY_CODE.get(definition)
            if card is None or (card % VALUES_PER_COLOR == BLANK and card < 60):
                raise ConfigError(
                    _("blanks: {card!r} is not a card a blank can replace").format(card=definition)
                )
            out.append((color, card))
        elif isinstance(definition, Mapping):
            _check_effect(definition, {f.name for f in fields(BlankEffect)})
            out.append((color, BlankEffect(**definition)))
        else:
            raise ConfigError(
                _("blanks: {letter} must be a card code or an effect object, not {value!r}").format(
                    letter=letter, value=definition
                )
            )
    out.sort(key=lambda item: item[0])
    return tuple(out)


def _check_effect(definition: Mapping[Any, Any], allowed: set[str]) -> None:
    """:raises ConfigError: if ``definition`` is not an effect object of ``allowed`` keys."""
    for key, value in definition.items():
        if key not in allowed:
            raise ConfigError(
                _("blanks: unknown effect {key!r} (known: {known})").format(
                    key=key, known=", ".join(sorted(allowed))
                )
            )
        if key == "draw":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20:
                raise ConfigError(
                    _("blanks: draw must be an integer from 0 to 20, not {value!r}").format(value=value)
                )
        elif not isinstance(value, bool):
            raise ConfigError(
                _("blanks: {key} must be true or false, not {value!r}").format(key=key, value=value)
            )


def _parse_custom(data: Any) -> BlankEffect | None:
    """docs/rules.md §12, M-5: the Wild Customizable's rule, an effect object as a blank's without
    ``wild`` (the card always is one); ``null`` or ``{}``: a plain Wild."""
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise ConfigError(
            _("option custom must be an effect object (draw, skip, reverse, reveal), not {value!r}").format(
                value=data
            )
        )
    _check_effect(data, {f.name for f in fields(BlankEffect)} - {"wild"})
    effect = BlankEffect(wild=True, **data)
    return None if effect == BlankEffect(wild=True) else effect


def _parse_birthdays(data: Any) -> tuple[str | None, ...]:
    if not isinstance(data, list):
        raise ConfigError(_("birthdays must be a list with one MM-DD string or null per player"))
    out: list[str | None] = []
    for item in data:
        if item is None:
            out.append(None)
            continue
        if not isinstance(item, str) or birthday_day(item) is None:
            raise ConfigError(_("birthdays: {value!r} is not a date MM-DD").format(value=item))
        out.append(item)
    return tuple(out)


_MONTH_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def birthday_day(text: str) -> int | None:
    """Day of the year (0-364; 29 February counts as 28 February) of ``MM-DD``, or ``None``."""
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        return None
    month, day = int(parts[0]), int(parts[1])
    if not 1 <= month <= 12:
        return None
    limit = 29 if month == 2 else _MONTH_DAYS[month - 1]
    if not 1 <= day <= limit:
        return None
    return sum(_MONTH_DAYS[: month - 1]) + min(day, _MONTH_DAYS[month - 1]) - 1

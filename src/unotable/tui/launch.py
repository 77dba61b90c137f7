"""``uno play``: its flags, the game they set up, and how it runs (the Textual app in a terminal;
a plain-text run of a bots-only game without one).

Textual is imported only when the app starts, so the plain-text run and ``uno --help`` stay quick.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TextIO

from unotable import argtypes, savefile
from unotable.bots import BOT_NAMES
from unotable.bots.levels import LEVELS, level_words
from unotable.bots.spec import BotSpec, parse_bots
from unotable.bots.table import BotTable
from unotable.errors import ConfigError, UnoError
from unotable.i18n import _, ngettext
from unotable.match import Game, SavedGameError
from unotable.rules import EDITIONS, MODES, Rules
from unotable.tui import words
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, HUMAN_NAME, Table
from unotable.tui.record import summary

DEFAULT_DELAY: Final = 1.0
"""Seconds a bot thinks before each action, by default (twice that while a window is open)."""
DEFAULT_FORGET_RATE: Final = 0.2
"""How often, by default, a bot forgets to call UNO with its next-to-last card."""
DEFAULT_BOTS: Final = "greedy"
"""The bot of every bot seat, by default."""
SEED_BITS: Final = 128
"""Bits of a new game's seed, from :mod:`secrets`: a player's own cards must not single it out."""
DEDICATED: Final = ("edition", "players", "mode", "target")
"""Rules options that have a flag of their own."""
TERMINAL_OPTIONS: Final = {"auto_accept": True}
"""Options of the terminal game given with ``--option`` (not rules), with their defaults:
``auto_accept`` answers for you an action card played on you when you hold no Invisibility."""


class PlayError(UnoError):
    """The flags of ``uno play`` do not make a game (a one-line error, exit status 2)."""


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    """The flags of ``uno play``."""
    play.add_argument(
        "--edition",
        type=argtypes.edition,
        default=None,
        help=_("one of {editions} (classic)").format(editions=", ".join(EDITIONS)),
    )
    play.add_argument(
        "--players", type=argtypes.players, default=None, help=_("players at the table, 2 to 10 (4)")
    )
    play.add_argument("--mode", choices=MODES, default=None, help=_("game format (solo)"))
    play.add_argument(
        "--target", type=argtypes.positive, default=None, help=_("points that win the game (500)")
    )
    play.add_argument(
        "--option",
        type=argtypes.rules_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_(
            "a rules option, e.g. must_play_drawn=true, lenient_plays=true, scoring=lowest, or the "
            "terminal's auto_accept=false (Harry Potter: accept for you a card played on you when you "
            "hold no Invisibility; on by default) (repeatable)"
        ),
    )
    play.add_argument(
        "--house", type=argtypes.house, default=None, metavar="RULES", help=argtypes.house_help()
    )
    play.add_argument(
        "--bots",
        default=None,
        help=_(
            "bot kinds, one for all or one per bot, comma-separated ({bots}); "
            "options as name:key=value ({default}; with --resume, the saved game's); "
            "or a strength: {levels}"
        ).format(
            bots=", ".join(BOT_NAMES),
            default=DEFAULT_BOTS,
            # argparse formats a help with %: the figures' signs doubled
            levels="; ".join(level_words(level) for level in LEVELS).replace("%", "%%"),
        ),
    )
    play.add_argument(
        "--forget-rate",
        type=argtypes.rate,
        default=None,
        help=_("how often a bot forgets to call UNO, 0 to 1 ({default})").format(default=DEFAULT_FORGET_RATE),
    )
    play.add_argument(
        "--rounds", type=argtypes.positive, default=1, help=_("rounds of the schedule (rotating modes)")
    )
    play.add_argument("--seed", type=int, default=None, help=_("seed for reproducible deals"))
    play.add_argument(
        "--save", metavar="FILE", default=None, help=_("write the game to FILE after every action")
    )
    play.add_argument(
        "--resume", metavar="FILE", default=None, help=_("go on with a saved game (and save to it again)")
    )
    play.add_argument("--auto", action="store_true", help=_("bots play every seat; watch the game"))
    play.add_argument("--fast", action="store_true", help=_("no thinking delay"))
    play.add_argument(
        "--delay",
        type=argtypes.seconds,
        default=None,
        help=_("seconds a bot thinks before it acts ({default}; doubled while a window is open)").format(
            default=DEFAULT_DELAY
        ),
    )
    play.add_argument(
        "--text",
        action="store_true",
        help=_("with --auto: print the game as text instead of the full screen"),
    )


@dataclass
class PlaySetup:
    """What ``uno play``'s flags set up."""

    table: Table
    delay: float
    auto: bool
    seed: int
    save: Path | None
    auto_accept: bool = True


def _terminal_options(args: argparse.Namespace) -> dict[str, Any]:
    out = dict(TERMINAL_OPTIONS)
    for key, value in args.option:
        if key in TERMINAL_OPTIONS:
            if not isinstance(value, bool):
                raise PlayError(_("{key} is true or false, not {value!r}").format(key=key, value=value))
            out[key] = value
    return out


def _rules_options(args: argparse.Namespace) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in args.option if k not in TERMINAL_OPTIONS]


def _rules_data(args: argparse.Namespace) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key in DEDICATED:
        value = getattr(args, key)
        if value is not None:
            data[key] = value
    for key, value in _rules_options(args):
        if key in data:
            raise PlayError(_("{key} is given twice (--{key} and --option {key}=...)").format(key=key))
        data[key] = value
    for key, value in (args.house or {}).items():
        if key in data:
            raise PlayError(_("{key} is given twice (--house and --option {key}=...)").format(key=key))
        data[key] = value
    data.setdefault("edition", "classic")
    return data


def setup(args: argparse.Namespace) -> PlaySetup:
    """The game, bots and table that the flags ask for.

    :raises PlayError: (or another :class:`UnoError`) when they do not make a game.
    """
    save = Path(args.save) if args.save else None
    terminal = _terminal_options(args)
    saved: dict[str, Any] = {}
    if args.resume:
        given = [f"--{k}" for k in DEDICATED if getattr(args, k) is not None]
        given += ["--option"] if _rules_options(args) else []
        given += ["--house"] if args.house is not None else []
        given += ["--seed"] if args.seed is not None else []
        given += ["--rounds"] if args.rounds != 1 else []
        if given:
            raise PlayError(
                _("{flags} cannot be used with --resume: the saved game has its rules").format(
                    flags=", ".join(given)
                )
            )
        path = Path(args.resume)
        try:
            game, saved = savefile.load(path)
        except SavedGameError as exc:
            raise PlayError(
                _("{file} cannot be resumed: {error}").format(file=args.resume, error=exc)
            ) from None
        seed = game.seed
        save = save or path
    else:
        seed = args.seed if args.seed is not None else secrets.randbits(SEED_BITS)
        rules = Rules.from_dict(_rules_data(args))
        game = Game.new(rules, seed, rounds=args.rounds)
    settings = _settings(args, saved)
    human = None if args.auto else 0
    bot_players = [p for p in range(game.players) if p != human]
    specs = _bot_specs(args, game, bot_players)
    game.seats = tuple(None if p == human else specs[bot_players.index(p)].label for p in range(game.players))
    try:  # the bot table's one seeding rule (unotable.bots.table), as uno mcp's
        bot_table = BotTable.from_specs(
            dict(zip(bot_players, specs, strict=True)), seed, settings["forget_rate"]
        )
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    names = [_(HUMAN_NAME) if p == human else BOT_NAMES_FOR_PEOPLE[p] for p in range(game.players)]
    table = Table(
        game,
        bot_table.bots,
        human=human,
        names=names,
        seed=bot_table.seed,
        watch=0 if args.auto else None,
        save=save,
        settings=settings,
    )
    if save is not None:
        _first_save(table, save)
    delay = 0.0 if args.fast else settings["delay"]
    return PlaySetup(table, delay, bool(args.auto), seed, save, bool(terminal["auto_accept"]))


def again(args: argparse.Namespace, table: Table) -> argparse.Namespace:
    """The flags of a new game with the settings of ``table``'s game (rules, bots, their
    settings, the save file) and a new seed: what "new game" at the end of a game plays."""
    game = table.game
    new = argparse.Namespace(**vars(args))
    new.resume = None
    new.seed = None
    new.save = args.save or args.resume
    new.edition = new.players = new.mode = new.target = None
    new.option = [*game.rules.to_dict().items(), *((k, v) for k, v in args.option if k in TERMINAL_OPTIONS)]
    new.rounds = game.rounds
    new.forget_rate = table.settings.get("forget_rate", args.forget_rate)
    new.delay = table.settings.get("delay", args.delay)
    if game.seats is not None:
        new.bots = ",".join(spec for spec in game.seats if spec is not None)
    return new


def _settings(args: argparse.Namespace, saved: dict[str, Any]) -> dict[str, Any]:
    """The settings of the bot seats: the flags', else the saved game's, else the defaults. A flag
    that would change a saved setting is refused."""
    out: dict[str, Any] = {}
    for key, flag, check, default in (
        ("forget_rate", "--forget-rate", argtypes.rate, DEFAULT_FORGET_RATE),
        ("delay", "--delay", argtypes.seconds, DEFAULT_DELAY),
    ):
        given = getattr(args, key)
        if key in saved:
            try:
                value = check(str(saved[key]))
            except argparse.ArgumentTypeError as exc:
                raise PlayError(_("the saved setting {key}: {error}").format(key=key, error=exc)) from None
            if given is not None and given != value:
                raise PlayError(
                    _("{flag} {given:g} would change the saved game's {value:g}: leave it out").format(
                        flag=flag, given=given, value=value
                    )
                )
            out[key] = value
        else:
            out[key] = default if given is None else given
    return out


def _bot_specs(args: argparse.Namespace, game: Game, bot_players: list[int]) -> tuple[BotSpec, ...]:
    """Who plays each bot seat: ``--bots``, else the saved game's bots (a seat a person played
    and ``--auto`` now gives to a bot gets the default bot)."""
    try:
        if game.seats is None:
            return parse_bots(args.bots or DEFAULT_BOTS, len(bot_players))
        saved = tuple(BotSpec.parse(game.seats[p] or DEFAULT_BOTS) for p in bot_players)
    except ConfigError as exc:
        if args.bots is None and args.resume:
            raise PlayError(
                _("{error} (the bots saved in {file})").format(error=exc, file=args.resume)
            ) from None
        raise PlayError(str(exc)) from None
    if args.bots is None:
        return saved
    try:
        wanted = parse_bots(args.bots, len(bot_players))
    except ConfigError as exc:
        raise PlayError(str(exc)) from None
    for p, old, new in zip(bot_players, saved, wanted, strict=True):
        if game.seats[p] is not None and old.label != new.label:
            raise PlayError(
                _("--bots would change player {player}'s saved bot {old!r} to {new!r}: leave it out").format(
                    player=p, old=old.label, new=new.label
                )
            )
    return wanted


def _first_save(table: Table, save: Path) -> None:
    try:
        if save.is_dir():
            raise PlayError(_("cannot save to {file}: it is a folder").format(file=save))
        if not save.parent.is_dir():
            raise PlayError(
                _("cannot save to {file}: no folder {folder}").format(file=save, folder=save.parent)
            )
        table.save()
    except OSError as exc:
        raise PlayError(
            _("cannot save to {file}: {error}").format(file=save, error=exc.strerror or exc)
        ) from None


def run_play(args: argparse.Namespace, *, stdout: TextIO | None = None) -> int:
    """Run ``uno play``; the exit status."""
    out = stdout or sys.stdout
    try:
        ps = setup(args)
    except UnoError as exc:
        print(_("uno play: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    # Textual draws on stderr and reads stdin: all three must be the terminal.
    terminal = out.isatty() and sys.stdin.isatty() and sys.stderr.isatty()
    if ps.auto and (args.text or not terminal):
        ps.table.watch = None  # printed for a spectator: public events only
        ps.table.save()
        return run_text(ps.table, ps.delay, out)
    if args.text:
        print(
            _("uno play: error: --text goes with --auto (a person plays on the full screen)"), file=sys.stderr
        )
        return 2
    if not terminal:
        print(
            _("uno play: error: the game needs a terminal (watch bots play without one: --auto --fast)"),
            file=sys.stderr,
        )
        return 2
    from unotable.tui.app import UnoApp  # noqa: PLC0415 - Textual loads only for the full screen

    while True:
        app = UnoApp(ps.table, delay=ps.delay, auto=ps.auto, auto_accept=ps.auto_accept)
        app.run()
        ps.table.save()
        if app.return_code:
            return app.return_code
        if not app.new_game:
            break
        args = again(args, ps.table)
        try:
            ps = setup(args)
        except UnoError as exc:
            print(_("uno play: error: {message}").format(message=exc), file=sys.stderr)
            return 2
    if not ps.auto:
        print(summary(ps.table), file=out)
    return 0


def run_text(table: Table, delay: float, out: TextIO) -> int:
    """Play a bots-only game to its end, printing what a spectator sees; exit status 0."""
    game = table.game
    rules = game.rules
    print(
        (
            _("{edition}, {players} players, {mode}, to {target} points")
            if rules.mode != "elimination"
            else _("{edition}, {players} players, {mode}, until one is left")
        ).format(
            edition=words.edition_title(rules.edition.name),
            players=game.players,
            mode=words.mode_name(rules.mode),
            target=rules.target,
        ),
        file=out,
    )
    print(words.hand_header(game.hand_index + 1), file=out)
    _print(table.deal_lines(), out)
    while True:
        if game.hand_over:
            print(
                _("Scores after hand {number}: {scores}").format(
                    number=game.hand_index + 1, scores=_scores(table)
                ),
                file=out,
            )
            last = game.results[-1]
            out_now = [table.display_name(p) for p in last.deal.seating if p in game.standings().eliminated]
            if out_now:  # challenge, elimination: who this hand put out (docs/rules.md §10)
                print(words.out_of_the_game(out_now), file=out)
            if game.finished:
                break
            print(words.hand_header(game.hand_index + 2), file=out)
            _print(table.next_hand(), out)
            continue
        move = table.next_bot_move()
        if move is None:  # pragma: no cover - every seat is a bot
            raise RuntimeError("nobody to act in a bots-only game")
        _print(table.apply(move.player, move.action), out)
        if delay:
            out.flush()
            time.sleep(delay)
    winners = [table.display_name(p) for p in game.winners]
    # The seed only now: during the game it would give away the deck (P-141).
    print(
        ngettext(
            "Game over: {names} wins. Seed {seed}.", "Game over: {names} win. Seed {seed}.", len(winners)
        ).format(names=words.join_names(winners), seed=game.seed),
        file=out,
    )
    print(_("Scores: {scores}").format(scores=_scores(table)), file=out)
    return 0


def _scores(table: Table) -> str:
    return ", ".join(f"{name} {points}" for name, points in table.scores_lines())


def _print(lines: Sequence[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)

"""The ``uno`` command."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import NoReturn

from unotable.engine import legal_ids, new_hand, step
from unotable.errors import UnoError
from unotable.events import Event
from unotable.narrate import describe
from unotable.notation import ACTION_TEXT, ACTION_UNO
from unotable.rules import EDITIONS, Rules, find_edition
from unotable.scenario import run_files
from unotable.state import Phase, State


class _Parser(argparse.ArgumentParser):
    """Bad arguments get one line on stderr and exit status 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be a whole number, not {text!r}") from None
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError(f"players must be from 2 to 10, not {value}")
    return value


def _edition(text: str) -> str:
    try:
        return find_edition(text).name
    except UnoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of ``uno``."""
    parser = _Parser(prog="uno", description="UNO with the exact rules of your box.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sc = sub.add_parser("scenario", help="run scenario files (NOTATION.md); exit 0 when all pass")
    sc.add_argument("files", nargs="+", help="scenario JSON files")
    sc.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")

    play = sub.add_parser("play", help="play a hand (for now: bots only, printing what happens)")
    play.add_argument("--edition", type=_edition, default="classic", help=f"one of {', '.join(EDITIONS)}")
    play.add_argument("--players", type=_players, default=4, help="2 to 10")
    play.add_argument("--seed", type=int, default=None, help="seed for a reproducible deal")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``uno`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "scenario":
            return _scenario(args.files, args.quiet)
        if args.command == "play":
            return _play(args.edition, args.players, args.seed)
    except UnoError as exc:
        print(f"uno: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 2  # pragma: no cover - argparse requires a command


def _scenario(files: list[str], quiet: bool) -> int:
    passed, failed, lines = run_files(files)
    for line in lines:
        print(line)
    if not quiet or failed:
        print(f"scenarios: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def _play(edition: str, players: int, seed: int | None) -> int:
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rules = Rules(edition=find_edition(edition), players=players)
    names = [f"Bot {i}" for i in range(players)]
    st, events = new_hand(rules, seed)
    print(f"{rules.edition.title}, {players} players, seed {seed}")
    _print_events(events)
    policy = random.Random(seed)
    while st.phase < Phase.HAND_OVER:
        seat, aid = _random_bot_move(st, policy)
        events = []
        step(st, seat, aid, events)
        _print_events(events, names)
    print(f"Scores: {', '.join(f'{names[s]} {st.scores[s]}' for s in range(players))}")
    return 0


def _random_bot_move(st: State, policy: random.Random) -> tuple[int, int]:
    """A bot that plays uniformly at random and always calls UNO with its next-to-last card."""
    seat = st.current
    ids = legal_ids(st, seat)
    calls = [a for a in ids if ACTION_UNO[a]]
    if calls:
        plain = {ACTION_TEXT[a].removesuffix(" uno") for a in calls}
        ids = [a for a in ids if ACTION_UNO[a] or ACTION_TEXT[a] not in plain]
    # out-of-turn options (catch, wrong, a late uno) are declined
    ids = [a for a in ids if ACTION_TEXT[a].split(" ")[0] not in ("catch", "wrong", "uno")] or ids
    return seat, policy.choice(ids)


def _print_events(events: list[Event], names: Sequence[str] | None = None) -> None:
    for e in events:
        text = describe(e, names or [f"Bot {i}" for i in range(10)])
        if text:
            print(text)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

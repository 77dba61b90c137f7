"""The ``uno`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from unotable.errors import UnoError
from unotable.mcp import run as run_mcp
from unotable.scenario import run_files
from unotable.simcli import add_simulate_arguments, run_simulate
from unotable.tui.launch import add_play_arguments, run_play
from unotable.web.serve import add_serve_arguments, run_serve


class _Parser(argparse.ArgumentParser):
    """Bad arguments get one line on stderr and exit status 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of ``uno``."""
    parser = _Parser(
        prog="uno",
        description="UNO with the exact rules of your box.",
        epilog="Start with `uno play`; `uno COMMAND --help` shows a command's flags.",
    )
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND", required=True,
                                parser_class=_Parser)  # fmt: skip

    sc = sub.add_parser("scenario", help="run scenario files (NOTATION.md); exit 0 when all pass")
    sc.add_argument("files", nargs="+", help="scenario JSON files")
    sc.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")

    play = sub.add_parser(
        "play",
        help="play UNO against bots on the full terminal screen (--auto: bots only)",
        description="Play UNO against bots in the terminal: a whole game to the target score.",
    )
    add_play_arguments(play)

    simulate = sub.add_parser(
        "simulate",
        help="play many hands or games between bots: win rates with 95%% intervals",
        description="Play many hands or whole games between bots, on every core, from a seed.",
    )
    add_simulate_arguments(simulate)

    serve = sub.add_parser(
        "serve",
        help="host games in the browser: rooms, friends and bots over the network",
        description="Serve UNO in the browser: make a room, share its link, play in real time.",
    )
    add_serve_arguments(serve)
    sub.add_parser(
        "mcp", help="let an AI assistant play against bots: an MCP server over stdio ([mcp] extra)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``uno`` command; returns the exit status. Without arguments it lists the commands."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    try:
        if args.command == "scenario":
            return _scenario(args.files, args.quiet)
        if args.command == "play":
            return run_play(args)
        if args.command == "simulate":
            return run_simulate(args)
        if args.command == "serve":
            return run_serve(args)
        if args.command == "mcp":
            return run_mcp()
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

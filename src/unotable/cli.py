"""The ``uno`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from unotable import argtypes
from unotable.errors import UnoError
from unotable.i18n import _, set_language
from unotable.i18n.argparse_words import install as install_argparse_words
from unotable.mcp import run as run_mcp
from unotable.scenario import run_files
from unotable.simcli import add_simulate_arguments, run_simulate
from unotable.tui.launch import add_play_arguments, run_play
from unotable.web.serve import add_cluster_arguments, add_serve_arguments, run_cluster, run_serve


class _Parser(argparse.ArgumentParser):
    """Bad arguments get one line on stderr and exit status 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{program}: error: {message}").format(program=self.prog, message=message) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of ``uno``."""
    parser = _Parser(
        prog="uno",
        description=_("UNO with the exact rules of your box."),
        epilog=_("Start with `uno play`; `uno COMMAND --help` shows a command's flags."),
    )
    _add_language(parser)
    sub = parser.add_subparsers(dest="command", title=_("commands"), metavar="COMMAND", required=True,
                                parser_class=_Parser)  # fmt: skip

    sc = sub.add_parser("scenario", help=_("run scenario files (docs/notation.md); exit 0 when all pass"))
    sc.add_argument("files", nargs="+", help=_("scenario JSON files"))
    sc.add_argument("-q", "--quiet", action="store_true", help=_("print only failures and the summary"))
    _add_language(sc)

    play = sub.add_parser(
        "play",
        help=_("play UNO against bots on the full terminal screen (--auto: bots only)"),
        description=_("Play UNO against bots in the terminal: a whole game to the target score."),
    )
    add_play_arguments(play)
    _add_language(play)

    simulate = sub.add_parser(
        "simulate",
        help=_("play many hands or games between bots: win rates with 95%% intervals"),
        description=_("Play many hands or whole games between bots, on every core, from a seed."),
    )
    add_simulate_arguments(simulate)
    _add_language(simulate)

    serve = sub.add_parser(
        "serve",
        help=_("host games in the browser: rooms, friends and bots over the network"),
        description=_("Serve UNO in the browser: make a room, share its link, play in real time."),
    )
    add_serve_arguments(serve)
    _add_language(serve)
    cluster = sub.add_parser(
        "cluster",
        help=_("the servers that share one PostgreSQL database: their rooms and leases"),
        description=_("Show the nodes of a service of several uno serve on one PostgreSQL database."),
    )
    add_cluster_arguments(cluster)
    _add_language(cluster)
    mcp = sub.add_parser(
        "mcp", help=_("let an AI assistant play against bots: an MCP server over stdio ([mcp] extra)")
    )
    _add_language(mcp)
    return parser


def _add_language(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        type=argtypes.language,
        default=None,
        metavar="LANG",
        help=_(
            "the language of every word shown: en, pt (Portugal), pt_BR (Brazil) or fr (else LC_ALL, "
            "LC_MESSAGES or LANG; else en)"
        ),
    )


def _language_flag(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``argv`` (before the parser is built: its help and
    errors are in that language too)."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``uno`` command; returns the exit status. Without arguments it lists the commands."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        set_language(_language_flag(argv))
    except ValueError:
        set_language(None)  # the parser refuses the flag, in the environment's language
    install_argparse_words()
    parser = build_parser()
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
        if args.command == "cluster":
            return run_cluster(args)
        if args.command == "mcp":
            return run_mcp()
    except UnoError as exc:
        print(_("uno: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 2  # pragma: no cover - argparse requires a command


def _scenario(files: list[str], quiet: bool) -> int:
    passed, failed, lines = run_files(files)
    for line in lines:
        print(line)
    if not quiet or failed:
        print(_("scenarios: {passed} passed, {failed} failed").format(passed=passed, failed=failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

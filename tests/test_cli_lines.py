"""A newcomer's bad command lines for ``uno simulate``, ``uno play``, ``uno scenario`` and
``uno cluster`` (``uno serve``'s: tests/web/test_serve_errors.py): one line on standard error,
nothing on standard output, exit status 2, and nothing run first."""

from __future__ import annotations

from pathlib import Path

import pytest

from unotable import simcli
from unotable.cli import main
from unotable.errors import ConfigError


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse exits on a flag it refuses
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def no_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulation that would run fails the test: every line below is refused before it."""

    def ran(*args: object, **kwargs: object) -> None:
        raise AssertionError("the simulation ran")

    monkeypatch.setattr(simcli, "simulate", ran)


BAD = [
    ["simulate", "--hands", "0"],
    ["simulate", "--hands", "abc"],
    ["simulate", "--games", "-1"],
    ["simulate", "--hands", "5", "--games", "5"],
    ["simulate", "--players", "1"],
    ["simulate", "--players", "11"],
    ["simulate", "--edition", "nope"],
    ["simulate", "--bots", "nope"],
    ["simulate", "--bots", "search:budget=abc"],
    ["simulate", "--bots", "greedy,greedy,greedy", "--players", "2"],
    ["simulate", "--workers", "0"],
    ["simulate", "--seed", "abc"],
    ["simulate", "--option", "foo"],
    ["simulate", "--option", "nosuch=1"],
    ["simulate", "--option", "target=500"],
    ["simulate", "--house", "nosuch"],
    ["simulate", "--target", "-5"],
    ["simulate", "--mode", "xx"],
    ["simulate", "--core", "nope"],
    ["simulate", "--address", "x"],
    ["simulate", "--json", "/nonexistent/x.json"],
    ["simulate", "--plot", "/nonexistent/x.png"],
    ["play", "--players", "0", "--auto", "--text"],
    ["play", "--edition", "xx", "--auto", "--text"],
    ["play", "--resume", "/nonexistent.json", "--auto", "--text"],
    ["play", "--save", "/nonexistent/dir/x.json", "--auto", "--text"],
    ["play", "--bots", "nope", "--auto", "--text"],
    ["play", "--delay", "100"],
    ["play", "--delay", "abc"],
    ["play", "--forget-rate", "2"],
    ["play", "--rounds", "0"],
    ["play", "--text"],
    ["play", "--option", "auto_accept=3", "--auto", "--text"],
    ["play", "--mode", "two-tables", "--players", "3", "--auto", "--text"],
    ["play", "--players", "2", "--bots", "greedy,greedy,greedy", "--auto", "--text"],
    ["play", "--house", "stacking=sometimes", "--auto", "--text"],
    ["cluster", "stat", "--database", "x"],
    ["cluster", "status"],
    ["cluster", "status", "--database", "foo://bar"],
    ["--lang", "xx", "play"],
    ["nosuchcommand"],
]


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_bad_command_lines_are_one_line_and_exit_2(
    argv: list[str], no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "", out
    assert err.startswith("uno") and ": error: " in err and err.count("\n") == 1, err
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux's /proc: a folder nobody may write in")
@pytest.mark.parametrize("flag", ["--json", "--plot"])
def test_an_output_file_that_cannot_be_written_is_refused_before_the_simulation(
    flag: str, no_simulation: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # /proc is a folder, and os.access calls it writable for root: only trying tells.
    code, out, err = run(["simulate", "--hands", "5", flag, "/proc/unotable-results.json"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("uno simulate: error: cannot write to /proc/unotable-results.json")


def test_the_output_check_leaves_no_file_and_keeps_an_existing_one(tmp_path: Path) -> None:
    new = tmp_path / "new.json"
    simcli._check_output(str(new))
    assert not new.exists()
    old = tmp_path / "old.json"
    old.write_text("kept")
    simcli._check_output(str(old))
    assert old.read_text() == "kept"
    with pytest.raises(ConfigError, match="it is a folder"):
        simcli._check_output(str(tmp_path))

"""``uno serve`` and ``uno cluster`` on a bad command line or a database or address they cannot
use: one clear line on standard error, nothing printed as served, and the documented exit status
(2: the command line is wrong; 1: it is right but the server cannot start now)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from unotable.cli import main
from unotable.i18n import set_language
from unotable.web import serve

UNREACHABLE = "postgresql://nobody:secret@127.0.0.1:1/none"
"""Nothing listens on port 1: the connection is refused at once."""


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What uvicorn was asked to serve (empty while nothing started)."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: seen.update(kw, app=app))
    return seen


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse exits on a flag it refuses
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, command: str = "serve") -> str:
    assert err.startswith(f"uno {command}: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_an_unknown_kind_of_database_is_a_bad_argument(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", "--database", "foo://bar", "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and not started and "http://" not in out
    assert "--database takes postgresql://" in one_line(err) and "'foo://bar'" in err


def test_an_unreachable_postgresql_is_one_line_and_exit_1(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", "--database", UNREACHABLE, "--data-dir", str(tmp_path)], capsys)
    assert code == serve.EXIT_CANNOT_START == 1 and not started and out == ""
    assert "cannot reach the database postgresql+psycopg://nobody@127.0.0.1:1/none" in one_line(err)
    assert "secret" not in err
    code, out, err = run(["cluster", "status", "--database", UNREACHABLE], capsys)
    assert code == 1 and out == ""
    assert "cannot reach the database" in one_line(err, "cluster") and "secret" not in err


def test_a_sqlite_file_that_cannot_be_opened_is_one_line(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'x.db'}"
    code, _out, err = run(["serve", "--database", url, "--data-dir", str(tmp_path)], capsys)
    assert code == 1 and not started
    assert "cannot reach the database sqlite:///" in one_line(err)


@pytest.mark.parametrize("lang", ["pt", "fr", "pt_BR"])
def test_the_database_line_is_in_the_language_asked(
    lang: str, started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code, _out, err = run(
            ["serve", "--lang", lang, "--database", UNREACHABLE, "--data-dir", str(tmp_path)], capsys
        )
        english = "cannot reach the database"
        assert code == 1 and english not in err and "postgresql+psycopg://nobody@127.0.0.1:1/none" in err
        code, _out, err = run(
            ["serve", "--lang", lang, "--host", "999.1.1.1", "--data-dir", str(tmp_path)], capsys
        )
        assert code == 2 and "--host" in err and "takes an address" not in err
    finally:
        set_language("en")


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid"])
def test_a_host_that_is_no_address_fails_before_it_is_advertised(
    host: str, started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", "--host", host, "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and not started and out == ""
    assert "--host takes an address of this machine" in one_line(err) and repr(host) in err


def test_an_address_of_another_machine_fails_before_it_is_advertised(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", "--host", "192.0.2.7", "--data-dir", str(tmp_path)], capsys)
    assert code == 1 and not started and out == ""  # 192.0.2.0/24 is for documentation only
    assert "192.0.2.7 is not an address of this machine" in one_line(err)


def test_a_port_taken_by_another_program_says_so(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        code, out, err = run(["serve", "--port", str(port), "--data-dir", str(tmp_path)], capsys)
    assert code == 1 and not started and out == ""
    assert f"another program listens on port {port}" in one_line(err)


def test_a_good_command_line_still_starts(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, _err = run(
        ["serve", "--no-access-log", "--port", str(port), "--data-dir", str(tmp_path)], capsys
    )
    assert code == 0 and started["port"] == port
    assert f"http://127.0.0.1:{port}/" in out


BAD_SERVE = [
    ["--port", "abc"],
    ["--port", "0"],
    ["--port", "70000"],
    ["--rate", "-1"],
    ["--max-connections", "0"],
    ["--waiting-hours", "-3"],
    ["--waiting-hours", "abc"],
    ["--finished-days", "nan"],
    ["--idle-days", "0"],
    ["--unload-minutes", "inf"],
    ["--rooms-per-address", "-1"],
    ["--seats-per-address", "1.5"],
    ["--lookups-per-second", "-2"],
    ["--probes-per-second", "x"],
    ["--max-rooms", "-1"],
    ["--bot-workers", "0"],
    ["--bot-cpu-share", "-0.1"],
    ["--forwarded-allow-ips", "not an ip"],
    ["--forwarded-allow-ips", "127.0.0.1,proxy"],
    ["--public-url", "uno.example.org"],
    ["--allow-origin", "foo"],
    ["--durability", "fast"],
    ["--advertise", "http://x"],
    ["--database", "mysql://u@h/db"],
    ["--database", "::nonsense::"],
    ["--lang", "xx"],
]


@pytest.mark.parametrize("argv", BAD_SERVE, ids=" ".join)
def test_bad_serve_command_lines_are_one_line_and_exit_2(
    argv: list[str], started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", *argv, "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and not started and out == ""
    one_line(err)


def test_a_data_dir_that_is_a_file_is_one_line(
    started: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _out, err = run(["serve", "--data-dir", str(blocker)], capsys)
    assert code == 2 and not started
    one_line(err)


def test_cluster_without_postgresql_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(["cluster", "status", "--database", "foo://bar"], capsys)
    assert code == 2
    assert "uno cluster needs a PostgreSQL database" in one_line(err, "cluster")

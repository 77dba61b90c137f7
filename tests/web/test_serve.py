"""``uno serve``: its flags, and what it says without the web extra."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable.cli import build_parser, main
from unotable.web import serve
from unotable.web.serve import INSTALL_HINT, _shown, default_data_dir


def test_flags_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.database, args.data_dir, args.rate) == (
        "127.0.0.1",
        8000,
        None,
        None,
        10.0,
    )
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9", "--database", "postgresql://u@h/d", "--data-dir", "x"]
    )
    assert (args.host, args.port, args.database, args.data_dir) == ("0.0.0.0", 9, "postgresql://u@h/d", "x")


def test_without_the_extra_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert INSTALL_HINT in err and "make setup" in err


def test_bad_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["serve", "--port", "70000", "--data-dir", str(tmp_path)]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--rate", "0", "--data-dir", str(tmp_path)]) == 2
    assert "--rate" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["serve", "--data-dir", str(blocker / "sub")]) == 2
    assert "cannot make" in capsys.readouterr().err


def test_the_database_password_is_not_printed() -> None:
    assert _shown("postgresql+psycopg://me:secret@db/x") == "postgresql+psycopg://me@db/x"
    assert _shown("sqlite:////tmp/u.db") == "sqlite:////tmp/u.db"


def test_default_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert default_data_dir() == Path("/data/unotable")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == Path.home() / ".local" / "share" / "unotable"


def test_the_addresses_friends_open(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    assert serve.friend_urls("0.0.0.0", 8000) == ["http://192.168.1.20:8000/", "http://10.0.0.5:8000/"]
    assert serve.friend_urls("127.0.0.1", 8000) == [] and serve.friend_urls("localhost", 8000) == []
    assert serve.friend_urls("10.0.0.5", 9) == ["http://10.0.0.5:9/"]
    assert serve.friend_urls("fd00::1", 9) == ["http://[fd00::1]:9/"]


def test_this_machine_s_network_addresses_are_never_loopback() -> None:
    for address in serve.lan_addresses():
        ip = ipaddress.ip_address(address)
        assert not ip.is_loopback and not ip.is_link_local and ip.version == 4


def test_serving_on_every_address_prints_what_friends_open(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    started: dict[str, Any] = {}
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.update(kw, app=app))
    monkeypatch.setattr(serve, "listen_problem", lambda host, port: None)  # 8000 may be taken here
    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.20"])
    assert (
        main(["serve", "--no-access-log", "--host", "0.0.0.0", "--port", "8123", "--data-dir", str(tmp_path)])
        == 0
    )
    out = capsys.readouterr().out
    assert "Friends on the same network can open: http://192.168.1.20:8123/" in out
    assert started["host"] == "0.0.0.0" and started["port"] == 8123
    assert main(["serve", "--no-access-log", "--data-dir", str(tmp_path)]) == 0
    assert "Friends" not in capsys.readouterr().out  # 127.0.0.1: this machine only
    monkeypatch.setattr(serve, "lan_addresses", list)
    assert main(["serve", "--no-access-log", "--host", "0.0.0.0", "--data-dir", str(tmp_path)]) == 0
    assert "No network address found" in capsys.readouterr().out
    assert (
        main(["serve", "--no-access-log", "--public-url", "uno.example.org", "--data-dir", str(tmp_path)])
        == 2
    )
    assert "--public-url" in capsys.readouterr().err


def test_uno_serve_runs_the_servers_garbage_collection(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`uno serve` owns its process, so it keeps the collector out of the rooms' way
    (web/collector.py); ``create_app`` alone leaves the process's collector as it is."""
    from unotable.web import app as web_app  # noqa: PLC0415

    made: dict[str, Any] = {}
    real = web_app.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(web_app, "create_app", spy)  # imported by `uno serve` when it starts
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: None)
    monkeypatch.setattr(serve, "listen_problem", lambda host, port: None)
    assert main(["serve", "--no-access-log", "--data-dir", str(tmp_path)]) == 0
    assert made.get("collect") is True

"""The deployment recipes of docs/deploy.md, checked as far as this machine allows: the systemd
unit (``systemd-analyze verify``, then its ``ExecStart`` run against a temp folder) and the
container recipe (no container engine runs here: its venv, install and command are run the same
way in a temp folder, marked slow)."""

from __future__ import annotations

import configparser
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from unotable.web.serve import EXIT_BAD_ARGUMENTS

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs" / "deploy" / "unotable.service"
CONTAINERFILE = ROOT / "docs" / "deploy" / "Containerfile"
UNO = Path(sys.executable).parent / "uno"
"""The venv's ``uno``, standing for the unit's /opt/unotable/bin/uno."""


def service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_value(argv: list[str], flag: str, value: str) -> list[str]:
    """``argv`` with ``flag``'s value replaced (the flag must be there)."""
    i = argv.index(flag)
    return [*argv[: i + 1], value, *argv[i + 2 :]]


def serves(argv: list[str], port: int, env: dict[str, str] | None = None) -> None:
    """Run ``argv`` (a ``uno serve``), wait for ``/healthz`` to answer 200, then stop it with SIGTERM
    as systemd and container engines do; it must be gone soon after."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (
                f"uno serve exited {proc.returncode}: {proc.stdout.read() if proc.stdout else ''}"
            )
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "uno serve did not answer /healthz within 60 s"
                time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.skipif(not UNO.exists(), reason="no uno command beside this Python")
def test_the_unit_verifies(tmp_path: Path) -> None:
    # systemd-analyze checks ExecStart's program exists: the venv's uno stands for /opt's.
    text = UNIT.read_text().replace("/opt/unotable/bin/uno", str(UNO))
    unit = tmp_path / "unotable.service"
    unit.write_text(text)
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "unotable.service" not in proc.stderr, proc.stderr


def test_the_unit_does_not_restart_a_bad_command_line() -> None:
    s = service()
    assert s["Restart"] == "on-failure"
    assert s["RestartPreventExitStatus"] == str(EXIT_BAD_ARGUMENTS)
    argv = shlex.split(s["ExecStart"])
    assert argv[:2] == ["/opt/unotable/bin/uno", "serve"]
    proc = subprocess.run(
        [sys.executable, "-m", "unotable", *argv[1:], "--port", "0"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == EXIT_BAD_ARGUMENTS and "--port" in proc.stderr


def test_the_unit_s_command_serves(tmp_path: Path) -> None:
    argv = shlex.split(service()["ExecStart"])
    port = free_port()
    argv = with_value(with_value(argv, "--data-dir", str(tmp_path / "data")), "--port", str(port))
    assert argv[argv.index("--host") + 1] == "127.0.0.1"  # behind nginx, on loopback
    serves([sys.executable, "-m", "unotable", *argv[1:]], port)
    assert (tmp_path / "data" / "unotable.db").exists()


def recipe() -> tuple[list[str], list[str]]:
    """The Containerfile's RUN lines and its CMD (JSON form)."""
    runs: list[str] = []
    cmd: list[str] = []
    for line in CONTAINERFILE.read_text().splitlines():
        if line.startswith("RUN "):
            runs.append(line[4:])
        elif line.startswith("CMD "):
            cmd = json.loads(line[4:])
    return runs, cmd


def test_the_container_recipe_is_complete() -> None:
    text = CONTAINERFILE.read_text()
    assert any(line.startswith("FROM python:3.11") for line in text.splitlines())
    runs, cmd = recipe()
    assert any("pip install" in r and "'.[web]'" in r for r in runs)
    assert cmd[:2] == ["/opt/unotable/bin/uno", "serve"] and "/data" in cmd
    assert "USER unotable" in text and "VOLUME /data" in text and "EXPOSE 8000" in text


@pytest.mark.slow
def test_the_container_recipe_installs_and_serves(tmp_path: Path) -> None:
    """The recipe's venv and install run as written (paths moved into a temp folder; the apt-get
    line is the image's, not run here), then its CMD serves (on loopback, not 0.0.0.0)."""
    source = tmp_path / "src"  # COPY . /src: the tracked files
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True)
    for name in files.stdout.splitlines():
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    venv = tmp_path / "opt-unotable"
    runs, cmd = recipe()

    def moved(text: str) -> str:
        return text.replace("/opt/unotable", str(venv)).replace("python -m venv", f"{sys.executable} -m venv")

    for run in runs:
        if run.startswith(("apt-get", "useradd")):
            continue  # the image's system packages and user
        subprocess.run(moved(run), shell=True, cwd=source, check=True, timeout=1800)
    assert (venv / "bin" / "uno").exists()
    port = free_port()
    argv = [moved(a) for a in cmd]
    argv = with_value(with_value(argv, "--data-dir", str(tmp_path / "data")), "--port", str(port))
    argv = with_value(argv, "--host", "127.0.0.1")  # loopback only here
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the installed package, not ours
    serves(argv, port, env)

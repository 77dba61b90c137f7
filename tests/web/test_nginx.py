"""``uno serve`` behind nginx (docs/deploy.md), end to end on loopback: Debian's nginx runs the
documented configuration (docs/deploy/nginx.conf) with a throwaway certificate, TLS ends there,
and the server sees each client's own address through ``X-Forwarded-For``."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from unotable.web.guard import Limits

from .conftest import LiveServer

CONF = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "nginx.conf"
NGINX_HOST = "127.0.0.2"
ROOM = {"edition": "classic", "players": 2, "seats": ["human", "greedy"], "bot_delay": 0}


def _need(program: str) -> str:
    path = shutil.which(program) or (
        f"/usr/sbin/{program}" if Path(f"/usr/sbin/{program}").exists() else None
    )
    if path:
        return path
    if os.environ.get("CI"):
        pytest.fail(f"{program} is not installed: CI must run the nginx test (.ci/run installs it)")
    pytest.skip(f"{program} is not installed (apt-get install {program})")


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def site_config(upstream_port: int, port: int, cert: Path, key: Path) -> str:
    """docs/deploy/nginx.conf with the test's ports and certificate, and no port-80 redirect."""
    text = CONF.read_text()
    text = re.sub(r"server \{\n    listen 80;.*?\n\}\n", "", text, flags=re.S)
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};")
    text = text.replace("listen 443 ssl;", f"listen {NGINX_HOST}:{port} ssl;")
    text = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};", text)
    assert str(cert) in text and str(key) in text and f"{NGINX_HOST}:{port}" in text
    return text


@pytest.fixture
def behind_nginx(
    tmp_path: Path, sqlite_url: str, request: pytest.FixtureRequest
) -> Iterator[tuple[LiveServer, str]]:
    """A server trusting 127.0.0.1 as its proxy (3 connections an address, unless a test gives
    its own :class:`Limits` as the fixture's indirect parameter), and nginx in front of it; the
    base URL through nginx."""
    nginx = _need("nginx")
    openssl = _need("openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={NGINX_HOST}",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    limits = getattr(request, "param", None) or Limits(per_address=3)
    server = LiveServer(sqlite_url, limits=limits, trusted="127.0.0.1")
    port = _free_port(NGINX_HOST)
    (tmp_path / "site.conf").write_text(site_config(int(server.http.rsplit(":", 1)[1]), port, cert, key))
    temp = tmp_path / "nginx-temp"
    temp.mkdir()
    user = "user root;\n" if os.geteuid() == 0 else ""
    (tmp_path / "nginx.conf").write_text(
        f"{user}worker_processes 1;\ndaemon off;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\n"
        "events { worker_connections 256; }\n"
        f"http {{\n  access_log {tmp_path}/access.log;\n  client_body_temp_path {temp}/body;\n"
        f"  proxy_temp_path {temp}/proxy;\n  fastcgi_temp_path {temp}/fastcgi;\n"
        f"  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
        f"  include {tmp_path}/site.conf;\n}}\n"
    )
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"https://{NGINX_HOST}:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection((NGINX_HOST, port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    log = (tmp_path / "error.log").read_text() if (tmp_path / "error.log").exists() else ""
                    raise RuntimeError(f"nginx did not start: {err} {log}") from None
                time.sleep(0.05)
        yield server, base
    finally:
        proc.terminate()
        proc.wait(10)
        server.stop()


def _tls() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def _request(base: str, method: str, path: str, body: object = None) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=20, context=_tls()) as res:
            return res.status, {k.lower(): v for k, v in res.headers.items()}, res.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def test_the_page_and_the_api_through_nginx(behind_nginx: tuple[LiveServer, str]) -> None:
    _, base = behind_nginx
    status, headers, body = _request(base, "GET", "/")
    assert status == 200 and b"<html" in body
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["strict-transport-security"].startswith("max-age=")
    status, _, body = _request(base, "POST", "/api/rooms", ROOM)
    assert status == 201
    code = json.loads(body)["code"]
    status, _, body = _request(base, "GET", f"/api/rooms/{code}")
    assert status == 200 and json.loads(body)["code"] == code


def test_websockets_through_nginx_count_each_clients_own_address(
    behind_nginx: tuple[LiveServer, str],
) -> None:
    _, base = behind_nginx
    _, _, body = _request(base, "POST", "/api/rooms", ROOM)
    code = json.loads(body)["code"]
    url = base.replace("https://", "wss://") + f"/ws/{code}"

    async def open_from(address: str, headers: dict[str, str] | None = None) -> ClientConnection:
        ws = await connect(url, ssl=_tls(), local_addr=(address, 0), additional_headers=headers)
        await ws.send(json.dumps({"type": "hello", "token": None}))
        first = json.loads(await ws.recv())
        assert first["type"] != "error", first
        return ws

    async def scenario() -> None:
        mine = [await open_from("127.0.0.3") for _ in range(3)]
        # The fourth from the same client is over its limit of 3, whatever it claims to be.
        for claim in (None, {"X-Forwarded-For": "127.0.0.9"}):
            with pytest.raises(InvalidStatus) as refused:
                await open_from("127.0.0.3", claim)
            assert refused.value.response.status_code == 403
        # Another client, through the same nginx, is its own address: served.
        other = await open_from("127.0.0.4")
        for ws in [*mine, other]:
            await ws.close()

    asyncio.run(scenario())


def _seconds(text: str, name: str) -> float:
    found = re.search(rf"^\s*{name}\s+(\d+)(s|m|h)?;", text, re.M)
    assert found, f"the site sets {name}"
    return float(found.group(1)) * {"s": 1, None: 1, "m": 60, "h": 3600}[found.group(2)]


def test_the_sites_timeouts_match_the_pages_heartbeat_and_the_servers_idle_close() -> None:
    """The page pings every 10 s and the server closes a socket silent for 35 s (issue 31): the
    site must not wait an hour on a quiet connection (a frozen node's clients heard nothing),
    nor cut a live one whose pings keep it busy: longer than two pings' round trips and than
    the server's own idle close (which says why, with its code), at most a minute."""
    from unotable.web.connection import IDLE_SECONDS  # noqa: PLC0415

    page = (CONF.parents[2] / "src" / "unotable" / "web" / "static" / "js" / "net.js").read_text()
    found = re.search(r"^export const PING_MS = (\d+);", page, re.M)
    assert found, "the page's heartbeat"
    ping = int(found.group(1)) / 1000
    site = CONF.read_text()
    text = site.split("location / {", 1)[1]  # the WebSockets' (and every request's but /healthz)
    for name in ("proxy_read_timeout", "proxy_send_timeout"):
        assert 2 * ping < IDLE_SECONDS < _seconds(text, name) <= 60, name
    assert _seconds(text, "proxy_connect_timeout") <= 2  # a lost node: the next one, not 60 s later
    # /healthz, asked by a page whose node went silent: a frozen node is given up within 2 s.
    healthz = site.split("location = /healthz {", 1)[1].split("}", 1)[0]
    assert _seconds(healthz, "proxy_read_timeout") <= 2 and _seconds(healthz, "proxy_connect_timeout") <= 2

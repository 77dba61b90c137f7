"""The web page's screenshots in docs/figures/: ``python -m tests.web.screenshots [DIR]``.

A server dealing from fixed seeds runs in this process; Debian's chromium plays the seat of
"Ana" through the page (as the browser tests do) at 1280x800 and at 390x844: the table of each
edition (Harry Potter's with its Howler shouting a hand, Cars 2's with Mater's look), the lobby,
the end of a hand with every hand face up, and a replay. Look at each file before committing.
"""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright
from websockets.sync.client import connect as ws_connect

from unotable.web.app import create_app
from unotable.web.client import http_json
from unotable.web.guard import Limits
from unotable.web.serve import WS_MAX_SIZE

from .test_browser import ARGS, CHROMIUM, DESKTOP, PHONE, Player, state, take_seat

LIMITS = Limits(max_connections=10_000, per_address=10_000)
"""Every page here comes from 127.0.0.1: no per-address cap."""

EDITIONS = {"classic": (10, "W+4"), "harry-potter": (50, "HOWLER"), "cars2": (9, "MATER")}
"""Each edition's seed (four players: Ana, player 0, is dealt the card and plays first)."""


class Server:
    """The app on a free loopback port, dealing every game from the seed last set."""

    def __init__(self, database: str) -> None:
        self.seed = 1
        config = uvicorn.Config(
            create_app(database, seeds=lambda: self.seed, rate=1000.0, limits=LIMITS),
            host="127.0.0.1",
            port=0,
            ws_max_size=WS_MAX_SIZE,
            log_level="warning",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the screenshots' server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.http = f"http://127.0.0.1:{port}"

    def room(self, settings: dict[str, Any], seed: int) -> str:
        self.seed = seed
        code: str = http_json(self.http, "POST", "/api/rooms", settings)["code"]
        return code

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@contextmanager
def page_at(browser: Any, viewport: dict[str, int]) -> Iterator[Page]:
    ctx = browser.new_context(viewport=viewport, device_scale_factor=1)
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


def play(page: Page, actions: int, deadline: float = 60.0) -> None:
    """Ana plays ``actions`` actions (or until the hand is over)."""
    ana = Player(page, "Ana")
    end = time.monotonic() + deadline
    done = 0
    while done < actions and time.monotonic() < end:
        m = state(page)
        if m and m["table"]["hand_over"]:
            return
        if ana.turn():
            done += 1
        else:
            time.sleep(0.05)


def my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => { const m = window.unotable.msg; return m && !m.table.hand_over"
        " && m.view.current === m.seat && m.view.legal.length > 0; }",
        timeout=60_000,
    )


def settle(page: Page) -> None:
    """Let the motion end (cards in flight, bursts)."""
    page.wait_for_function("() => document.querySelectorAll('#fx > *').length === 0", timeout=10_000)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    time.sleep(0.3)  # the focus ring's and hover's CSS transitions, which no event marks


def edition_table(server: Server, browser: Any, edition: str, viewport: dict[str, int], out: Path) -> None:
    seed, card = EDITIONS[edition]
    settings = {
        "edition": edition,
        "players": 4,
        "seats": ["human", "greedy", "greedy", "greedy"],
        "bot_delay": 0.8,
    }
    code = server.room(settings, seed)
    with page_at(browser, viewport) as page:
        take_seat(page, server.http, code, "Ana")
        my_turn(page)
        if edition == "classic":
            play(page, 5)
            my_turn(page)
        else:
            page.press(f'#hand .card[data-code="{card}"]', "Enter")
            if page.locator("#chooser button[data-action]").count():
                page.click("#chooser button[data-action] >> nth=0")
            page.wait_for_selector("#seats .reveal .card")
        settle(page)
        page.screenshot(path=str(out))


def lobby(server: Server, browser: Any, viewport: dict[str, int], out: Path) -> None:
    listed = {"players": 4, "seats": ["human", "human", "greedy", "greedy"], "room": {"listed": True}}
    code = server.room(listed, 1)
    http_json(server.http, "POST", f"/api/rooms/{code}/join", {"name": "Ben"})
    with page_at(browser, viewport) as page:
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        page.fill("#name", "Ana")
        page.click(".avatar-color >> nth=4")
        time.sleep(0.3)  # the chosen colour's CSS transition, which no event marks
        page.screenshot(path=str(out), full_page=viewport is PHONE)


def hand_over(server: Server, browser: Any, viewport: dict[str, int], out: Path) -> None:
    settings = {"players": 3, "seats": ["human", "greedy", "greedy"], "bot_delay": 0.1, "target": 500}
    code = server.room(settings, 2)
    with page_at(browser, viewport) as page:
        take_seat(page, server.http, code, "Ana")
        play(page, 400, deadline=180)
        page.wait_for_selector("#overlay #hands-up", timeout=60_000)
        time.sleep(1.2)  # the points count up
        page.screenshot(path=str(out))


def replay(server: Server, browser: Any, viewport: dict[str, int], out: Path) -> None:
    code = server.room(
        {"players": 3, "seats": ["greedy", "random", "cautious"], "bot_delay": 0, "target": 60}, 2
    )
    end = time.monotonic() + 120
    # Watched, or the room would pause (nobody connected: issue 23) and the game never end.
    with ws_connect(f"{server.http.replace('http', 'ws', 1)}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        while http_json(server.http, "GET", f"/api/rooms/{code}")["status"] != "finished":
            if time.monotonic() > end:
                raise RuntimeError("the bots' game did not end")
            with contextlib.suppress(TimeoutError):
                while True:
                    ws.recv(timeout=0.2)
    with page_at(browser, viewport) as page:
        page.goto(f"{server.http}/r/{code}/replay/0")
        page.wait_for_selector("#replay-step")
        for _ in range(24):
            page.keyboard.press("ArrowRight")
        time.sleep(0.3)  # the last step's CSS transition, which no event marks
        page.screenshot(path=str(out))


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/figures")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/shots.db")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                shots: list[tuple[str, Callable[[Path], None]]] = [
                    ("web-lobby.png", lambda f: lobby(server, browser, DESKTOP, f)),
                    ("web-lobby-phone.png", lambda f: lobby(server, browser, PHONE, f)),
                    ("web-table.png", lambda f: edition_table(server, browser, "classic", DESKTOP, f)),
                    ("web-phone.png", lambda f: edition_table(server, browser, "classic", PHONE, f)),
                    (
                        "web-harry-potter.png",
                        lambda f: edition_table(server, browser, "harry-potter", DESKTOP, f),
                    ),
                    (
                        "web-harry-potter-phone.png",
                        lambda f: edition_table(server, browser, "harry-potter", PHONE, f),
                    ),
                    ("web-cars2.png", lambda f: edition_table(server, browser, "cars2", DESKTOP, f)),
                    ("web-cars2-phone.png", lambda f: edition_table(server, browser, "cars2", PHONE, f)),
                    ("web-hand-over.png", lambda f: hand_over(server, browser, DESKTOP, f)),
                    ("web-hand-over-phone.png", lambda f: hand_over(server, browser, PHONE, f)),
                    ("web-replay.png", lambda f: replay(server, browser, DESKTOP, f)),
                    ("web-replay-phone.png", lambda f: replay(server, browser, PHONE, f)),
                ]
                only = set(argv[1:])
                for name, make in shots:
                    if only and name not in only:
                        continue
                    make(out / name)
                    print(out / name, flush=True)
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

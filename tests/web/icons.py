"""The installed app's PNG icons, made from the project's own SVG art: ``python -m tests.web.icons``.

Debian's chromium (driven by Playwright, as the browser tests) draws ``static/icon.svg`` and
``static/icon-maskable.svg`` (its card inside the maskable safe zone, the centre circle of 80%)
at 192 and 512 pixels and writes ``static/icon-192.png``, ``icon-512.png``,
``icon-maskable-192.png`` and ``icon-maskable-512.png``, the files
``/manifest.webmanifest`` names (``unotable.web.shell.ICONS``). Run it after changing either
SVG and commit the PNGs with it; test_browser_app.py checks each PNG's size.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from unotable.web.shell import ICONS, STATIC

from .test_browser import ARGS, CHROMIUM


def make_icons(static: Path = STATIC) -> list[Path]:
    """Draw each icon of :data:`~unotable.web.shell.ICONS`; the files written."""
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name, size, purpose in ICONS:
                source = static / ("icon-maskable.svg" if purpose == "maskable" else "icon.svg")
                page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
                svg = source.read_text(encoding="utf-8")
                svg = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
                page.set_content(f'<body style="margin:0;background:transparent">{svg}</body>')
                out = static / name
                page.screenshot(
                    path=str(out), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size}
                )
                page.close()
                written.append(out)
        finally:
            browser.close()
    return written


if __name__ == "__main__":
    for path in make_icons(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC):
        print(path)

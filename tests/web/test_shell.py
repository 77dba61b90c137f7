"""The page as an installable app, over HTTP (issue 34, item 5; ``unotable.web.shell``): the
manifest and its icons, the service worker's script and what it keeps, the assets' version.
The browser's side (the worker registered, the page offline, an upgrade) is test_browser_app.py."""

from __future__ import annotations

import json
import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from unotable import __version__
from unotable.i18n import LANGUAGES
from unotable.web.app import create_app
from unotable.web.guard import CSP
from unotable.web.shell import ICONS, STATIC, asset_version, shell_files, worker_script


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (no image library needed)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_has_what_an_install_needs_and_its_icons_their_sizes(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest", headers={"accept-language": "en"})
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == "application/manifest+json"
    m = json.loads(r.text)
    assert m["name"] == m["short_name"] == "unotable" and len(m["short_name"]) <= 12
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert m["lang"] == "en" and m["description"].startswith("UNO with friends")
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", m[key]), key
    pngs = [i for i in m["icons"] if i["type"] == "image/png"]
    assert {(i["sizes"], i["purpose"]) for i in pngs} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    }
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].split(";")[0] == icon["type"]
        if icon["type"] == "image/png":
            w, h = (int(n) for n in icon["sizes"].split("x"))
            assert png_size(got.content) == (w, h), icon["src"]
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="' + m["theme_color"] + '">' in page


@pytest.mark.parametrize(
    ("header", "lang", "start"), [("fr-FR", "fr", "UNO entre amis"), ("pt-BR", "pt-BR", "UNO com amigos na")]
)
def test_the_manifest_speaks_the_request_language(
    client: TestClient, header: str, lang: str, start: str
) -> None:
    m = client.get("/manifest.webmanifest", headers={"accept-language": header}).json()
    english = client.get("/manifest.webmanifest", headers={"accept-language": "en"}).json()
    assert m["lang"] == lang
    assert m["description"].startswith(start) and m["description"] != english["description"]


def test_the_worker_is_served_from_the_root_uncached_under_the_policy(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == "text/javascript"
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["content-security-policy"] == CSP
    version = client.app.state.asset_version  # type: ignore[attr-defined]
    assert f"const VERSION = {json.dumps(version)};" in r.text
    kept = json.loads(re.search(r"^const SHELL = (.*);$", r.text, re.M).group(1))  # type: ignore[union-attr]
    assert kept == shell_files()
    # The page, every module, the style, the icons and every language's words; not the worker.
    must = {"/", "/manifest.webmanifest", "/static/style.css", "/static/js/main.js", "/static/js/cards.js"}
    assert must <= set(kept)
    assert {f"/api/words/{lang}" for lang in LANGUAGES} <= set(kept)
    assert {f"/static/js/{p.name}" for p in (STATIC / "js").glob("*.js")} <= set(kept)
    assert {f"/static/{name}" for name, _, _ in ICONS} <= set(kept)
    assert not [k for k in kept if "worker" in k or k.endswith("sw.js")]
    for url in kept:
        assert client.get(url).status_code == 200, url
    # The page names its version, so that a stale copy would show.
    page = client.get("/r/ABCD")
    assert f'<meta name="unotable-version" content="{version}">' in page.text
    assert page.headers["cache-control"] == "no-cache"


def test_the_version_changes_with_any_file_of_the_page(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    locale = tmp_path / "locale"
    locale.mkdir()
    (locale / "web.json").write_text("[]")
    before = asset_version(static, locale)
    assert before.startswith(__version__ + "-") and re.fullmatch(r"[0-9a-f]{12}", before.split("-")[-1])
    assert asset_version.__wrapped__(static, locale) == before  # the same files, the same version
    (static / "js" / "cards.js").write_text((static / "js" / "cards.js").read_text() + "\n// changed\n")
    changed = asset_version.__wrapped__(static, locale)
    assert changed != before
    (locale / "web.json").write_text('["x"]')
    assert asset_version.__wrapped__(static, locale) != changed
    assert f'"{changed}"' in worker_script(changed, static)

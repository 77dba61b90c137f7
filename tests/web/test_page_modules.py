"""The page as native ES modules (issue 35): ``static/js/*.js`` loaded by one module script, no
bundler; each file short, each import naming what its module exports, no global but the page's
one handle, and nothing decided from the rules in JavaScript (the server's legal actions and
view say what is clickable). Served as JavaScript under the policy, and loaded by chromium with
no script error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.web.app import STATIC, create_app
from unotable.web.guard import CSP

from .test_browser import browser, page_on

__all__ = ["browser"]

MODULES = STATIC / "js"
MAX_LINES = 800
IMPORT = re.compile(r'^import (?:\{([^}]*)\} from )?"([^"]+)";$', re.M)
EXPORT = re.compile(r"^export (?:async )?(?:function|const|let|class) ([\w$]+)", re.M)


BARE_IMPORT = re.compile(r'^\s*import\s*["\']([^"\']+)["\']', re.M)
FROM_IMPORT = re.compile(
    r'^\s*(?:import|export)\s+(?:[\w$*\s,]*?\{[^}]*\}|[\w$*\s,]+?)\s*from\s*["\']([^"\']+)["\']', re.M
)
DYNAMIC_IMPORT = re.compile(r'\bimport\s*\(\s*["\'`]([^"\'`$]+)["\'`]\s*\)')
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


def modules() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(MODULES.glob("*.js"))}


def imports_of(text: str) -> set[str]:
    """The modules a module's code imports, by file name: its static ``import``s (``import
    {a} from "./x.js"``, ``import "./x.js"``, on one line or several), its re-exports (``export
    {a} from "./x.js"``) and its dynamic ``import("./x.js")`` with a literal name."""
    code = COMMENT.sub("", text)
    found = BARE_IMPORT.findall(code) + FROM_IMPORT.findall(code) + DYNAMIC_IMPORT.findall(code)
    return {source.removeprefix("./") for source in found}


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (``["a.js", "b.js", "a.js"]``), or None: a depth-first search."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            cycle = visit(nxt)
            if cycle is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle is not None:
            return cycle
    return None


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def test_no_script_of_the_page_is_longer_than_800_lines() -> None:
    scripts = sorted(STATIC.rglob("*.js"))
    assert len(scripts) >= 10
    long = {p.name: n for p in scripts if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_the_page_loads_one_module_script_and_no_classic_script() -> None:
    html = (STATIC / "index.html").read_text()
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/js/main.js">']
    assert not [p.name for p in STATIC.glob("*.js")], "every script is a module under static/js/"


def test_every_import_names_a_module_and_what_it_exports() -> None:
    found = modules()
    exports = {name: set(EXPORT.findall(text)) for name, text in found.items()}
    reached = {"main.js"}
    for name, text in found.items():
        assert '"use strict"' not in text, f"{name}: a module is strict already"
        for names, source in IMPORT.findall(text):
            assert source.startswith("./") and source[2:] in found, f"{name} imports {source}"
            reached.add(source[2:])
            missing = {n.strip() for n in names.split(",") if n.strip()} - exports[source[2:]]
            assert not missing, f"{name} imports {missing} that {source} does not export"
    assert reached == set(found), "a module nothing imports"


def test_no_import_cycle_joins_the_pages_modules() -> None:
    """The module graph (static imports, re-exports and dynamic ``import()``) is acyclic: a
    module calls up the graph through ``late.js`` (main.js's ``route``, render.js's ``render``
    ...), never by importing the module above it (main.js and header.js, render.js and input.js
    imported each other, among 20 cycles)."""
    graph = {name: imports_of(text) for name, text in modules().items()}
    assert graph["main.js"] >= {"header.js", "input.js", "render.js", "table.js"}
    assert all(graph[name] <= set(graph) for name in graph), graph
    cycle = import_cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or ())


def test_the_cycle_finder_reads_every_form_of_import_and_names_the_cycle() -> None:
    """The finder itself, on made-up modules: multi-line, bare, re-export and dynamic imports
    are edges; a commented-out import is not."""
    texts = {
        "a.js": 'import {\n  one,\n  two,\n} from "./b.js";\n// import { x } from "./d.js";\n',
        "b.js": 'import "./c.js";\nexport { three } from "./e.js";\nexport const word = "./d.js";\n',
        "c.js": 'const later = () => import("./a.js");\n',
        "d.js": '/* import { y } from "./a.js"; */\n',
        "e.js": 'import * as all from "./f.js";\nimport f, { g } from "./f.js";\n',
        "f.js": "",
    }
    graph = {name: imports_of(text) for name, text in texts.items()}
    assert graph == {
        "a.js": {"b.js"},
        "b.js": {"c.js", "e.js"},
        "c.js": {"a.js"},
        "d.js": set(),
        "e.js": {"f.js"},
        "f.js": set(),
    }
    assert import_cycle(graph) == ["a.js", "b.js", "c.js", "a.js"]
    del graph["c.js"]
    assert import_cycle(graph) is None


def test_no_module_makes_a_global_but_the_pages_handle() -> None:
    """``window.unotable`` (state.js: only what this seat may see) is the one global; the rest
    is what modules export."""
    assigned = {
        (name, m) for name, text in modules().items() for m in re.findall(r"window\.([\w$]+)\s*=[^=]", text)
    }
    assert assigned == {("state.js", "unotable")}


def test_the_page_reads_no_rule_to_decide_what_is_clickable() -> None:
    """What the seat may do comes from the server (the view's legal actions, ``follows``, the
    table's ``suggestion.cards``): no module reads the rule set (``view.rules``, ``settings.rules``),
    compares an edition or knows which card follows which."""
    for name, text in modules().items():
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        assert not re.search(r"\.rules\b|\bedition ===|multi_play ===|\.slice\(1\) === ", code), name


@pytest.mark.parametrize("name", sorted(p.name for p in MODULES.glob("*.js")))
def test_each_module_is_served_as_javascript_under_the_policy_and_revalidated(
    client: TestClient, name: str
) -> None:
    r = client.get(f"/static/js/{name}")
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == "text/javascript"
    assert r.headers["content-security-policy"] == CSP and "script-src 'self'" in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    again = client.get(f"/static/js/{name}", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


def test_chromium_loads_every_module_with_no_page_error(browser: Any, sqlite_url: str) -> None:
    """The lobby drawn means main.js ran; every module of static/js/ was fetched by the page's
    own imports (none left out, none failing), then imported again by name with no error."""
    with page_on(browser, sqlite_url) as (server, page):
        failed: list[str] = []
        page.on("requestfailed", lambda req: failed.append(req.url))
        page.on("console", lambda msg: failed.append(msg.text) if msg.type == "error" else None)
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        loaded = page.evaluate(
            "() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
            ".filter((p) => p.startsWith('/static/js/'))"
        )
        names = sorted(modules())
        assert sorted(set(loaded)) == [f"/static/js/{n}" for n in names]
        exported = page.evaluate(
            "async (names) => { const out = {}; for (const n of names) {"
            " out[n] = Object.keys(await import(`/static/js/${n}`)).length; } return out; }",
            names,
        )
        assert all(exported.values()), exported
        assert failed == []
        assert page.evaluate("() => typeof window.unotable.render") == "function"

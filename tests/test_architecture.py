"""The shape of the code (docs/architecture.md): which part may import which, the names the
engine's front keeps, every field of a state copied and compared, one table of bot rates."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from unotable import engine
from unotable.bots import BOT_NAMES, bot_options, make_bot
from unotable.bots.base import RATE_DEFAULTS, BaseBot
from unotable.dealing import _empty_state
from unotable.engine import new_hand
from unotable.rules import Rules
from unotable.state import State

SRC = Path(engine.__file__).parent
CORE_ALSO: frozenset[str] = frozenset({"i18n"})
"""Subpackages the rules core may import: standard library only themselves."""
INTERFACES: frozenset[str] = frozenset({"tui", "web", "mcp", "cli", "simcli", "__main__"})
"""The programs a person or another program drives; nothing below them imports them."""
LOWER: frozenset[str] = frozenset({"core", "bots", "sim", "native", "env", "i18n", "interop"})

ENGINE_NAMES = (
    "CHALLENGE_PENALTY",
    "E_BLANK",
    "E_DRAW",
    "E_HOWLER",
    "E_INVIS",
    "E_MATER",
    "E_SHUFFLE",
    "E_NUMBER",
    "E_REVERSE",
    "E_SEVEN",
    "E_SKIP",
    "E_STACK",
    "E_WD4",
    "E_WILD",
    "E_ZERO",
    "TABLES_CACHED",
    "Tables",
    "UNO_PENALTY",
    "WRONG_CARD_PENALTY",
    "actors",
    "apply",
    "charged_points",
    "check",
    "deal",
    "dealer_candidates",
    "eliminated_seats",
    "end_hand",
    "from_position",
    "hand_points",
    "legal_actions",
    "legal_ids",
    "new_hand",
    "pending_draw",
    "seat_index",
    "step",
    "table_key",
    "tables_for",
    "window_open",
)
"""Every public name ``unotable.engine`` had before it was split (and ``window_open``)."""


def _part(path: Path) -> str:
    """The part of the package a source file belongs to: its subpackage, ``core`` for the
    modules beside ``__init__``, or the interface module's own name."""
    rel = path.relative_to(SRC)
    if len(rel.parts) > 1:
        return rel.parts[0]
    return rel.stem if rel.stem in INTERFACES or rel.stem == "__init__" else "core"


def _imports(path: Path) -> set[str]:
    """The absolute imports of a file, lazy ones included."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _target(module: str) -> str:
    """The part an import of ``unotable.…`` lands in."""
    first = module.split(".")[1]
    if first in INTERFACES:
        return first
    return first if (SRC / first).is_dir() else "core"


def _edges() -> list[tuple[str, str, str]]:
    """(file, its part, imported part or ``third-party:name``) for every import of the package."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        part = _part(path)
        for module in _imports(path):
            top = module.split(".")[0]
            if module.startswith("unotable."):
                out.append((str(path.relative_to(SRC)), part, _target(module)))
            elif top not in sys.stdlib_module_names and top not in ("__future__", "unotable"):
                out.append((str(path.relative_to(SRC)), part, f"third-party:{top}"))
    return out


def _module(path: Path) -> str:
    """The dotted name of a source file (``unotable.bots`` for ``bots/__init__.py``)."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module(p): p for p in sorted(SRC.rglob("*.py"))}
"""Every module of the package by its dotted name."""


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ``modules`` that an imported name lives in (the longest known prefix)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    """Which modules of the package each module imports: every import statement, those under
    ``if TYPE_CHECKING:`` and inside functions included (a cycle that only the type checker or a
    late call walks is still one); relative imports resolved; ``from pkg import sub`` counts as
    an import of the submodule ``sub``."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            out.update(t for t in (_resolve(t, modules) for t in targets) if t is not None)
        out.discard(name)
        graph[name] = out
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: one per strongly connected component of more than one
    module (Tarjan's algorithm, iterative), each as a path ``a -> b -> ... -> a`` through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return [_cycle_through(graph, c) for c in components]


def _cycle_through(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle from the first module of ``component`` back to it, inside it."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    return [*paths[node], start]
                if child not in paths:
                    paths[child] = [*paths[node], child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle through {sorted(component)}")


def test_the_package_has_no_import_cycle() -> None:
    """docs/architecture.md: the imports of the package form no cycle, type-checking and
    function-local imports included (issue 35)."""
    cycles = import_cycles(import_graph())
    assert not cycles, "import cycles: " + "; ".join(
        " -> ".join(c) + f" ({len(set(c))} modules)" for c in cycles
    )


def test_the_cycle_check_finds_and_names_a_cycle(tmp_path: Path) -> None:
    """The check itself: a cycle through a type-checking import and a function-local one."""
    files = {
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from unotable.b import B\n",
        "b.py": "def f() -> None:\n    from . import c\n",
        "c.py": "import unotable.a\nimport os\n",
        "d.py": "from unotable import a\n",
    }
    modules = {}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        modules[f"unotable.{name[:-3]}"] = tmp_path / name
    graph = import_graph(modules)
    assert graph["unotable.b"] == {"unotable.c"} and graph["unotable.d"] == {"unotable.a"}
    assert import_cycles(graph) == [["unotable.a", "unotable.b", "unotable.c", "unotable.a"]]
    assert import_cycles({**graph, "unotable.c": set()}) == []


MAX_LINES = 800
"""The longest a module of the package may be (issue 35): a longer one is split along a seam."""
LONG_MODULES: dict[str, str] = {}
"""Modules allowed over :data:`MAX_LINES` for now, each with the reason."""


def test_no_module_is_over_800_lines() -> None:
    lines = {
        str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines()) for p in SRC.rglob("*.py")
    }
    long = {name: n for name, n in sorted(lines.items()) if n > MAX_LINES and name not in LONG_MODULES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
    still = [name for name in LONG_MODULES if lines.get(name, 0) > MAX_LINES]
    assert still == list(LONG_MODULES), f"no longer over {MAX_LINES} lines: drop them from LONG_MODULES"


def test_the_rules_core_imports_the_standard_library_and_itself_only() -> None:
    bad = [(f, t) for f, part, t in _edges() if part == "core" and t not in {"core", *CORE_ALSO}]
    assert not bad, f"the core imports outside itself: {bad}"


def test_nothing_below_the_interfaces_imports_them() -> None:
    bad = [(f, t) for f, part, t in _edges() if part in LOWER and t in INTERFACES]
    assert not bad, f"a lower layer imports an interface: {bad}"
    crossed = [(f, t) for f, part, t in _edges() if part in ("tui", "web") and t in ({"tui", "web"} - {part})]
    assert not crossed, f"the terminal and the web import each other: {crossed}"


def test_the_bridges_import_the_core_and_the_env_only_and_nothing_imports_them() -> None:
    """``interop`` (docs/interop.md): each bridge over the core (and the env's action table and
    encoding), its own project imported by its own module only; no other part imports it."""
    own = {"openspiel.py": "pyspiel", "textarena.py": "textarena", "rlcard.py": "rlcard"}
    bad = []
    for f, part, t in _edges():
        if part == "interop":
            name = f.split("/")[-1]
            allowed = {
                "core",
                "env",
                "i18n",
                "interop",
                "third-party:numpy",
                "third-party:" + own.get(name, ""),
            }
            if t not in allowed:
                bad.append((f, t))
        elif t == "interop":
            bad.append((f, t))
    assert not bad, f"interop imports or is imported outside its rules: {bad}"


def test_the_bots_and_the_simulator_need_no_third_party_library() -> None:
    """``learned`` runs on numpy (an extra, loaded only when asked for); the rest is stdlib."""
    bad = [
        (f, t)
        for f, part, t in _edges()
        if part in ("bots", "sim") and t.startswith("third-party:") and f != "bots/learned.py"
    ]
    assert not bad


def test_the_engine_keeps_every_name() -> None:
    missing = [n for n in ENGINE_NAMES if not hasattr(engine, n)]
    assert not missing
    assert sorted(engine.__all__) == sorted(ENGINE_NAMES)


# ---- the fields of a state: one list (State.__slots__), checked against copy, compare, make


def _changed(st: State, name: str) -> object:
    """A value of field ``name`` different from ``st``'s."""
    value = getattr(st, name)
    if name == "rules":
        return Rules(players=st.n, target=st.rules.target + 1)
    if name == "known":
        return {0: {1: [5]}}
    if name == "wrong_snapshot":
        return st.copy()
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list):
        return [*value, 0] if not value or not isinstance(value[0], list) else [[*value[0], 1], *value[1:]]
    if value is None:
        return 3
    raise AssertionError(f"no other value for {name} ({value!r})")


@pytest.mark.parametrize("name", [n for n in State.__slots__ if n != "tables"])
def test_every_field_of_a_state_is_copied_and_compared(name: str) -> None:
    """A new field must be copied by ``State.copy`` and compared by ``==`` (``tables`` follows
    from ``rules``)."""
    st, _ = new_hand(Rules(players=3), 5, dealer=0)
    st.hand_points = None
    twin = st.copy()
    assert getattr(twin, name) == getattr(st, name) and twin == st
    other = st.copy()
    setattr(other, name, _changed(st, name))
    assert other != st, f"State.__eq__ does not see {name}"
    value = getattr(twin, name)
    if isinstance(value, list):
        value.append(99)
        assert getattr(st, name) != value, f"State.copy shares {name}"


def test_a_new_state_sets_every_field() -> None:
    st = _empty_state(Rules(players=4), 1, None)
    assert [n for n in State.__slots__ if not hasattr(st, n)] == []
    assert all(hasattr(st.copy(), n) for n in State.__slots__)


# ---- one table of bot rates


@pytest.mark.parametrize("name", [n for n in BOT_NAMES if n != "learned"])
def test_every_bot_takes_the_rates_with_its_own_defaults(name: str) -> None:
    bot = make_bot(name, 0)
    assert set(RATE_DEFAULTS) <= set(bot_options(name))
    assert {r: getattr(bot, r) for r in RATE_DEFAULTS} == dict(type(bot).rate_defaults)
    changed = make_bot(name, 0, **dict.fromkeys(RATE_DEFAULTS, 0.25))
    assert all(getattr(changed, r) == 0.25 for r in RATE_DEFAULTS)


def test_the_random_bot_reacts_less_by_default_and_bad_rates_are_refused() -> None:
    random_bot, greedy = make_bot("random", 0), make_bot("greedy", 0)
    assert (random_bot.catch, random_bot.point_wrong, random_bot.jump_in) == (0.0, 0.0, 0.5)
    assert (greedy.catch, greedy.point_wrong, greedy.jump_in) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="late_uno"):
        make_bot("greedy", 0, late_uno=1.5)
    with pytest.raises(TypeError, match="'loud'"):
        BaseBot(0, loud=1.0)


ENGINE_PARTS = ("tables", "shuffle", "scoring", "legality", "effects", "dealing", "engine")
"""The engine's parts, each importing only the ones before it."""


def test_the_engine_parts_import_downwards_and_the_state_none_of_them() -> None:
    for i, name in enumerate(ENGINE_PARTS[:-1]):
        below = ENGINE_PARTS[:i] if name not in ("tables", "shuffle") else ()
        forbidden = {f"unotable.{p}" for p in ENGINE_PARTS if p not in below}
        bad = _imports(SRC / f"{name}.py") & forbidden
        assert not bad, f"{name} imports {sorted(bad)}"
    tree = ast.parse((SRC / "state.py").read_text(encoding="utf-8"))
    runtime = {
        node.module
        for node in tree.body  # top level only: the imports under TYPE_CHECKING are in an If
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not runtime & {f"unotable.{p}" for p in ENGINE_PARTS}


def test_every_file_the_structural_rules_table_names_exists() -> None:
    """docs/architecture.md's files of a structural rule (issue 35's checklist) name files that
    exist (its table named ``web/static/app.js`` after the page became ES modules)."""
    text = (SRC.parents[1] / "docs" / "architecture.md").read_text()
    section = text[text.index("**A structural rule**") : text.index("**Checklist for a structural rule**")]
    named = set(re.findall(r"^\| (.+?) \|", section, re.M)) - {"file", "---"}
    paths = {p for cell in named for p in re.findall(r"`([\w/]+\.(?:py|js))`", cell)}
    assert len(paths) >= 15
    assert sorted(p for p in paths if not (SRC / p).is_file()) == []

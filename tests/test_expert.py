"""The expert bot: legal everywhere, its budget per candidate in the native core and the search's
in Python (the documented fallback without the core), decisions from the view alone; and the
bots offered by strength (easy, medium, hard, expert) in ``uno play --bots`` and the web's
options."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from test_native_search import hidden_twin
from unotable.bots import BOT_NAMES, make_bot
from unotable.bots import expert as expert_module
from unotable.bots.expert import CAP, FALLBACK_BUDGET, PER_CANDIDATE, TABLE_BUDGET, ExpertBot
from unotable.bots.levels import LEVEL_BOTS, LEVELS, level_words
from unotable.bots.search import MAX_BUDGET, SearchBot, native_playouts
from unotable.bots.spec import BotSpec, parse_bots
from unotable.engine import legal_ids, new_hand, step
from unotable.house import preset
from unotable.i18n import use_language
from unotable.native import COMPILED
from unotable.rules import Rules, find_edition
from unotable.sim import SimConfig, simulate
from unotable.views import View, view

QUICK = "expert:per_candidate=4:cap=12:fallback_budget=8"
"""The expert with few playouts: the same code paths, quickly."""


def searched_views(rules: Rules, seed: int, count: int) -> list[View]:
    """Views of the seat to play, in a hand of random play, with more than one candidate."""
    probe = ExpertBot(0)
    st = new_hand(rules, seed)[0]
    rng = random.Random(seed)
    out: list[View] = []
    while st.current >= 0 and len(out) < count:
        v = view(st, st.current)
        if len(probe.candidates(v, list(v.legal))) > 1:
            out.append(v)
        step(st, st.current, rng.choice(legal_ids(st, st.current)))
    return out


@pytest.mark.parametrize("edition", ["classic", "harry-potter", "cars2"])
@pytest.mark.parametrize("house", [None, "popular", "party", "crazy"])
def test_expert_plays_legally_in_every_edition_and_house_rule(edition: str, house: str | None) -> None:
    """Whole hands with the expert among other bots: the simulator refuses any illegal answer
    (BotError). Under house rules the native core does not play, so the Python search decides."""
    players = 3 if edition != "classic" else 4
    rules = Rules(edition=find_edition(edition), players=players, **(preset(house) if house else {}))
    bots = tuple(parse_bots(",".join([QUICK, "greedy", "search:budget=8", "random"][:players]), players))
    records = simulate(SimConfig(rules=rules, bots=bots, hands=3, seed=26), workers=1)
    assert len(records) == 3


@pytest.mark.parametrize(
    "rules",
    [*(Rules(players=n) for n in (2, 4, 6, 8, 10)), Rules(players=3, stacking="any")],
)
def test_the_budget_is_per_candidate_in_the_core_and_the_searchs_in_python(rules: Rules) -> None:
    """In the native core a heads-up decision plays ``per_candidate`` playouts per candidate (at
    most ``cap``), one at a table of three to six ``table_budget`` and past six players its share
    (``table_budget * 6 // players``); where the core cannot run (no core, house rules) the
    search's ``fallback_budget``."""
    bot = ExpertBot(3, per_candidate=7, cap=20, table_budget=170, fallback_budget=11)
    table = {4: 170, 6: 170, 8: 127, 10: 102}.get(rules.players, 170)
    views = searched_views(rules, 8, 6)
    assert views
    for v in views:
        k = len(bot.candidates(v, list(v.legal)))
        before = bot.playouts
        bot.act(v)
        want = (table if rules.players > 2 else min(20, 7 * k)) if native_playouts(v) else 11
        assert bot.playouts - before == want
    assert native_playouts(views[0]) == (COMPILED and not rules.stacking)


def test_without_the_core_the_expert_plays_exactly_as_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback (``UNOTABLE_PURE=1``, or rules the core does not play): the Python search at
    the search bot's budget, decision for decision the ``search`` bot's choice."""
    monkeypatch.setattr(expert_module, "native_playouts", lambda v: False)
    for v in searched_views(Rules(players=3), 2, 4):
        a = ExpertBot(9, fallback_budget=40, native=False).act(v)
        b = make_bot("search", 9, budget=40, native=False).act(v)
        assert a == b
    search = make_bot("search", 0)
    assert isinstance(search, SearchBot) and ExpertBot(0).fallback_budget == FALLBACK_BUDGET == search.budget


@pytest.mark.skipif(not COMPILED, reason="the expert's own budgets are for the native core")
def test_two_states_with_one_view_give_the_same_action_at_the_default_budgets() -> None:
    rng = random.Random(26)
    compared = 0
    for seed in range(5):
        st = new_hand(Rules(players=2 + seed % 3), seed)[0]
        for _ in range(seed * 2 + 1):
            step(st, st.current, rng.choice(legal_ids(st, st.current)))
        if st.current < 0:
            continue
        twin = hidden_twin(st, st.current, rng)
        v, w = view(st, st.current), view(twin, st.current)
        assert v == w and (twin.hands != st.hands or twin.draw != st.draw)
        assert ExpertBot(seed).act(v) == ExpertBot(seed).act(w)
        compared += 1
    assert compared >= 4


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="per_candidate"):
        make_bot("expert", 0, per_candidate=0)
    with pytest.raises(ValueError, match="table_budget"):
        make_bot("expert", 0, table_budget=MAX_BUDGET + 1)
    with pytest.raises(ValueError, match="budget"):
        make_bot("expert", 0, budget=100)  # its budget is per candidate
    bot = make_bot("expert", 0)
    assert isinstance(bot, ExpertBot) and (bot.per_candidate, bot.cap) == (PER_CANDIDATE, CAP)
    assert bot.table_budget == TABLE_BUDGET == MAX_BUDGET


# ---- by strength


def test_levels_name_known_bots_from_the_easiest() -> None:
    assert [lv.name for lv in LEVELS] == ["easy", "medium", "hard", "expert"]
    assert all(lv.bot in BOT_NAMES and lv.against in LEVEL_BOTS for lv in LEVELS)
    assert [lv.bot for lv in LEVELS] == ["random", "greedy", "search", "expert"]
    assert all(0 < lv.rate < 1 and lv.hands > 0 for lv in LEVELS)
    # every level above the easiest wins most hands against the one it is measured against
    assert all(lv.rate > 0.5 for lv in LEVELS[1:]) and LEVELS[0].rate < 0.5


def test_a_level_stands_for_its_bot_wherever_bots_are_written() -> None:
    assert BotSpec.parse("hard") == BotSpec("search")
    assert BotSpec.parse("Easy:jump_in=0").label == "random:jump_in=0"
    assert [s.name for s in parse_bots("easy,medium,hard", 3)] == ["random", "greedy", "search"]
    assert BotSpec.parse("expert") == BotSpec("expert")


def test_uno_play_help_offers_the_levels_with_their_strength(capsys: pytest.CaptureFixture[str]) -> None:
    from unotable.cli import main  # noqa: PLC0415

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for lv in LEVELS:
        assert level_words(lv) in out
    assert "hard (search): wins" in out


def test_level_words_in_portuguese_and_french() -> None:
    hard = LEVELS[2]
    with use_language("pt"):
        assert "ganha" in level_words(hard) and f"{round(100 * hard.rate)}%" in level_words(hard)
    with use_language("fr"):
        assert "gagne" in level_words(hard)


# ---- the evaluation scripts


def bench_module(name: str) -> ModuleType:
    """``bench/NAME.py`` (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parent.parent / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bot_match_plays_evaluates_deals_and_pairs_them(tmp_path: Path) -> None:
    """``bench/bot_match.py`` plays the games of ``evaluate`` (the same wins), resumes a file,
    and pairs two runs deal by deal; ``bench/bot_table.py`` reads its files into the table."""
    pytest.importorskip("numpy")
    from unotable.env import evaluate  # noqa: PLC0415

    bot_match, bot_table = bench_module("bot_match"), bench_module("bot_table")

    out, base = tmp_path / "greedy_vs_random_4p.jsonl", tmp_path / "random_vs_greedy_4p.jsonl"
    assert bot_match.main(["--bot", "greedy", "--opponents", "random", "--players", "4", "--hands", "8",
                           "--seed", "3", "--out", str(out)]) == 0  # fmt: skip
    assert bot_match.main(["--bot", "greedy", "--opponents", "random", "--players", "4", "--hands", "8",
                           "--seed", "3", "--out", str(out)]) == 0  # fmt: skip
    bot_match.main(["--bot", "random", "--opponents", "greedy", "--players", "4", "--hands", "8",
                    "--seed", "3", "--out", str(base)])  # fmt: skip
    got = bot_match.summary(out, base)
    want = evaluate("greedy", "random", 8, 4, seed=3)
    assert (got["wins"], got["hands"]) == (want.wins, want.hands)
    assert got["paired_hands"] == 8 and got["decisions"] > 0 and got["p99_cpu_ms"] >= got["median_cpu_ms"]
    text = bot_table.table({"greedy|random|4": got})
    assert f"{100 * got['rate']:.1f}" in text and "| `greedy` |" in text
    timed = bot_table.times(tmp_path, [("greedy", "random", 4), ("random", "greedy", 4)])
    rows = {line.split(" | ")[0]: line for line in timed.splitlines() if line.startswith("| `")}
    assert set(rows) == {"| `random`", "| `greedy`"}
    assert f"{got['decisions']:,} |" in rows["| `greedy`"]  # the row bot's decisions, its seat's alone
    if importlib.util.find_spec("matplotlib") is not None:
        bot_table.plot({"greedy|random|4": got}, tmp_path / "table.png")
        assert (tmp_path / "table.png").stat().st_size > 10_000
    # a cell asked for more hands is extended: only the new deals are played
    assert bot_match.main(["--bot", "greedy", "--opponents", "random", "--players", "4", "--hands", "16",
                           "--seed", "3", "--out", str(out)]) == 0  # fmt: skip
    more, want = bot_match.summary(out), evaluate("greedy", "random", 16, 4, seed=3)
    assert (more["wins"], more["hands"]) == (want.wins, want.hands)
    assert len(out.read_text().splitlines()) == 1 + 16 // 4  # a header and a line per deal

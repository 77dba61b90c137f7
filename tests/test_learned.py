"""The learned bot: legal in every edition, option and table size, from its view alone; and a
clear error without numpy."""

from __future__ import annotations

import random
import sys

import pytest

from unotable.bots import make_bot
from unotable.engine import new_hand
from unotable.rules import BlankEffect, Rules, find_edition
from unotable.sim import play_state


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(players=10),
        Rules(edition=find_edition("harry-potter"), players=2),
        Rules(edition=find_edition("harry-potter"), players=7, lenient_plays=True),
        Rules(edition=find_edition("cars2"), players=4, must_play_drawn=True),
        Rules(players=4, mode="partners"),
        Rules(players=5, blanks=((0, BlankEffect(wild=True, draw=2)), (2, BlankEffect(reveal=True)), (3, 7))),
    ],
)
def test_learned_bots_play_whole_hands_legally(rules: Rules) -> None:
    pytest.importorskip("numpy")
    rng = random.Random(rules.players)
    for hand in range(3):
        bots = [make_bot("learned", 10 * hand + s, forget_uno=0.2) for s in range(rules.players)]
        st, _ = new_hand(rules, rng.getrandbits(32), record=False)
        tally = play_state(st, bots, rng)  # BotError if any action is illegal
        assert st.winner in range(rules.players) and tally.actions > 0


def test_the_learned_bot_refuses_bad_options() -> None:
    pytest.importorskip("numpy")
    with pytest.raises(ValueError, match="sample"):
        make_bot("learned", 0, sample="yes")
    with pytest.raises(ValueError, match="has no option"):
        make_bot("learned", 0, budget=3)
    with pytest.raises(ValueError, match="forget_uno"):
        make_bot("learned", 0, forget_uno=2)


def test_without_numpy_the_learned_bot_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [
        m
        for m in sys.modules
        if m == "numpy" or m.startswith(("numpy.", "unotable.env", "unotable.bots.learned"))
    ]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ValueError, match=r"needs numpy: pip install 'unotable\[rl\]'"):
        make_bot("learned", 0)

"""``GET /api/options`` sends the house rules' records (issue 22 item 4): the web form is built
from them, not from a list of its own."""

from __future__ import annotations

from starlette.testclient import TestClient

from unotable import house
from unotable.rules import HOUSE_PRESETS
from unotable.web.app import create_app


def test_options_send_every_house_rule_record(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as client:
        data = client.get("/api/options").json()
    assert data["house_rules"] == [rule.to_json() for rule in house.HOUSE_RULES]
    assert [r["name"] for r in data["house_rules"]] == list(HOUSE_PRESETS["official"])
    assert set(data["house_preset_labels"]) == set(data["house"]) == set(house.PRESETS)
    stacking = data["house_rules"][0]
    assert stacking["name"] == "stacking" and stacking["presets"] == {"popular": "same", "party": "any"}

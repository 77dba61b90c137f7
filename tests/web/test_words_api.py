"""The browser's words (``GET /api/words/{lang}``) and the server's sentences in the language of
each request and connection (issue 25)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from unotable.i18n import WEB_MESSAGES, translator
from unotable.web.app import create_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as c:
        yield c


@pytest.mark.parametrize(("lang", "plural"), [("pt", "n!=1"), ("pt_BR", "n!=1"), ("fr", "n>1")])
def test_words_have_the_contract_shape(client: TestClient, lang: str, plural: str) -> None:
    r = client.get(f"/api/words/{lang}")
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"lang", "plural", "messages"}
    assert body["lang"] == lang and body["plural"] == plural
    wanted = json.loads(WEB_MESSAGES.read_text(encoding="utf-8"))
    singles = [m for m in wanted if isinstance(m, str)]
    plurals = [m for m in wanted if isinstance(m, list)]
    # Every message the page needs is there, translated (the catalogue test checks that none is
    # missing); one whose translation is the English itself ("Bravo!") is left to the fallback.
    tr = translator(lang)
    assert set(body["messages"]) == {m for m in singles if tr.gettext(m) != m} | {
        s + "\u0004" + p for s, p in plurals if [tr.ngettext(s, p, 1), tr.ngettext(s, p, 2)] != [s, p]
    }
    assert len(body["messages"]) > 0.9 * len(wanted)
    for key, value in body["messages"].items():
        if "\u0004" in key:
            assert isinstance(value, list) and len(value) == 2
            assert all(isinstance(v, str) and v for v in value)
        else:
            assert isinstance(value, str) and value and value != key
    assert (
        body["messages"]["The game is over."]
        == {"pt": "O jogo acabou.", "pt_BR": "O jogo acabou.", "fr": "La partie est finie."}[lang]
    )


def test_english_and_unknown_languages_answer_english(client: TestClient) -> None:
    assert client.get("/api/words/en").json() == {"lang": "en", "plural": "n!=1", "messages": {}}
    assert client.get("/api/words/de").json()["lang"] == "en"
    assert client.get("/api/words/pt-PT").json()["lang"] == "pt"


def test_server_errors_follow_the_request_language(client: TestClient) -> None:
    r = client.get("/api/rooms/ZZZZ", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert r.status_code == 404
    assert r.json() == {"error": "no_room", "message": "Il n'y a pas de salle 'ZZZZ'."}
    r = client.get("/api/rooms/ZZZZ?lang=pt", headers={"Accept-Language": "fr"})
    assert r.json()["message"] == "Não existe a sala 'ZZZZ'."
    assert client.get("/api/rooms/ZZZZ").json()["message"] == "There is no room 'ZZZZ'."


def test_websocket_errors_follow_the_handshake_language(client: TestClient) -> None:
    with client.websocket_connect("/ws/ZZZZ", headers={"Accept-Language": "pt-PT"}) as ws:
        message = ws.receive_json()
    assert message["code"] == "no_room" and message["message"] == "Não existe a sala 'ZZZZ'."


def test_brazil_gets_brazilian_words_and_portugal_portuguese(client: TestClient) -> None:
    """pt-BR (a tag or the page's pt_BR) answers Brazil's catalogue, pt-PT and pt Portugal's:
    the same card in each country's words (Mattel's leaflets), the player as "você" or "tu"."""
    for asked in ("pt_BR", "pt-BR", "pt-br"):
        body = client.get(f"/api/words/{asked}").json()
        assert body["lang"] == "pt_BR"
        assert body["messages"]["red Skip"] == "a carta Pular vermelha"
        assert body["messages"]["Wild"] == "a carta Curinga"
        assert body["messages"]["Your name"] == "Seu nome"
    body = client.get("/api/words/pt").json()
    assert body["messages"]["red Skip"] == "a carta Passa a Vez vermelha"
    assert body["messages"]["Wild"] == "a carta Joker"
    assert body["messages"]["Your name"] == "O teu nome"
    r = client.get("/api/rooms/ZZZZ", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
    assert r.json()["message"] == "A sala 'ZZZZ' não existe."
    r = client.get("/api/rooms/ZZZZ", headers={"Accept-Language": "pt-PT,pt;q=0.9"})
    assert r.json()["message"] == "Não existe a sala 'ZZZZ'."
    assert client.get("/api/rooms/ZZZZ?lang=pt_BR").json()["message"] == "A sala 'ZZZZ' não existe."

"""Brazil's Portuguese beside Portugal's, Mattel's Portuguese card names, French elisions, and the
help's value names in the language (issue 34, item 6)."""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from babel.messages.mofile import write_mo

from unotable import cli, i18n
from unotable.cards import CARD_COLOR, CARD_VALUE, REVERSE, SKIP, WILD, WILD_DRAW_FOUR
from unotable.i18n import (
    _,
    elide,
    from_accept_language,
    from_environment,
    ngettext,
    normalize,
    resolve_language,
    set_language,
    translator,
    use_language,
)
from unotable.names import card_name
from unotable.tui import results

catalogs = pytest.importorskip("unotable.i18n.catalogs", reason="the catalogue checks need Babel (dev extra)")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def _card(color: int, value: int) -> int:
    return next(c for c in range(len(CARD_COLOR)) if CARD_COLOR[c] == color and CARD_VALUE[c] == value)


# ---- choosing Brazil's or Portugal's Portuguese


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("pt-BR", "pt_BR"), ("pt_BR.UTF-8", "pt_BR"), ("pt-br", "pt_BR"), ("pt_BR@euro", "pt_BR"),
     ("pt", "pt"), ("pt_PT.UTF-8", "pt"), ("pt-PT", "pt"), ("pt-AO", "pt"), ("pt-MZ", "pt"), ("br", None)],
)  # fmt: skip
def test_brazil_and_portugal(tag: str, lang: str | None) -> None:
    """Brazil's tag gives pt_BR; Portugal's, the bare language and the other Portuguese-speaking
    countries (which follow Portugal's norm) give pt."""
    assert normalize(tag) == lang


def test_brazil_from_the_environment_the_flag_and_the_browser() -> None:
    assert from_environment({"LANG": "pt_BR.UTF-8"}) == "pt_BR"
    assert from_environment({"LANG": "pt_PT.UTF-8"}) == "pt"
    assert resolve_language("pt-BR") == "pt_BR"
    assert from_accept_language("pt-BR,pt;q=0.9,en;q=0.8") == "pt_BR"
    assert from_accept_language("pt-PT,pt;q=0.9,pt-BR;q=0.5") == "pt"
    assert from_accept_language("en;q=0.5, pt-BR;q=0.8") == "pt_BR"


def test_uno_lang_pt_br_speaks_brazilian(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--lang", "pt-BR", "--help"])
    out = capsys.readouterr().out
    assert "Jogue UNO contra bots no terminal" in out
    assert "--save ARQUIVO" in out


# ---- the Brazilian catalogue is Brazilian, and Portugal's keeps Portugal's words

EUROPEAN: Final = re.compile(
    r"\b(tu|teu|tua|teus|tuas|ti|contigo|ecrã|telemóvel|equipa|ficheiro|registo|utilizador|daltónico|"
    r"carrega|carregar|noutro|noutra|por omissão|a decorrer)\b"
    r"|\b(está|estão|estás|estava|fica|ficam|continua) a (?!partir\b)\w+r\b"
    r"|-te\b",
    re.IGNORECASE,
)
PORTUGAL_CARDS: Final = re.compile(
    r"\b(Saltar|Passa a Vez|Inverte o Jogo|Joker|Bisca|Compra quatro|Mudar de cor)\b"
)
NOT_PRETERITE: Final = frozenset(
    {"este", "deste", "neste", "teste", "existe", "assiste", "consiste", "insiste", "resiste", "persiste",
     "desiste", "triste", "leste", "oeste", "nordeste", "celeste", "veste", "investe"}
)  # fmt: skip


def european(sentence: str) -> bool:
    """Whether a sentence uses Portugal's forms that a Brazilian player should not read: the player
    as "tu" (a tua vez, compraste, apanhou-te), Portugal's nouns, "está a pensar", Portugal's card
    names (Mattel's leaflet 52277)."""
    if EUROPEAN.search(sentence) or PORTUGAL_CARDS.search(sentence):
        return True
    return any(w.lower() not in NOT_PRETERITE for w in re.findall(r"\b\w+[aei]ste\b", sentence))


def _translations(lang: str) -> dict[str, list[str]]:
    catalog = catalogs.read(catalogs.po_path(lang), lang)
    out: dict[str, list[str]] = {}
    for key, message in catalogs.messages(catalog).items():
        raw = message.string
        out[str(key)] = [str(s) for s in raw] if isinstance(raw, (list, tuple)) else [str(raw)]
    return out


def test_the_brazilian_catalogue_speaks_as_brazil_does() -> None:
    """Every pt_BR translation is there (the catalogue check) and none uses Portugal's forms; it is
    not a copy of Portugal's: a good share of the sentences differ."""
    assert catalogs.problems("pt_BR") == []
    br, pt = _translations("pt_BR"), _translations("pt")
    found = [(key, s) for key, strings in br.items() for s in strings if european(s)]
    assert found == [], found[:5]
    differ = sum(br[key] != pt[key] for key in br)
    assert differ > 0.3 * len(br), differ
    assert set(br) == set(pt)


def test_the_check_catches_a_european_sentence_in_the_brazilian_catalogue() -> None:
    """The check above is not blind."""
    for sentence in ("A tua vez", "Compraste 2 cartas.", "Ben apanhou-te sem UNO.", "Ana está a jogar.",
                     "no ecrã", "a carta Passa a Vez vermelha"):  # fmt: skip
        assert european(sentence), sentence
    for sentence in ("Sua vez", "Você comprou 2 cartas.", "Ben pegou você sem UNO.", "Ana está jogando.",
                     "deste baralho", "Ana assiste", "você passa a vez", "cor a jogar"):  # fmt: skip
        assert not european(sentence), sentence


@pytest.mark.parametrize(
    ("lang", "skip", "reverse", "wild", "four"),
    [
        # Mattel's leaflet 52277 (Portugal): "Passa a Vez", "Inverte o Jogo", "Joker", "Joker Bisca 4"
        ("pt", "a carta Passa a Vez vermelha", "a carta Inverte o Jogo azul", "a carta Joker",
         "a carta Joker Bisca 4"),
        # Mattel's leaflet H9022 (Brazil): "Pular", "Inverter", "Curinga", "Curinga Comprar 4 Cartas"
        ("pt_BR", "a carta Pular vermelha", "a carta Inverter azul", "a carta Curinga",
         "a carta Curinga Comprar 4"),
    ],
)  # fmt: skip
def test_mattels_portuguese_card_names(lang: str, skip: str, reverse: str, wild: str, four: str) -> None:
    with use_language(lang):
        assert card_name(_card(0, SKIP)) == skip
        assert card_name(_card(3, REVERSE)) == reverse
        assert card_name(WILD) == wild
        assert card_name(WILD_DRAW_FOUR) == four


def test_portugal_keeps_tu_and_brazil_says_voce() -> None:
    with use_language("pt"):
        assert _("Your turn: ") == "A tua vez: "
        assert results.place(1) == "1.º"
    with use_language("pt_BR"):
        assert _("Your turn: ") == "Sua vez: "
        assert results.place(1) == "1º"
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
        assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 cartas"


def test_brazil_falls_back_to_portugal_then_english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A sentence the Brazilian catalogue lacks (one a merge brought in before it was translated)
    is read in Portugal's Portuguese rather than in English."""
    shutil.copytree(i18n.LOCALE_DIR, tmp_path / "locale")
    br = catalogs.read(catalogs.po_path("pt_BR"), "pt_BR")
    br.delete("Your name")
    buffer = io.BytesIO()
    write_mo(buffer, br)
    (tmp_path / "locale" / "pt_BR" / "LC_MESSAGES" / "unotable.mo").write_bytes(buffer.getvalue())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    translator.cache_clear()
    try:
        with use_language("pt_BR"):
            assert _("Your name") == "O teu nome"  # Portugal's, not "Your name"
            assert _("Your colour") == "Sua cor"
    finally:
        translator.cache_clear()


# ---- French elisions


@pytest.mark.parametrize(
    ("before", "value", "want"),
    [
        ("la main de ", "Ana", "la main d'Ana"),
        ("la main de ", "Ben", "la main de Ben"),
        ("la main de ", "Éva", "la main d'Éva"),
        ("la main de ", "Olga", "la main d'Olga"),
        ("la main de ", "Ulysse", "la main d'Ulysse"),
        ("la main de ", "Hermione", "la main d'Hermione"),  # a mute h
        ("la main de ", "Harry", "la main de Harry"),  # an aspirated h, as the French books write it
        ("la main de ", "Yves", "la main d'Yves"),
        ("la main de ", "Yann", "la main de Yann"),
        ("plus que ", "Ana", "plus qu'Ana"),
        ("le tour de ", "le 7 rouge", "le tour du 7 rouge"),
        ("le tour de ", "les cartes", "le tour des cartes"),
        ("répondre à ", "le +2", "répondre au +2"),
        ("De ", "le 7 rouge", "Du 7 rouge"),
        ("le tour de ", "la carte Passer verte", "le tour de la carte Passer verte"),
        ("le tour de ", "l'Invisibilité", "le tour de l'Invisibilité"),
        ("Inde ", "Ana", "Inde Ana"),  # "de" must be a word
        ("à ", "Ana", "à Ana"),  # "à" contracts, never elides
    ],
)
def test_french_elides_at_the_edge_of_a_field(before: str, value: str, want: str) -> None:
    assert "".join(elide(before, value)) == want


def test_every_french_message_elides_when_filled() -> None:
    """The catalogue's own sentences, filled with names and cards, in French: "de {target}"
    with Ana gives "d'Ana"; the same sentence in Portuguese and English is untouched."""
    with use_language("fr"):
        challenge = _("You challenged {target}'s Wild Draw Four: guilty.")
        assert (
            challenge.format(target="Ana") == "Tu as défié la carte blanche +4 d'Ana : elle était illégale."
        )
        assert (
            challenge.format(target="Ben") == "Tu as défié la carte blanche +4 de Ben : elle était illégale."
        )
        turn = _("{name}'s turn.")
        assert turn.format(name="Éva") == "Au tour d'Éva."
        assert turn.format(name="Dev") == "Au tour de Dev."
        sent = ngettext(
            "{who} sent the {cards} on to {target}: {n} card.",
            "{who} sent the {cards} on to {target}: {n} cards.",
            2,
        )
        assert sent.format(who="Ana", cards="la carte +2 rouge", target="Éva", n=2) == (
            "Ana a renvoyé la carte +2 rouge à Éva : 2 cartes."
        )
    with use_language("pt"):
        assert _("{name}'s turn.").format(name="Ana") == "Vez de Ana."
    assert _("{name}'s turn.").format(name="Ana") == "Ana's turn."


# ---- the help's value names


@pytest.mark.parametrize(
    ("lang", "command", "wanted", "unwanted"),
    [
        ("fr", "play", ["--save FICHIER", "--seed GRAINE", "--lang LANGUE"], ["FILE", "[--lang LANG]"]),
        ("pt", "play", ["--save FICHEIRO", "--seed SEMENTE"], ["FILE", "SEED"]),
        ("pt_BR", "simulate", ["--json ARQUIVO", "--plot ARQUIVO.png"], ["FILE"]),
        ("fr", "serve", ["--idle-days J", "depuis J jours", "--data-dir DOSSIER"],
         ["for D days", "delete a room", "rooms whose", "lookups one", "DIR"]),
        ("fr", None, ["COMMANDE", "commandes:"], ["None", "COMMAND\n"]),
    ],
)  # fmt: skip
def test_the_help_names_values_in_the_language(
    capsys: pytest.CaptureFixture[str], lang: str, command: str | None, wanted: list[str], unwanted: list[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--lang", lang, *([command] if command else []), "--help"])
    out = capsys.readouterr().out
    for text in wanted:
        assert text in out, text
    for text in unwanted:
        assert text not in out, text

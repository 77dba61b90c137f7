"""The message catalogues and the choice of language (issue 25)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from unotable import cli
from unotable.i18n import (
    _,
    from_accept_language,
    from_environment,
    language,
    ngettext,
    normalize,
    resolve_language,
    set_language,
    translator,
    use_language,
)

catalogs = pytest.importorskip("unotable.i18n.catalogs", reason="the catalogue checks need Babel (dev extra)")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test leaves the process in English, as it found it."""
    yield
    set_language("en")


def test_every_catalogue_is_complete_current_and_compiled() -> None:
    """No message missing, untranslated, fuzzy or stale; every translation keeps its fields;
    the plural rules are Portuguese's and French's; each .mo is its .po compiled; the browser's
    list is the sources' now."""
    assert catalogs.check() == []


def test_the_check_finds_a_missing_a_stale_and_a_misplaced_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is not blind: a template with a message the catalogue lacks, and a catalogue
    whose translation drops a field or keeps a message no longer in the sources, are reported."""
    template = catalogs.extract()
    template.add("A sentence nobody translated, {name}.", locations=[("unotable/x.py", 1)])
    found = catalogs.problems("pt", template)
    assert any("missing 'A sentence nobody translated, {name}.'" in p for p in found)
    some = next(m for m in template if m.id == "uno: error: {message}")
    template.delete(some.id)
    assert any("stale 'uno: error: {message}'" in p for p in catalogs.problems("fr", template))
    assert catalogs._fields_differ("{a} and {b}", "{a} et {c}") is not None
    assert catalogs._fields_differ("{a} and {b}", "{b} et {a}") is None
    assert catalogs._fields_differ(("{n} card", "{n} cards"), "{n} carte") is None
    assert catalogs._fields_differ(("{name} draws {n} card", "{name} draws {n} cards"), "il pige") is not None
    assert catalogs._fields_differ("%(prog)s: error", "%(prog)s : erreur") is None
    assert catalogs._fields_differ("%(prog)s: error", "%(programme)s : erreur") is not None


@pytest.mark.parametrize(
    ("tag", "lang"),
    [("pt_PT.UTF-8", "pt"), ("pt-BR", "pt_BR"), ("fr_CA", "fr"), ("fr", "fr"), ("en_GB", "en"), ("C", None),
     ("POSIX", None), ("de_DE", None), ("", None)],
)  # fmt: skip
def test_locale_names_and_tags(tag: str, lang: str | None) -> None:
    assert normalize(tag) == lang


def test_the_environment_decides_in_posix_order() -> None:
    assert from_environment({"LANG": "fr_CA.UTF-8"}) == "fr"
    assert from_environment({"LANG": "fr_CA.UTF-8", "LC_MESSAGES": "pt_PT"}) == "pt"
    assert from_environment({"LANG": "fr_CA", "LC_MESSAGES": "pt_PT", "LC_ALL": "en_US"}) == "en"
    assert from_environment({"LC_ALL": "de_DE.UTF-8", "LANG": "pt_PT"}) == "en"  # set, not offered
    assert from_environment({"LC_ALL": "", "LANG": "pt_PT"}) == "pt"  # empty is unset
    assert from_environment({}) == "en"
    assert resolve_language("fr", {"LANG": "pt_PT"}) == "fr"
    with pytest.raises(ValueError, match="klingon"):
        resolve_language("klingon")


def test_accept_language_weights() -> None:
    assert from_accept_language("pt-PT,pt;q=0.9,en;q=0.8") == "pt"
    assert from_accept_language("de-DE,de;q=0.9,fr;q=0.7,en;q=0.5") == "fr"
    assert from_accept_language("en;q=0.5, fr-CA;q=0.8") == "fr"
    assert from_accept_language("fr;q=0, pt") == "pt"
    assert from_accept_language("de, ja") == "en"
    assert from_accept_language(None) == "en"
    assert from_accept_language("pt;q=abc, fr;q=0.1") == "fr"


def test_plural_rules_of_each_language() -> None:
    """Portuguese: the singular for 1 only; French: for 0 and 1 (argparse's plural message)."""
    one, many = "expected %s argument", "expected %s arguments"
    pt, fr = translator("pt"), translator("fr")
    assert [pt.ngettext(one, many, n) % n for n in (0, 1, 2)] == [
        "esperavam-se 0 argumentos", "esperava-se 1 argumento", "esperavam-se 2 argumentos"]  # fmt: skip
    assert [fr.ngettext(one, many, n) % n for n in (0, 1, 2)] == [
        "0 argument attendu", "1 argument attendu", "2 arguments attendus"]  # fmt: skip


def test_language_of_the_process_and_of_a_block() -> None:
    set_language("pt")
    assert _("The game is over.") == "O jogo acabou."
    with use_language("fr-CA"):
        assert language() == "fr"
        assert _("The game is over.") == "La partie est finie."
        assert ngettext("expected %s argument", "expected %s arguments", 1) == "%s argument attendu"
    assert _("The game is over.") == "O jogo acabou."
    set_language("en")
    assert _("The game is over.") == "The game is over."


@pytest.mark.parametrize(
    ("argv", "lang", "wanted"),
    [
        (
            ["play", "--lang", "pt", "--players", "11"],
            "pt",
            "o número de jogadores tem de ser de 2 a 10, não 11",
        ),
        (
            ["play", "--lang", "fr", "--players", "11"],
            "fr",
            "le nombre de joueurs doit aller de 2 à 10, pas 11",
        ),
        (["--lang=fr", "play", "--mode", "duel"], "fr", "choix invalide : 'duel' (choisis parmi"),
        (["play", "--lang", "pt", "--mode", "duel"], "pt", "escolha inválida: 'duel' (escolhe entre"),
        (["play", "--lang", "pt", "--nope"], "pt", "uno: erro: argumentos não reconhecidos: --nope"),
        (["play", "--lang", "fr", "--text"], "fr", "uno play : erreur : --text va avec --auto"),
        (["play", "--lang", "xx"], "en", "unknown language 'xx' (languages: en, pt, pt_BR, fr)"),
        (["play", "--lang", "fr", "--edition", "foo"], "fr", "édition inconnue 'foo' (connues : classic"),
        (
            ["play", "--lang", "pt", "--house", "foo"],
            "pt",
            "regra da casa desconhecida 'foo' (regras: stacking",
        ),
        (["simulate", "--lang", "pt", "--hands", "0"], "pt", "esperava-se um número inteiro positivo, não 0"),
        (["serve", "--lang", "fr", "--port", "99999"], "fr", "--port doit aller de 1 à 65535, pas 99999"),
    ],
)
def test_command_errors_in_each_language(
    argv: list[str],
    lang: str,
    wanted: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit) if not {"--text", "--port"} & set(argv) else _no_exit():
        status = cli.main(argv)
        assert status == 2
    err = capsys.readouterr().err
    assert wanted in err, err
    assert language() == lang


def test_scenario_and_option_errors_in_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": {}, "actions": [], "expect": {}, "start": {"dealer": 0}}')
    assert cli.main(["scenario", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "start: falta a chave 'deck'" in out and "cenários: 0 passaram, 1 falharam" in out
    assert cli.main(["play", "--auto", "--fast", "--option", "target=-5"]) == 2
    assert "a opção target tem de ser um número inteiro de 1 a 100000, não -5" in capsys.readouterr().err


def test_the_environment_sets_the_language_of_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LANG", "fr_CA.UTF-8")
    with pytest.raises(SystemExit):
        cli.main(["play", "--players", "1"])
    assert "le nombre de joueurs doit aller de 2 à 10, pas 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = capsys.readouterr().out
    assert "utilisation : uno play" in out and "affiche cette aide et quitte" in out
    assert "show this help" not in out and "options:" in out


class _no_exit:  # noqa: N801 - a context manager used like pytest.raises
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


ENGLISH: Final = re.compile(
    r"\b(the|and|with|played|drew|draws?|called|wins?|won|passed|skipped|caught|challenged|accepted|"
    r"swapped|showed|deals?|dealt|hand|Hand|cards?|Skip|Reverse|Draw|Wild|Howler|Invisibility|"
    r"Scores?|Game|over|Seed|players?|first|every|goes|red|yellow|green|blue)\b"
)
"""English words that must not reach a Portuguese or French game's output (names and the
notation's codes are not words: the bots are Ana, Ben, Cleo, Dev)."""


@pytest.mark.parametrize("lang", ["pt", "pt_BR", "fr"])
@pytest.mark.parametrize("edition", ["classic", "harry-potter", "cars2"])
def test_a_bots_only_game_says_nothing_in_english(
    lang: str, edition: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``uno play --auto --lang pt|fr`` with every house rule (swaps, stacks, jump-ins): every
    line is in the language, with plurals right."""
    monkeypatch.setenv("LANG", "C.UTF-8")
    args = ["play", "--auto", "--fast", "--text", "--lang", lang, "--edition", edition, "--seed", "11",
            "--target", "400", "--house", "party"]  # fmt: skip
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) > 60
    english = [line for line in lines if ENGLISH.search(line)]
    assert english == [], english[:5]
    one, many = {
        "pt": (" 1 carta", " 2 cartas"),
        "pt_BR": (" 1 carta", " 2 cartas"),
        "fr": (" 1 carte", " 2 cartes"),
    }[lang]
    assert one in out and many in out
    assert (
        " 1 cartas" not in out
        and " 1 cartes" not in out
        and " 2 carta." not in out
        and " 2 carte." not in out
    )
    if lang == "fr":
        assert "PIOCHE" in out or "pigé" in out


def test_english_is_still_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert cli.main(["play", "--auto", "--fast", "--text", "--seed", "11", "--target", "100"]) == 0
    out = capsys.readouterr().out
    assert "Ana drew" in out or "Ben drew" in out
    assert "Game over: " in out

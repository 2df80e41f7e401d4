"""The translator: the language of the work at hand, numbers, plurals, lazy strings."""

from __future__ import annotations

import asyncio

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from i18n import ENGLISH, Translator, current_language, resolve, speaking
from i18n.catalogues import compile_catalogue
from i18n.poker_words import CHIPS, DEEDS, DRAWS, _


def test_the_current_language_is_the_work_s_own() -> None:
    assert current_language() is ENGLISH
    with speaking(resolve("fr")):
        assert _("Fold") == "Se coucher"
        # An explicit language wins: a table's message rendered during a member's answer.
        assert _("Fold", language=resolve("de")) == "Passen"
    assert _("Fold") == "Fold"


async def test_each_task_speaks_its_own_language() -> None:
    async def render(code: str) -> str:
        with speaking(resolve(code)):
            await asyncio.sleep(0)
            return _("Raise")

    assert await asyncio.gather(render("pl"), render("pt-BR"), render("en")) == [
        "Podbijam",
        "Aumentar",
        "Raise",
    ]


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("en", "Ana raises to 12,500"),
        ("de", "Ana erhöht auf 12.500"),
        ("fr", "Ana relance à 12\u202f500"),
        ("es-ES", "Ana sube a 12.500"),
        ("pt-BR", "Ana aumenta para 12.500"),
        ("ru", "Ana рейзит до 12\xa0500"),
        ("pl", "Ana podbija do 12\xa0500"),
    ],
)
def test_numbers_are_written_the_language_s_way(code, text) -> None:
    assert DEEDS["raise"].render(resolve(code), player="Ana", amount=12500) == text


@pytest.mark.parametrize(
    ("code", "forms"),
    [
        ("en", ["1 chip", "2 chips", "5 chips", "21 chips", "22 chips", "1,000 chips"]),
        ("de", ["1 Chip", "2 Chips", "5 Chips", "21 Chips", "22 Chips", "1.000 Chips"]),
        ("ru", ["1 фишка", "2 фишки", "5 фишек", "21 фишка", "22 фишки", "1\xa0000 фишек"]),
        ("pl", ["1 żeton", "2 żetony", "5 żetonów", "21 żetonów", "22 żetony", "1\xa0000 żetonów"]),
    ],
)
def test_plurals_follow_the_language_s_rules(code, forms) -> None:
    counts = [1, 2, 5, 21, 22, 1000]
    assert [CHIPS.render(n, resolve(code)) for n in counts] == forms


def test_a_plural_message_reorders_its_placeholders_freely() -> None:
    assert DRAWS.render(3, resolve("ru"), player="Олег") == "Олег меняет 3 карты"
    assert DRAWS.render(1, resolve("pl"), player="Ola") == "Ola wymienia 1 kartę"


def test_a_lazy_string_is_read_when_rendered() -> None:
    fold = DEEDS["fold"]
    with speaking(resolve("es-419")):
        assert fold.render(player="Sofía") == "Sofía se retira"
    assert fold.render(player="Sofía") == "Sofía folds"


def test_a_lazy_value_takes_the_text_s_language() -> None:
    from i18n.poker_words import TERMS

    shown = _("{player} posts the {blind}", player="Jo", blind=TERMS["big-blind"])
    assert shown == "Jo posts the Big blind"  # no catalogue has this message: English


def _german_catalogue(messages: dict[str, str]) -> Catalog:
    catalogue = Catalog(locale="de")
    for message, text in messages.items():
        catalogue.add(message, text)
    return catalogue


def _translator(tmp_path, name: str, german: dict[str, str]) -> Translator:
    """A translator of its own package in ``tmp_path``, with a German catalogue of ``german``."""
    (tmp_path / "locales").mkdir()
    with (tmp_path / "locales" / "de.po").open("wb") as file:
        write_po(file, _german_catalogue(german))
    return Translator(name, tmp_path / "module.py")


def test_a_translation_that_does_not_format_reads_in_english(tmp_path, caplog) -> None:
    translator = _translator(
        tmp_path, "broken", {"{player} bets {amount}": "{spieler} setzt {amount}"}
    )
    text = translator("{player} bets {amount}", language=resolve("de"), player="Udo", amount=5000)
    assert text == "Udo bets 5.000"
    assert "does not format" in caplog.text


def test_a_catalogue_swapped_in_is_read_afresh(tmp_path) -> None:
    """Texts are looked up once per language, but with the catalogue they came from: one
    swapped in later (a test's fresh pseudo-language) is read, not the remembered text."""
    translator = _translator(tmp_path, "swapped", {"Fold": "Passen"})
    german = resolve("de")
    assert translator("Fold", language=german) == "Passen"
    swapped = compile_catalogue(_german_catalogue({"Fold": "Aussteigen"}))
    translator._catalogues["de"] = swapped
    assert translator("Fold", language=german) == "Aussteigen"
    assert translator("{count} chips", language=german, count=1200) == "1.200 chips"


def test_a_catalogue_is_read_when_its_language_is_first_needed(tmp_path, monkeypatch) -> None:
    """A bot starts without parsing every ``.po`` (each costs tens of milliseconds): a
    language's catalogue is read the first time a text is asked for in it, and only once."""
    from i18n import catalogues

    read: list[str] = []
    real = catalogues.read_catalogue

    def counted(path):
        read.append(path.name)
        return real(path)

    monkeypatch.setattr(catalogues, "read_catalogue", counted)
    translator = _translator(tmp_path, "lazy", {"Fold": "Passen"})
    assert read == []
    assert translator("Fold", language=resolve("fr")) == "Fold"  # no French catalogue here
    assert translator("Fold", language=resolve("de")) == "Passen"
    assert translator("Fold", language=resolve("de")) == "Passen"
    assert read == ["de.po"]

"""The catalogues are complete, up to date with the code, and the fallbacks hold."""

from __future__ import annotations

import datetime

import pytest

from i18n import ENGLISH, LANGUAGES, PSEUDO, Translator, placeholders, resolve
from i18n.catalogues import pseudo_catalogue, read_catalogue
from i18n.checks import problems, splits_a_number, stale
from i18n.extract import PACKAGES, extract, render, write, write_template

CODES = [language.code for language in LANGUAGES if language is not ENGLISH]


def test_the_fifteen_languages_are_shipped() -> None:
    assert [language.code for language in LANGUAGES] == [
        "en", "cs", "de", "es-ES", "fr", "id", "it", "nl", "pl", "pt-BR", "ru", "sv-SE", "tr",
        "uk", "vi",
    ]  # fmt: skip


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
@pytest.mark.parametrize("code", CODES)
def test_every_message_is_translated_with_its_placeholders(package, code) -> None:
    template = read_catalogue(package.template)
    catalogue = read_catalogue(package.catalogue(code))
    assert problems(template, catalogue) == []


@pytest.mark.parametrize("code", CODES)
def test_plural_forms_follow_the_language(code) -> None:
    catalogue = read_catalogue(PACKAGES[0].catalogue(code))
    assert catalogue.num_plurals == {"ru": 3, "pl": 3, "uk": 3, "cs": 3, "vi": 1, "id": 1}.get(
        code, 2
    )


def test_the_checks_catch_a_lost_placeholder_and_a_missing_form() -> None:
    template = read_catalogue(PACKAGES[0].template)
    catalogue = read_catalogue(PACKAGES[0].catalogue("pl"))
    catalogue["{player} raises to {amount}"].string = "{player} podbija"
    catalogue[("{count} chip", "{count} chips")].string = ("{count} żeton", "{count} żetony")
    del catalogue["Openers"]
    found = problems(template, catalogue)
    assert "'{player} raises to {amount}': '{player} podbija' lacks {amount}" in found
    assert "'{count} chip': 2 plural forms, not 3" in found
    assert "'Openers': missing" in found


def test_the_checks_keep_a_number_with_its_unit_or_sign() -> None:
    cogs = next(package for package in PACKAGES if package.name == "cogs")
    template = read_catalogue(cogs.template)
    catalogue = read_catalogue(cogs.catalogue("de"))
    catalogue["{seconds}\u00a0s"].string = "{seconds} Sek."
    catalogue["{minutes}\u00a0min"].string = "{minutes}\u00a0Min."
    catalogue["There is no hand\u00a0#{hand}."].string = "Es gibt keine Hand Nr. {hand}."
    hand = "Your hand · {game} · hand\u00a0#{number}"
    catalogue[hand].string = "Deine Hand · {game} · Hand #{number}"
    catalogue["Dealing hand\u00a0#{number}."].string = "Hand\u00a0#{number} wird gegeben."
    found = problems(template, catalogue)
    assert found == [
        "'There is no hand\\xa0#{hand}.': 'Es gibt keine Hand Nr. {hand}.' needs a non-breaking"
        " space beside a number",
        "'{seconds}\\xa0s': '{seconds} Sek.' needs a non-breaking space beside a number",
        "'Your hand · {game} · hand\\xa0#{number}': 'Deine Hand · {game} · Hand #{number}' needs a"
        " non-breaking space beside a number",
    ]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_source_texts_keep_a_number_with_its_unit_or_sign(package) -> None:
    """English is read from the source texts themselves: they follow the rule the check
    holds the catalogues to."""
    split = [
        text
        for message in read_catalogue(package.template)
        for text in (message.id if message.pluralizable else (message.id,))
        if text and splits_a_number(text)
    ]
    assert split == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_template_is_up_to_date_with_the_code(package) -> None:
    """Run ``python -m i18n extract`` (then ``update``) when this fails."""
    new, gone = stale(read_catalogue(package.template), extract(package))
    assert new == set(), "strings in the code that the template lacks"
    assert gone == set(), "strings in the template that the code no longer has"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_extracting_from_the_committed_code_changes_nothing(package) -> None:
    """``python -m i18n extract`` on a clean tree leaves every template as it is: the same
    messages in the same order with the same locations (it reordered two of the engine's)."""
    template = extract(package)
    template.creation_date = read_catalogue(package.template).creation_date
    assert render(template) == package.template.read_bytes()


def test_a_template_whose_messages_are_unchanged_keeps_its_file_and_date(tmp_path) -> None:
    path = tmp_path / "messages.pot"
    first = extract(PACKAGES[-1])
    first.creation_date = datetime.datetime(2020, 1, 2, 3, 4, tzinfo=datetime.UTC)
    write(first, path)
    kept = path.read_bytes()
    assert b"POT-Creation-Date: 2020-01-02 03:04+0000" in kept
    assert not write_template(extract(PACKAGES[-1]), path)
    assert path.read_bytes() == kept
    # A changed message is written, with the date of this extraction.
    changed = extract(PACKAGES[-1])
    changed.add("A message the code does not have yet")
    assert write_template(changed, path)
    assert b"A message the code does not have yet" in path.read_bytes()
    assert b"2020-01-02" not in path.read_bytes()


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_pseudo_language_keeps_every_placeholder(package) -> None:
    template = read_catalogue(package.template)
    made = pseudo_catalogue(template)
    for message in template:
        if not message.id:
            continue
        pseudo = made.get(message.id)
        assert pseudo is not None
        sources = message.id if message.pluralizable else (message.id,)
        forms = pseudo.string if message.pluralizable else (pseudo.string,)
        for source, form in zip(sources, forms, strict=True):
            assert placeholders(form) == placeholders(source)
            assert form.startswith("[") and form.endswith("]")
            assert len(form) >= 1.3 * len(source)


def test_the_pseudo_language_is_served_by_every_translator() -> None:
    from i18n.poker_words import _

    assert _("Fold", language=PSEUDO) == "[Ƒöļđ ·]"
    text = _("{player} raises to {amount}", language=PSEUDO, player="Ana", amount=1500)
    assert text.startswith("[Ana ŕåîšéš ŧö 1,500 ")


@pytest.mark.parametrize("locale", ["en-US", "en-GB", "zh-CN", "ja", "ko", "xx-YY", "", None])
def test_locales_we_do_not_ship_read_english(locale) -> None:
    from i18n.poker_words import _

    language = resolve(locale)
    assert language is ENGLISH
    assert _("{player} raises to {amount}", language=language, player="A", amount=2) == (
        "A raises to 2"
    )


def test_a_package_without_catalogues_reads_english(tmp_path) -> None:
    alone = Translator("nowhere", tmp_path / "module.py")
    assert alone("Hello {who}", language=resolve("de"), who="Bo") == "Hello Bo"
    assert alone.plural("{count} chip", "{count} chips", count=1000, language=resolve("de")) == (
        "1.000 chips"
    )


def test_the_check_command_passes(capsys) -> None:
    from i18n.__main__ import main

    assert main(["check"]) == 0
    assert "every catalogue is complete" in capsys.readouterr().out


def test_init_starts_a_new_language_and_never_a_shipped_one_again(
    tmp_path, monkeypatch, capsys
) -> None:
    import shutil

    import i18n.extract
    from i18n.__main__ import main

    shipped = {p.catalogue("de"): p.catalogue("de").read_bytes() for p in PACKAGES}
    assert main(["init", "de"]) == 2
    assert "already has catalogues" in capsys.readouterr().err
    assert main(["init", "xx-nowhere"]) == 2
    assert "not a language code" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in shipped} == shipped
    # A language nobody has started yet: made from each package's template (in a copy).
    for package in PACKAGES:
        (tmp_path / package.name / "locales").mkdir(parents=True)
        shutil.copy(package.template, tmp_path / package.name / "locales" / "messages.pot")
    monkeypatch.setattr(i18n.extract, "ROOT", tmp_path)
    assert main(["init", "da"]) == 0
    made = [tmp_path / p.name / "locales" / "da.po" for p in PACKAGES]
    assert all(read_catalogue(path).locale.language == "da" for path in made)
    assert main(["init", "da"]) == 2


def test_check_names_a_catalogue_it_cannot_read(tmp_path, monkeypatch, capsys) -> None:
    import shutil

    import i18n.extract
    from i18n.__main__ import main

    for package in PACKAGES:
        shutil.copytree(package.locales, tmp_path / package.name / "locales")
    monkeypatch.setattr(i18n.extract, "ROOT", tmp_path)
    broken = tmp_path / "cogs" / "locales" / "de.po"
    broken.write_text(broken.read_text(encoding="utf-8") + '\nmsgid "x"\nnonsense here\n')
    (tmp_path / "engine" / "locales" / "fr.po").write_bytes("msgid ''".encode("utf-16"))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "cogs/locales/de.po: cannot be read" in out, out
    assert "engine/locales/fr.po: cannot be read" in out, out


def test_the_layer_is_discord_free() -> None:
    import subprocess
    import sys

    probe = "import sys, i18n, i18n.poker_words, i18n.checks; print('discord' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

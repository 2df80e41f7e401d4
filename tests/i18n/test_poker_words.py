"""Every hand category and action word in every language, as the engine's values name them."""

from __future__ import annotations

import pytest

from engine.actions import AllIn, Bet, Call, Check, Discard, Fold, Raise
from engine.cards import parse_cards
from engine.hands import Category, evaluate
from engine.rules import Requirement
from i18n import LANGUAGES, resolve
from i18n.engine_text import engine_text, hand_name
from i18n.poker_words import ACTION_WORDS, CATEGORY_NAMES, TERMS, action_word, category_name

CATEGORIES = {
    "de": ["Höchste Karte", "Paar", "Zwei Paare", "Drilling", "Straße", "Flush", "Full House",
           "Vierling", "Straight Flush", "Fünfling"],
    "fr": ["Carte haute", "Paire", "Deux paires", "Brelan", "Quinte", "Couleur", "Full", "Carré",
           "Quinte flush", "Quintuple"],
    "es-ES": ["Carta alta", "Pareja", "Doble pareja", "Trío", "Escalera", "Color", "Full",
              "Póker", "Escalera de color", "Repóker"],
    "pt-BR": ["Carta alta", "Par", "Dois pares", "Trinca", "Sequência", "Flush", "Full house",
              "Quadra", "Straight flush", "Quina"],
    "ru": ["Старшая карта", "Пара", "Две пары", "Тройка", "Стрит", "Флеш", "Фулл-хаус", "Каре",
           "Стрит-флеш", "Покер"],
    "pl": ["Wysoka karta", "Para", "Dwie pary", "Trójka", "Strit", "Kolor", "Full", "Kareta",
           "Poker", "Pięć jednakowych"],
    "it": ["Carta alta", "Coppia", "Doppia coppia", "Tris", "Scala", "Colore", "Full", "Poker",
           "Scala colore", "Pokerissimo"],
    "nl": ["Hoge kaart", "Paar", "Twee paar", "Drie gelijke", "Straat", "Flush", "Full house",
           "Carré", "Straight flush", "Vijf gelijke"],
    "uk": ["Старша карта", "Пара", "Дві пари", "Трійка", "Стріт", "Флеш", "Фул-хаус", "Каре",
           "Стріт-флеш", "П'ять однакових"],
    # Turkish tables say "floş" for a straight flush and "renk" for a flush.
    "tr": ["Yüksek kart", "Per", "Döper", "Üçlü", "Kent", "Renk", "Ful", "Kare", "Floş", "Beşli"],
    "sv-SE": ["Högt kort", "Par", "Två par", "Triss", "Stege", "Färg", "Kåk", "Fyrtal",
              "Färgstege", "Femtal"],
    "vi": ["Mậu thầu", "Đôi", "Thú", "Sám cô", "Sảnh", "Thùng", "Cù lũ", "Tứ quý",
           "Thùng phá sảnh", "Ngũ quý"],
    # Indonesian tables say most of them in English.
    "id": ["Kartu tinggi", "Sepasang", "Dua pasang", "Trips", "Straight", "Flush", "Full house",
           "Four of a kind", "Straight flush", "Lima sejenis"],
    "cs": ["Nejvyšší karta", "Pár", "Dva páry", "Trojice", "Postupka", "Barva", "Full house",
           "Čtveřice", "Postupka v barvě", "Pětice"],
}  # fmt: skip

ACTIONS = {
    "de": ["Checken", "Mitgehen", "Setzen", "Erhöhen", "Passen", "All-in", "Tauschen", "Bedient"],
    "fr": ["Parole", "Suivre", "Miser", "Relancer", "Se coucher", "Tapis", "Changer", "Servi"],
    "es-ES": ["Pasar", "Igualar", "Apostar", "Subir", "Retirarse", "All-in", "Cambiar", "Servido"],
    "pt-BR": ["Mesa", "Pagar", "Apostar", "Aumentar", "Desistir", "All-in", "Trocar", "Servido"],
    "ru": ["Чек", "Колл", "Бет", "Рейз", "Фолд", "Олл-ин", "Обменять", "Без обмена"],
    "pl": ["Czekam", "Sprawdzam", "Stawiam", "Podbijam", "Pas", "Va banque", "Wymień",
           "Bez wymiany"],
    "it": ["Check", "Vedi", "Punta", "Rilancia", "Lascia", "All-in", "Cambia", "Servito"],
    "nl": ["Checken", "Callen", "Inzetten", "Verhogen", "Folden", "All-in", "Ruilen",
           "Niet ruilen"],
    "uk": ["Чек", "Колл", "Ставка", "Рейз", "Фолд", "Олл-ін", "Обміняти", "Без обміну"],
    "tr": ["Pas", "Gör", "Bahis", "Artır", "Çekil", "All-in", "Kart değiştir", "Kart istemem"],
    "sv-SE": ["Checka", "Syna", "Satsa", "Höj", "Lägg dig", "All-in", "Byt", "Stå"],
    "vi": ["Check", "Theo", "Cược", "Tố", "Bỏ bài", "All-in", "Đổi bài", "Giữ nguyên bài"],
    "id": ["Check", "Call", "Bertaruh", "Naikkan", "Fold", "All-in", "Tukar", "Tidak tukar"],
    "cs": ["Check", "Dorovnat", "Vsadit", "Navýšit", "Složit", "All-in", "Vyměnit", "Bez výměny"],
}  # fmt: skip

TAKEN = [Check(), Call(), Bet(4), Raise(8), Fold(), AllIn(), Discard(parse_cards("2c 3d")),
         Discard(())]  # fmt: skip


@pytest.mark.parametrize("code", CATEGORIES)
def test_each_category_has_its_local_name(code) -> None:
    language = resolve(code)
    assert [CATEGORY_NAMES[c].render(language) for c in Category] == CATEGORIES[code]


@pytest.mark.parametrize("code", ACTIONS)
def test_each_action_has_its_local_word(code) -> None:
    language = resolve(code)
    words = [action_word(action) for action in TAKEN]
    assert [word.render(language) for word in words if word] == ACTIONS[code]


def test_every_word_is_translated_in_every_language() -> None:
    words = [*CATEGORY_NAMES.values(), *ACTION_WORDS.values(), *TERMS.values()]
    for language in LANGUAGES[1:]:
        english = [word.render() for word in words]
        local = [word.render(language) for word in words]
        # A word may be the same in a language (Flush, Straddle); most are not.
        same = sum(a == b for a, b in zip(english, local, strict=True))
        assert same < len(words) // 2, language


def test_a_royal_flush_is_named_apart() -> None:
    royal = evaluate(parse_cards("As Ks Qs Js Ts"), "high")
    assert royal.category is Category.STRAIGHT_FLUSH
    assert category_name(royal.category, royal=True).render(resolve("fr")) == (
        "Quinte flush royale"
    )
    assert category_name(royal.category).render(resolve("pl")) == "Poker"


def test_a_rank_in_a_sentence_is_joined_as_in_a_hand_name() -> None:
    """Italian says "coppia d'assi": in the hand's name, and in what opens the pot too (that
    sentence's rank was a word already by the time the joins were looked for)."""
    italian = resolve("it")
    pair = evaluate(parse_cards("Ah Ad 9s Kc 2d"), "high")
    assert hand_name(pair, language=italian) == "Coppia d'assi"
    assert engine_text(Requirement.pair(14).label, language=italian) == "una coppia d'assi o meglio"
    assert engine_text(Requirement.pair(8).label, language=italian) == "una coppia di otto o meglio"


def test_the_engine_does_not_import_the_layer() -> None:
    from pathlib import Path

    import engine

    for source in Path(engine.__file__).parent.rglob("*.py"):
        assert "i18n" not in source.read_text(encoding="utf-8"), source

"""Modifiers: named changes to a game's rules, the way home games bend them.

A modifier is a small function from :class:`engine.rules.GameRules` to new rules, known by a
stable key. Variants use them for their optional rules (``"progressive"``, ``"bug"``...) and
dealer's choice uses them for ad-hoc games ("triple-draw California lowball, kings wild").

Keys:

=====================  ==========================================================
``bug``                add the joker as a bug (fitter in ace-to-five low)
``no-joker``           take the joker out
``joker-wild``         add the joker, fully wild
``wild:R``             rank ``R`` (2-14) wild, e.g. ``wild:2`` for deuces
``one-eyed``           the two one-eyed jacks (spades, hearts) wild
``one-eyed-king``      the king of diamonds wild too (the third one-eyed card)
``draws:N``            ``N`` drawing rounds (1-3), betting after each as after the game's
                       draw (the rounds before the first draw stay as they were)
``cards:N``            hands of ``N`` cards (3, 4, 6, 7, 8 or 9) instead of five
``four-before``        four cards dealt; the first draw gives one card more than discarded
``low:a5``             lowball, ace-to-five (``low:27`` deuce-to-seven, ``low:a6`` ace-to-six)
``high``               high hands only (a declare game loses its declaration)
``hilo:8``             high-low split, low needs eight or better (``hilo:9``; ``hilo:any``:
                       a pair or better for high, any hand without a pair for low)
``declare``            high-low split by declaration
``progressive``        progressive jackpots (openers rise after a passed-out deal)
``jackpot-limit``      after a passed-out deal, bets up to the pot
``lowball-blind``      jacks back: a blind when the game turns to lowball
``seven-rule``         California lowball's seven rule
``no-check-raise``     no check-raise after the draw at fixed or spread limit
``bosnian``            the Bosnian exchange on a four-card draw
``no-first-round``     no betting round right after the deal (anaconda)
``rollout``            a rollout instead of the plain showdown
=====================  ==========================================================

:func:`apply_modifiers` applies several in order and returns the new rules with a readable
name and the guideline warnings; :func:`check_rules` refuses what cannot be played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from engine.cards import ONE_EYED_JACKS, ONE_EYED_KING, Card
from engine.hands import Ranking
from engine.rules import (
    DRAW_FOUR,
    Arrange,
    Bet,
    BetTier,
    Deal,
    DealBoard,
    DeckKind,
    Declare,
    Draw,
    DrawSeries,
    GameRules,
    Pass,
    Reveal,
    Split,
    Step,
    WildCards,
    cards_held,
)
from engine.wording import Phrase, RankWord, english

__all__ = [
    "MODIFIER_KEYS",
    "Modified",
    "apply_modifier",
    "apply_modifiers",
    "check_rules",
    "describe_modifier",
    "explain_modifier",
    "game_name",
    "rollout_steps",
    "rules_warnings",
]

_LOWS = {"a5": Ranking.ACE_TO_FIVE, "27": Ranking.DEUCE_TO_SEVEN, "a6": Ranking.ACE_TO_SIX}
_LOW_NAMES = {
    Ranking.ACE_TO_FIVE: "ace-to-five",
    Ranking.DEUCE_TO_SEVEN: "deuce-to-seven",
    Ranking.ACE_TO_SIX: "ace-to-six",
}

HAND_SIZES: tuple[int, ...] = (3, 4, 6, 7, 8, 9)
"""The hand sizes the ``cards:N`` modifier offers besides five."""


_PROPER = frozenset(
    ("California", "Kansas", "Johnson", "Diablo", "Q-Ball", "Skinny", "Anaconda", "Shotgun")
)

MODIFIER_KEYS: tuple[str, ...] = (
    "bug",
    "no-joker",
    "joker-wild",
    *(f"wild:{rank}" for rank in range(2, 15)),
    "one-eyed",
    "one-eyed-king",
    "draws:1",
    "draws:2",
    "draws:3",
    *(f"cards:{size}" for size in HAND_SIZES),
    "four-before",
    "low:a5",
    "low:27",
    "low:a6",
    "high",
    "hilo:8",
    "hilo:9",
    "hilo:any",
    "declare",
    "progressive",
    "jackpot-limit",
    "lowball-blind",
    "seven-rule",
    "no-check-raise",
    "bosnian",
    "no-first-round",
    "rollout",
)
"""Every modifier key :func:`apply_modifier` knows."""


@dataclass(frozen=True, slots=True)
class Modified:
    """The result of :func:`apply_modifiers`: the ``rules`` (named for people) and the
    guideline ``warnings`` they break (too many wild cards, too many cards...)."""

    rules: GameRules
    warnings: tuple[str, ...]


def describe_modifier(key: str) -> str:
    """A few words for a modifier, as in a game's name ("kings wild"); a :class:`Phrase`,
    which the localisation layer says in the reader's language.

    >>> describe_modifier("wild:13"), describe_modifier("wild:2")
    ('kings wild', 'deuces wild')

    :raises ValueError: for an unknown key.
    """
    if key.startswith("wild:"):
        rank = _wild_rank(key)
        # Players say "deuces wild", never "twos wild": the idiom, not the rank word.
        if rank == 2:
            return Phrase("deuces wild")
        # Translators: a house rule, "kings wild" (every king is a wild card).
        return Phrase("{rank_plural} wild", rank_plural=RankWord(rank, plural=True))
    if key.startswith("cards:"):
        return Phrase(_SIZE_NAMES[_hand_size(key)])
    try:
        return Phrase(_WORDS[key])
    except KeyError:
        raise ValueError(Phrase("unknown modifier {key}", key=repr(key))) from None


_SIZE_NAMES = {
    3: english("three-card hands"),
    4: english("four-card hands"),
    6: english("six-card hands"),
    7: english("seven-card hands"),
    8: english("eight-card hands"),
    9: english("nine-card hands"),
}

# Translators: a house rule in a few words, in a game's name and a menu (<= 100 characters).
_WORDS = {
    "bug": english("with the bug"),
    "no-joker": english("no joker"),
    "joker-wild": english("joker wild"),
    "one-eyed": english("one-eyed jacks wild"),
    "one-eyed-king": english("one-eyed king wild"),
    "draws:1": english("single draw"),
    "draws:2": english("double draw"),
    "draws:3": english("triple draw"),
    "four-before": english("four-before"),
    "low:a5": english("ace-to-five low"),
    "low:27": english("deuce-to-seven low"),
    "low:a6": english("ace-to-six low"),
    "high": english("high"),
    "hilo:8": english("high-low split, eight or better"),
    "hilo:9": english("high-low split, nine or better"),
    "hilo:any": english("high-low split, a pair or better for high, no pair for low"),
    "declare": english("high-low declare"),
    "progressive": english("progressive"),
    "jackpot-limit": english("jackpot limit"),
    "lowball-blind": english("blind in the lowball round"),
    "seven-rule": english("seven rule"),
    "no-check-raise": english("no check-raise"),
    "bosnian": english("Bosnian exchange"),
    "no-first-round": english("no bet before the first pass"),
    "rollout": english("with a rollout"),
}

_SHORT_HAND = english(
    "A short hand ranks by its pairs and sets only, as home games usually play it: "
    "straights and flushes need five cards, so three of a kind is the best three-card "
    "high hand and four of a kind the best with four. Equal combinations are decided "
    "card by card from the top. For low the fewest pairs and the lowest cards win; "
    "3-2-A is the best three-card low with aces low, 4-3-2 in deuce-to-seven."
)

_DRAWS = english(
    "The betting rounds before the first draw stay as they were. Every draw is followed by a "
    "betting round like the one that followed the game's own draw (who begins it, its "
    "minimum): the small bet until half the betting rounds are played, then the big bet, and "
    "the last round keeps its own size. When no betting follows the game's draw (the "
    "shotgun's rollout comes next), betting rounds are added only between the draws."
)

_EXPLAINED = {
    "draws:1": Phrase("A single draw. {draws}", draws=Phrase(_DRAWS)),
    "draws:2": Phrase("Two draws. {draws}", draws=Phrase(_DRAWS)),
    "draws:3": Phrase("Three draws. {draws}", draws=Phrase(_DRAWS)),
    "high": Phrase(
        "The best high hand takes the whole pot: there is no low half, and a high-low declare "
        "game is played without its declaration."
    ),
    "no-check-raise": Phrase(
        "At fixed or spread limit, a player who checks in a betting round after the draw may "
        "not raise later in that round. At pot limit and no limit a check-raise is allowed."
    ),
    "cards:3": Phrase(
        "Every player holds three cards instead of five. {short_hand}",
        short_hand=Phrase(_SHORT_HAND),
    ),
    "cards:4": Phrase(
        "Every player holds four cards instead of five. {short_hand}",
        short_hand=Phrase(_SHORT_HAND),
    ),
    "cards:6": Phrase(
        "Every player holds six cards instead of five, and plays the best five of them."
    ),
    "cards:7": Phrase(
        "Every player holds seven cards instead of five, and plays the best five of them."
    ),
    "cards:8": Phrase(
        "Every player holds eight cards instead of five, and plays the best five of them."
    ),
    "cards:9": Phrase(
        "Every player holds nine cards instead of five, and plays the best five of them."
    ),
    "hilo:any": Phrase(
        "High and low share the pot. Only a hand with a pair or better can win high, and "
        "only a hand without a pair can win low. When no hand qualifies for one half, the "
        "other takes the whole pot."
    ),
    "one-eyed-king": Phrase(
        "The king of diamonds, the court card shown in profile with the two one-eyed "
        "jacks, is wild as well."
    ),
}


def explain_modifier(key: str) -> str:
    """A sentence or two of rules text for a modifier, for a game's rules page (the short
    words of :func:`describe_modifier` are for names and menus); a :class:`Phrase`.

    >>> explain_modifier("cards:3").split(".")[0]
    'Every player holds three cards instead of five'

    :raises ValueError: for an unknown key.
    """
    explained = _EXPLAINED.get(key)
    if explained is not None:
        return explained
    words = describe_modifier(key)
    # The menu's words as a sentence of their own: a capital and a full stop.
    # Translators: a house rule's few words ("kings wild") as a sentence of the rules page.
    return Phrase.begun("{modifier}.", modifier=words)


def _wild_rank(key: str) -> int:
    try:
        rank = int(key.split(":", 1)[1])
    except ValueError:
        raise ValueError(Phrase("unknown modifier {key}", key=repr(key))) from None
    if not 2 <= rank <= 14:
        raise ValueError(Phrase("a wild rank must be 2 to 14, not {rank}", rank=rank))
    return rank


def _hand_size(key: str) -> int:
    try:
        size = int(key.split(":", 1)[1])
    except ValueError:
        raise ValueError(Phrase("unknown modifier {key}", key=repr(key))) from None
    if size not in HAND_SIZES:
        raise ValueError(
            Phrase("a hand may have 3, 4 or 6 to 9 cards with this modifier, not {size}", size=size)
        )
    return size


def _set_hand_size(rules: GameRules, size: int) -> GameRules:
    """Deal so that every player ends with ``size`` cards: the change falls on the last
    deal (and on earlier ones when a short hand needs it; a deal step left with no card goes,
    with the betting round that followed it). The most players shrink to what the pack can
    deal."""
    if rules.board_plays or any(isinstance(s, Pass) for s in rules.steps):
        raise ValueError(Phrase("{game} has no plain hand size to change", game=Phrase(rules.name)))
    if rules.deck is DeckKind.STRIPPED and size < 5:
        raise ValueError(Phrase("the 32-card game ranks five-card hands only"))
    if size < 5 and any(isinstance(s, Arrange) for s in rules.steps):
        raise ValueError(Phrase("a rollout needs five cards in every hand"))
    steps = list(rules.steps)
    change = size - rules.held_size  # a rollout's five come out of the cards held
    index = len(steps)
    while change:
        index = max(i for i, s in enumerate(steps[:index]) if isinstance(s, Deal))
        deal = steps[index]
        assert isinstance(deal, Deal)
        if deal.count + change >= 1:
            steps[index] = replace(deal, count=deal.count + change)
            change = 0
        else:
            change += deal.count
            end = (
                index + 2
                if index + 1 < len(steps) and isinstance(steps[index + 1], Bet)
                else index + 1
            )
            del steps[index:end]
    # Every player receives each draw's extra cards even standing pat: the pack must hold them.
    most = min(rules.max_players, (rules.deck.value - rules.board_cards) // cards_held(steps))
    if most < 2:
        raise ValueError(Phrase("{size}-card hands need more cards than the pack holds", size=size))
    return replace(rules, steps=tuple(steps), max_players=most)


def _steps(rules: GameRules, steps: Iterable[Step]) -> GameRules:
    return replace(rules, steps=tuple(steps))


def _both(rules: GameRules, change: Callable[[GameRules], GameRules]) -> GameRules:
    """Apply ``change`` to the rules and to the game they switch to on a pass-out."""
    switch = rules.switch_on_pass_out
    changed = change(rules)
    if switch is not None:
        changed = replace(changed, switch_on_pass_out=change(switch))
    return changed


def _with_joker(rules: GameRules, wild: bool) -> GameRules:
    if rules.deck is DeckKind.STRIPPED:
        raise ValueError(Phrase("the 32-card game is played without a joker"))
    return replace(
        rules,
        deck=DeckKind.WITH_JOKER,
        wild=replace(rules.wild, joker=wild or rules.wild.joker),
    )


def _without_joker(rules: GameRules) -> GameRules:
    deck = DeckKind.STANDARD if rules.deck is DeckKind.WITH_JOKER else rules.deck
    return replace(rules, deck=deck, wild=replace(rules.wild, joker=False))


def _add_wild(rules: GameRules, ranks: Iterable[int] = (), cards: Iterable[Card] = ()) -> GameRules:
    wild = rules.wild
    return replace(
        rules,
        wild=WildCards(
            ranks=wild.ranks | frozenset(ranks),
            cards=wild.cards | frozenset(cards),
            joker=wild.joker,
        ),
    )


def _set_draws(rules: GameRules, count: int) -> GameRules:
    """``count`` drawing rounds, each followed by a betting round like the one that followed
    the game's draw (who begins it, its minimum); the betting rounds before the first draw
    stay as they are. The new rounds are small until half the betting rounds are, then big
    (triple draw: small, small, big, big), and the last keeps its own size (Q-Ball's four
    units). A game whose draw has no betting round after it (the shotgun's rollout follows)
    gets one only between its draws. Steps after the last draw's betting round (a rollout,
    a declaration) stay as they are."""
    if not 1 <= count <= 3:
        raise ValueError(Phrase("a game has one to three draws"))
    steps = list(rules.steps)
    if any(isinstance(s, DrawSeries | Pass) for s in steps):
        raise ValueError(Phrase("{game} has no single draw to repeat", game=Phrase(rules.name)))
    draws = [i for i, step in enumerate(steps) if isinstance(step, Draw)]
    if not draws:
        raise ValueError(Phrase("{game} has no draw to repeat", game=Phrase(rules.name)))
    first = draws[0]
    template = steps[first]
    assert isinstance(template, Draw)
    end = draws[-1] + 1
    after = steps[end] if end < len(steps) else None
    if isinstance(after, Bet):
        end += 1
    else:
        after = None
    before = steps[:first]
    number = sum(1 for s in before if isinstance(s, Bet))
    new_rounds = count if after is not None else count - 1
    small = (number + new_rounds + 1) // 2
    rebuilt: list[Step] = list(before)
    for k in range(count):
        rebuilt.append(template if k == 0 else replace(template, extra=0))
        last = k == count - 1
        if last and after is None:
            break
        tier = BetTier.SMALL if number < small else BetTier.BIG
        model = after if after is not None else Bet()
        rebuilt.append(replace(model, tier=tier) if last else replace(model, tier=tier, scale=1))
        number += 1
    rebuilt.extend(steps[end:])
    return _steps(rules, rebuilt)


def _four_before(rules: GameRules) -> GameRules:
    steps = list(rules.steps)
    deal = next((i for i, s in enumerate(steps) if isinstance(s, Deal)), None)
    draw = next((i for i, s in enumerate(steps) if isinstance(s, Draw)), None)
    if deal is None or draw is None or rules.dealt_per_player != 5:
        raise ValueError(Phrase("{game} cannot be dealt four-before", game=Phrase(rules.name)))
    first = steps[deal]
    assert isinstance(first, Deal)
    if first.count == 5:
        steps[deal] = Deal(4, first.face_up)
    else:
        last = max(i for i, s in enumerate(steps) if isinstance(s, Deal))
        last_deal = steps[last]
        assert isinstance(last_deal, Deal)
        if last_deal.count > 1:
            steps[last] = Deal(last_deal.count - 1, last_deal.face_up)
        else:
            del steps[last]
            draw = next(i for i, s in enumerate(steps) if isinstance(s, Draw))
    draw_step = steps[draw]
    assert isinstance(draw_step, Draw)
    steps[draw] = replace(draw_step, extra=draw_step.extra + 1)
    return _steps(rules, steps)


def _lowball(rules: GameRules, ranking: Ranking) -> GameRules:
    split = rules.split
    if split is Split.HIGH:
        split = Split.LOW
    return replace(
        rules,
        split=split,
        low=ranking,
        open_requirement=None if split is Split.LOW else rules.open_requirement,
        progressive=False if split is Split.LOW else rules.progressive,
    )


def _high_low(rules: GameRules, qualifier: int | None, pair: bool = False) -> GameRules:
    steps = [s for s in rules.steps if not isinstance(s, Declare)]
    return replace(
        rules,
        split=Split.HIGH_LOW,
        low_qualifier=qualifier,
        high_needs_pair=pair,
        steps=tuple(steps),
    )


def _declare(rules: GameRules) -> GameRules:
    steps = [s for s in rules.steps if not isinstance(s, Declare)]
    return replace(
        rules,
        split=Split.DECLARE,
        low_qualifier=None,
        high_needs_pair=False,
        steps=(*steps, Declare()),
    )


def rollout_steps(size: int = 5) -> tuple[Step, ...]:
    """The rollout: arrange ``size`` cards, then four reveals each followed by a betting
    round at the big tier."""
    steps: list[Step] = [Arrange(size)]
    for index in range(size - 1):
        steps += [Reveal(index), Bet(tier=BetTier.BIG)]
    return tuple(steps)


def _rollout(rules: GameRules) -> GameRules:
    if any(isinstance(s, Arrange) for s in rules.steps):
        return rules
    steps = list(rules.steps)
    declare = [s for s in steps if isinstance(s, Declare)]
    steps = [s for s in steps if not isinstance(s, Declare)]
    return _steps(rules, [*steps, *rollout_steps(), *declare])


def _no_first_round(rules: GameRules) -> GameRules:
    steps = list(rules.steps)
    first_pass = next((i for i, s in enumerate(steps) if isinstance(s, Pass)), None)
    if first_pass is None:
        raise ValueError(Phrase("{game} has no pass to bet after", game=Phrase(rules.name)))
    bets = [i for i in range(first_pass) if isinstance(steps[i], Bet)]
    if bets:
        del steps[bets[-1]]
    return _steps(rules, steps)


def _bosnian(rules: GameRules) -> GameRules:
    steps = [
        replace(s, bosnian=True, limit=DRAW_FOUR if s.limit is None else s.limit)
        if isinstance(s, Draw)
        else s
        for s in rules.steps
    ]
    return _steps(rules, steps)


def _needs_opening(rules: GameRules, refusal: Phrase) -> None:
    if rules.open_requirement is None:
        raise ValueError(refusal)


def apply_modifier(rules: GameRules, key: str) -> GameRules:
    """``rules`` changed by the modifier ``key`` (the name is left as it is).

    :raises ValueError: for an unknown key or one that does not fit these rules.
    """
    if key == "bug":
        return _both(rules, lambda r: _with_joker(r, wild=False))
    if key == "no-joker":
        return _both(rules, _without_joker)
    if key == "joker-wild":
        return _both(rules, lambda r: _with_joker(r, wild=True))
    if key.startswith("wild:"):
        rank = _wild_rank(key)
        if rules.deck is DeckKind.STRIPPED and rank < 7:
            raise ValueError(Phrase("the 32-card pack has no cards below seven"))
        return _both(rules, lambda r: _add_wild(r, ranks=(rank,)))
    if key == "one-eyed":
        return _both(rules, lambda r: _add_wild(r, cards=ONE_EYED_JACKS))
    if key == "one-eyed-king":
        return _both(rules, lambda r: _add_wild(r, cards=(ONE_EYED_KING,)))
    if key.startswith("draws:"):
        count = {"draws:1": 1, "draws:2": 2, "draws:3": 3}.get(key)
        if count is None:
            raise ValueError(Phrase("unknown modifier {key}", key=repr(key)))
        return _both(rules, lambda r: _set_draws(r, count))
    if key.startswith("cards:"):
        size = _hand_size(key)
        return _both(rules, lambda r: _set_hand_size(r, size))
    if key == "four-before":
        return _both(rules, _four_before)
    if key.startswith("low:"):
        ranking = _LOWS.get(key[4:])
        if ranking is None:
            raise ValueError(Phrase("unknown modifier {key}", key=repr(key)))
        return _lowball(rules, ranking)
    if key == "high":
        # High only: a declaration would decide nothing, so a declare game loses its step.
        kept = tuple(s for s in rules.steps if not isinstance(s, Declare))
        return replace(rules, split=Split.HIGH, seven_rule=False, high_needs_pair=False, steps=kept)
    if key.startswith("hilo:"):
        if key == "hilo:any":
            # Any pair, no pair: a pair or better wins high, any hand without one wins low.
            return _high_low(rules, 14, pair=True)
        qualifiers = {"hilo:8": 8, "hilo:9": 9}
        if key not in qualifiers:
            raise ValueError(Phrase("unknown modifier {key}", key=repr(key)))
        return _high_low(rules, qualifiers[key])
    if key == "declare":
        return _declare(rules)
    if key == "progressive":
        _needs_opening(
            rules, Phrase("progressive jackpots needs a game with an opening requirement")
        )
        return replace(rules, progressive=True)
    if key == "jackpot-limit":
        return replace(rules, jackpot_limit=True)
    if key == "lowball-blind":
        switch = rules.switch_on_pass_out
        if switch is None:
            raise ValueError(
                Phrase("the lowball blind is for games that turn to lowball (jacks back)")
            )
        steps = list(switch.steps)
        first = next(i for i, s in enumerate(steps) if isinstance(s, Bet))
        bet = steps[first]
        assert isinstance(bet, Bet)
        steps[first] = replace(bet, blind=True)
        return replace(rules, switch_on_pass_out=_steps(switch, steps))
    if key in ("seven-rule", "no-check-raise"):
        seven = key == "seven-rule"

        def lowball_rule(r: GameRules) -> GameRules:
            if seven:
                return replace(r, seven_rule=True)
            return replace(r, no_check_raise=True)

        switch = rules.switch_on_pass_out
        if switch is not None:
            return replace(rules, switch_on_pass_out=lowball_rule(switch))
        return lowball_rule(rules)
    if key == "bosnian":
        return _both(rules, _bosnian)
    if key == "no-first-round":
        return _no_first_round(rules)
    if key == "rollout":
        return _rollout(rules)
    raise ValueError(Phrase("unknown modifier {key}", key=repr(key)))


def check_rules(rules: GameRules) -> None:
    """Refuse rules that cannot be played fairly: high-low needs a qualifier or a
    declaration (the rules' guideline made a requirement), and everything
    :meth:`engine.rules.GameRules.problem` checks.

    :raises ValueError: with the reason.
    """
    problem = rules.problem()
    if problem is not None:
        raise ValueError(problem)
    if (
        rules.split is Split.HIGH_LOW
        and rules.low_qualifier is None
        and not any(isinstance(s, Declare) for s in rules.steps)
    ):
        raise ValueError(Phrase("high-low needs a qualifier for low or a declaration"))


def rules_warnings(rules: GameRules) -> tuple[str, ...]:
    """The home-game guidelines these rules break, as sentences (not errors)."""
    warnings: list[str] = []
    wild = len(rules.wild.resolve(rules.deck.cards()))
    if any(isinstance(s, DealBoard) and s.wild_rank for s in rules.steps):
        wild += 4
    if wild > 6:
        warnings.append(
            Phrase.counted(
                "{count} wild card makes for many ties and some confusion",
                "{count} wild cards make for many ties and some confusion",
                count=wild,
            )
        )
    if rules.dealt_per_player > 8:
        warnings.append(
            Phrase.counted(
                "{count} card per player usually makes a poor game",
                "{count} cards per player usually make a poor game",
                count=rules.dealt_per_player,
            )
        )
    rounds = rules.betting_rounds + sum(1 for s in rules.steps if isinstance(s, DrawSeries))
    if rounds > 5:
        warnings.append(
            Phrase.counted(
                "{count} betting round leaves little room for skill",
                "{count} betting rounds leave little room for skill",
                count=rounds,
            )
        )
    return tuple(warnings)


_DRAW_PREFIXES = {
    "draws:2": english("Double-draw {game}"),
    "draws:3": english("Triple-draw {game}"),
}
# Translators: a game with another hand size, "Three-card jacks or better".
_SIZE_PREFIXES = {
    3: english("Three-card {game}"),
    4: english("Four-card {game}"),
    6: english("Six-card {game}"),
    7: english("Seven-card {game}"),
    8: english("Eight-card {game}"),
    9: english("Nine-card {game}"),
}


def game_name(base: str, keys: Iterable[str]) -> str:
    """A readable name for the game ``base`` with the modifiers ``keys``; a :class:`Phrase`
    made of the game's name and the modifiers' words, so that each is translated.

    >>> game_name("California lowball", ["draws:3", "wild:13"])
    'Triple-draw California lowball, kings wild'
    >>> game_name("Jacks or better", ["cards:4"])
    'Four-card jacks or better'
    """
    prefix = ""
    size_prefix = ""
    low_word = ""
    suffixes: list[str] = []
    keys = list(keys)
    splits = [k for k in keys if k in ("declare", "high") or k.startswith("hilo:")]
    keys = [k for k in keys if k not in splits[:-1]]  # only the last split rule counts
    for key in keys:
        if key in ("draws:2", "draws:3"):
            prefix = _DRAW_PREFIXES[key]
        elif key.startswith("cards:"):
            size_prefix = _SIZE_PREFIXES[_hand_size(key)]
        elif key.startswith("low:"):
            low_word = describe_modifier(key)
        elif key in ("draws:1",):
            continue
        else:
            suffixes.append(describe_modifier(key))
    name = Phrase(base)
    for before in (prefix, size_prefix):
        if before:
            first = name.split(" ", 1)[0]
            name = Phrase(before, game=name if first in _PROPER else Phrase.within(name))
    if low_word:
        suffixes.insert(0, low_word)
    for words in suffixes:
        # Translators: a game's name and a house rule, "Five-card draw, kings wild".
        name = Phrase("{game}, {rule}", game=name, rule=words)
    return name


def apply_modifiers(rules: GameRules, keys: Iterable[str], *, name: str | None = None) -> Modified:
    """Apply the modifiers ``keys`` in order, name the result (``name`` or the rules' name
    with the modifiers: "Triple-draw California lowball, kings wild"), check it and collect
    the guideline warnings.

    :raises ValueError: for an unknown or unfitting modifier, or rules that cannot be played.
    """
    keys = tuple(keys)
    for key in keys:
        rules = apply_modifier(rules, key)
    rules = replace(rules, name=name if name is not None else game_name(rules.name, keys))
    check_rules(rules)
    return Modified(rules, rules_warnings(rules))

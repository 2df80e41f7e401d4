"""House rules on Discord: the words for each of the engine's table options, and the
``/poker settings`` choices that change them.

Pure, like :mod:`cogs.ui.render`: which options matter in a game, and when a change takes
effect, are the engine's answers (:meth:`engine.TableConfig.applicable_options`,
:meth:`engine.Table.set_options`); this module only names them and reads the options a user
sent (each checked by :mod:`cogs.validation` first).

>>> requested(engine.TableOptions(), newcomers="wait", draw_limit="4", diablo_cap=0)
TableOptions(pass_out_reante=True, pass_out_deal_passes=True, second_round_from_opener=True, \
draw_limit=DrawLimit(most=4, with_ace=None), diablo_cap=None, newcomers='wait', \
no_five_in_a_row=False, progressive_back_down=True, muck_losers=False, blind_off_absent=False)
>>> requested(engine.TableOptions()) is None
True
>>> describe("newcomers", "post")
'Newcomers post a blind and play at once'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

import discord

import engine
from cogs import validation
from cogs.translator import _
from cogs.ui.components import Components, PokerSelect
from cogs.ui.custom_ids import RulesSelect
from i18n import Language, LazyString, current_language, speaking

__all__ = [
    "DRAW_LIMITS",
    "NEWCOMERS",
    "announce",
    "components",
    "describe",
    "flags_offered",
    "in_force",
    "requested",
]

NEWCOMERS: Final[dict[str, str]] = {
    "play": "Dealt in at the next hand",
    "wait": "Wait for the deal to reach their seat",
    "post": "Post a blind to play at once",
}
"""The ``newcomers`` choices, by engine value (the engine's :data:`engine.NEWCOMER_RULES`):
the slash menu's choice names (translated by the menu's translator)."""

_NEWCOMER_OPTIONS: Final = {
    # Translators: an option of the house rules' "newcomers" menu (at most 100 characters).
    "play": _.lazy("Newcomers: dealt in at the next hand"),
    "wait": _.lazy("Newcomers: wait for the deal to reach their seat"),
    "post": _.lazy("Newcomers: post a blind to play at once"),
}

DRAW_LIMITS: Final[dict[str, engine.DrawLimit]] = {
    "3": engine.DrawLimit(3),
    "3+ace": engine.DrawLimit(3, 4),
    "4": engine.DrawLimit(4),
    "5": engine.DrawLimit(5),
}
"""The ``draw_limit`` choices: the usual three, the "four with an ace" house rule, four, five."""

# Translators: a house rule as a player reads it in the rules list and the settings menu
# (at most 100 characters there); each rule has a line for on and a line for off.
_FLAGS: Final[dict[str, tuple[LazyString, LazyString]]] = {
    "pass_out_reante": (
        _.lazy("After a deal nobody opens, everyone antes again"),
        _.lazy("After a deal nobody opens, the pot is dealt for again without new antes"),
    ),
    "pass_out_deal_passes": (
        _.lazy("After a deal nobody opens, the deal passes left"),
        _.lazy("After a deal nobody opens, the same dealer deals again"),
    ),
    "second_round_from_opener": (
        _.lazy("After the draw, the opener bets first"),
        _.lazy("After the draw, the first player left of the dealer bets first"),
    ),
    "no_five_in_a_row": (
        _.lazy("Nobody draws five cards in a row off the deck (the fifth comes after the others)"),
        _.lazy("A five-card draw comes straight off the deck"),
    ),
    "progressive_back_down": (
        _.lazy("Progressive openers step back down after aces"),
        _.lazy("Progressive openers stay at aces until someone opens"),
    ),
    "muck_losers": (
        _.lazy("A beaten hand may be mucked unseen at the showdown"),
        _.lazy("Every hand still in is shown at the showdown"),
    ),
    "blind_off_absent": (
        _.lazy("A player sitting out is dealt in and blinded off"),
        _.lazy("A player sitting out is not dealt in"),
    ),
}


def describe(name: str, value: Any) -> str:
    """One house rule, with its value, in a line a player reads at a glance."""
    if name in _FLAGS:
        return str(_FLAGS[name][0 if value else 1])
    if name == "newcomers":
        if value == "play":
            return _("Newcomers are dealt in at the next hand")
        if value == "wait":
            return _("Newcomers wait for the deal to reach their seat")
        if value == "post":
            return _("Newcomers post a blind and play at once")
        raise KeyError(value)
    if name == "draw_limit":
        return _draw_text(value if value is not None else engine.DRAW_FOUR_WITH_ACE)
    if name == "diablo_cap":
        if value is None:
            return _("A Diablo opener's new pot has no cap")
        return _("A Diablo opener puts at most {amount} in a new pot", amount=value)
    raise KeyError(name)


def _draw_text(limit: engine.DrawLimit) -> str:
    if limit.with_ace is not None:
        # Translators: the draw limit house rule, e.g. "Draw up to 3 cards (4 keeping an ace
        # or wild card)"; a settings menu option (at most 100 characters).
        return _(
            "Draw up to {most} cards ({with_ace} keeping an ace or wild card)",
            most=limit.most,
            with_ace=limit.with_ace,
        )
    return _.plural("Draw up to {count} card", "Draw up to {count} cards", count=limit.most)


def in_force(table: engine.Table) -> tuple[list[str], list[str]]:
    """The house rules that matter at ``table``: the lines in force, and the lines of a change
    waiting for the next deal (empty when none is)."""
    current = table.config.options
    names = _offered(table.config)
    if current.blind_off_absent:
        names.append("blind_off_absent")
    now = [_line(table, current, name) for name in names]
    pending = table.pending_options
    return now, [] if pending is None else _changes(table, pending, current)


def announce(
    table: engine.Table,
    before: engine.TableOptions,
    after: engine.TableOptions | None = None,
    *,
    language: Language | None = None,
) -> str:
    """What changed in ``table``'s house rules from ``before`` to ``after`` (default: the
    latest rules now), in a sentence for the channel (in ``language``, the table's; default:
    the current one); empty when nothing did. Give ``after`` when another change may have come
    since: each manager is told only of their own."""
    with speaking(language or current_language()):
        return _announce(table, before, table.next_options if after is None else after)


def _announce(table: engine.Table, before: engine.TableOptions, after: engine.TableOptions) -> str:
    changed = _changes(table, after, before)
    if not changed:
        return ""
    # Translators: {rules}: the house rules that changed, each a sentence, joined by "; ".
    if table.pending_options is not None:
        return _("From the next hand: {rules}.", rules="; ".join(changed))
    return _("House rules now: {rules}.", rules="; ".join(changed))


def flags_offered(table: engine.Table) -> tuple[str, ...]:
    """The on/off house rules the Settings panel offers at ``table``: those that matter in
    its game, less the tournaments' rule of blinding off absent players."""
    return tuple(n for n in _offered(_latest(table)) if n in _FLAGS)


def _offered(config: engine.TableConfig) -> list[str]:
    # Blinding off players who sit out is the tournaments' rule: a cash table never sets it.
    return [n for n in config.applicable_options() if n != "blind_off_absent"]


def _changes(
    table: engine.Table, options: engine.TableOptions, since: engine.TableOptions
) -> list[str]:
    """The lines of the rules of ``options`` that differ from ``since``."""
    names = _offered(replace(table.config, options=options))
    return [_line(table, options, n) for n in names if getattr(options, n) != getattr(since, n)]


def _line(table: engine.Table, options: engine.TableOptions, name: str) -> str:
    value = getattr(options, name)
    if name == "newcomers" and value is None:
        # The game's own default (dealer's edge makes newcomers wait): the engine's to say.
        value = engine.Table(replace(table.config, options=options)).newcomer_rule
    return describe(name, value)


def _latest(table: engine.Table) -> engine.TableConfig:
    """The configuration with the latest house rules: a change waiting for the next deal
    counts, so a second change builds on the first."""
    return replace(table.config, options=table.next_options)


def components(table_id: int, table: engine.Table) -> Components:
    """The selects that change ``table``'s house rules (for its creator): the on/off rules
    (those on are selected), how newcomers join, and the draw limit where it matters."""
    config = _latest(table)
    options = config.options
    ui = Components()
    flags = flags_offered(table)
    ui.add_item(
        PokerSelect(
            RulesSelect(table_id, "flags").encode(),
            [
                discord.SelectOption(
                    label=str(_FLAGS[n][0])[:100], value=n, default=getattr(options, n)
                )
                for n in flags
            ],
            # Translators: the placeholder of the settings menu of on/off house rules.
            placeholder=_("House rules that are on")[:150],
            min_values=0,
            max_values=len(flags),
            row=0,
        )
    )
    rule = engine.Table(config).newcomer_rule
    ui.add_item(
        PokerSelect(
            RulesSelect(table_id, "newcomers").encode(),
            [
                discord.SelectOption(label=str(label)[:100], value=v, default=v == rule)
                for v, label in _NEWCOMER_OPTIONS.items()
            ],
            row=1,
        )
    )
    if "draw_limit" in config.applicable_options():
        limit = options.draw_limit or engine.DRAW_FOUR_WITH_ACE
        ui.add_item(
            PokerSelect(
                RulesSelect(table_id, "draw").encode(),
                [
                    discord.SelectOption(
                        label=_draw_text(each)[:100], value=key, default=each == limit
                    )
                    for key, each in DRAW_LIMITS.items()
                ],
                row=2,
            )
        )
    return ui


def requested(
    base: engine.TableOptions,
    *,
    newcomers: object = None,
    draw_limit: object = None,
    diablo_cap: object = None,
    **flags: object,
) -> engine.TableOptions | None:
    """``base`` with the options a user sent (``None``: left out); ``None`` when none was.

    Flags go by their :class:`engine.TableOptions` name (``muck_losers``, ...). A
    ``diablo_cap`` of 0 removes the cap.
    """
    changes: dict[str, Any] = {}
    for name, value in flags.items():
        if value is not None:
            if name not in _FLAGS:
                raise TypeError(f"{name} is not a house rule")
            changes[name] = validation.check_flag(value, validation.option(name))
    if newcomers is not None:
        # Translators: the subject of a refusal: "Newcomers is one of play, wait, post."
        what = _("Newcomers")
        changes["newcomers"] = validation.check_choice(newcomers, what, tuple(NEWCOMERS))
    if draw_limit is not None:
        what = _("The draw limit")
        key = validation.check_choice(draw_limit, what, tuple(DRAW_LIMITS))
        changes["draw_limit"] = DRAW_LIMITS[key]
    if diablo_cap is not None:
        cap = validation.DIABLO_CAP.check(diablo_cap)
        changes["diablo_cap"] = cap or None
    return replace(base, **changes) if changes else None

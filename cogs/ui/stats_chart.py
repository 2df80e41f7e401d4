"""The ``/stats`` picture: a member's bankroll over time and their net per game, as a PNG.

Drawn with Pillow (already used for the card pictures, :mod:`cogs.ui.card_images`) in the same
palette and font (:func:`cogs.ui.card_images.font`: an installed font that writes every
shipped language, else Pillow's own), so nothing is downloaded. The picture
is drawn 640 pixels wide with large type because a phone shows it at less than half that.
Chips are play money: amounts are plain numbers of chips, never a currency.

Every word a player reads here (in the picture, its description for screen readers and the
embed's text) is in :data:`STATS_TEXTS`, messages of the cogs' catalogue with named
placeholders filled by :func:`say` in the reader's language (the current one: the picture is
drawn in a thread that inherits it, or ``language=``); numbers and month names are written
the language's way by Babel.
"""

from __future__ import annotations

import datetime
import io
import time
from collections.abc import Mapping, Sequence
from typing import Final

import discord
from babel.dates import format_date
from babel.numbers import format_decimal
from PIL import Image, ImageDraw, ImageFont

from cogs import kit
from cogs.translator import _
from cogs.ui.card_images import GOLD, WHITE, font
from data import BankrollPoint, GameNet, StatsHistory
from engine import get_variant
from i18n import Language, LazyPlural, LazyString, current_language, speaking
from i18n.engine_text import engine_text, variant_name

__all__ = [
    "CHART_FILE",
    "MAX_GAMES",
    "STATS_TEXTS",
    "by_game_lines",
    "chart_description",
    "chart_file",
    "has_chart",
    "render_stats_chart",
    "say",
    "show_chart",
]

STATS_TEXTS: Final[Mapping[str, LazyString | LazyPlural]] = {
    # Translators: the /stats picture's two parts (titles drawn on the picture).
    "bankroll_title": _.lazy("Bankroll"),
    "bankroll_now": _.lazy_plural("now {count} chip", "now {count} chips"),
    "bankroll_note": _.lazy("chips not on a table"),
    "games_title": _.lazy("Net per game"),
    "games_hands": _.lazy_plural("{count} hand", "{count} hands"),
    # Translators: the games part counts only the newest {count} hands of a long history.
    "games_newest": _.lazy_plural("newest {count} hand", "newest {count} hands"),
    "game_row_hands": _.lazy_plural("{count} hand", "{count} hands"),
    "more_games": _.lazy_plural("and {count} more game", "and {count} more games"),
    # Translators: the picture's description (alt text); {games}: each game's net, or the
    # sentence saying there is none.
    "description": _.lazy("Bankroll from {first} to {last} chips. {games}"),
    "description_game": _.lazy("{name}: {net} chips in {hands}"),
    "description_no_games": _.lazy("No cash-game hands counted."),
    "field_by_game": _.lazy("Net per game"),
    "field_line": _.lazy("{name}: **{net}** ({hands})"),
    "field_more": kit.MORE_LINES,
}
"""The words of the picture and its texts (plural ones take ``count``)."""


def say(key: str, *, language: Language | None = None, **values: object) -> str:
    """The text ``key`` with its placeholders filled (``count`` for a plural one).

    >>> say("bankroll_now", count=1250)
    'now 1,250 chips'
    """
    text = STATS_TEXTS[key]
    if isinstance(text, LazyPlural):
        count = values.pop("count")
        assert isinstance(count, int)
        return text.render(count, language, **values)
    return text.render(language, **values)


CHART_FILE: Final = "stats.png"
"""The attachment's name: the embed shows it as ``attachment://stats.png``."""

MAX_GAMES: Final = 8
"""Games drawn as bars (those with the most hands); the others are counted under them."""

WIDTH: Final = 640
PAD: Final = 24

# The card pictures' gold and white on Discord's dark embed grey; the green and red are lifted
# a little so bars stay distinct on the dark ground.
GROUND = (43, 45, 49)
PANEL = (49, 51, 56)
GRID = (78, 80, 88)
MUTED = (170, 174, 182)
GOLD_FILL = (*GOLD, 60)
WIN = (46, 160, 95)
LOSS = (220, 60, 70)

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _chips(amount: int) -> str:
    return format_decimal(amount, locale=current_language().locale)


def _signed(amount: int) -> str:
    return f"+{_chips(amount)}" if amount > 0 else f"-{_chips(-amount)}" if amount else "0"


def _short(amount: int) -> str:
    """Axis labels: ``950``, ``12.5k``, ``3M`` (a phone has no room for ``12,500,000``)."""
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    for size, unit in ((1_000_000, "M"), (1_000, "k")):
        if a >= size:
            text = f"{a / size:.1f}".removesuffix(".0")
            return f"{sign}{text}{unit}"
    return f"{sign}{a}"


def _nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` gridlines."""
    raw = max(span / ticks, 1.0)
    power = 10 ** int(f"{raw:e}".split("e")[1])
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return int(10 * power)


def _date(at: float, same_day: bool) -> str:
    t = time.gmtime(at)
    if same_day:
        return f"{t.tm_hour:02d}:{t.tm_min:02d}"
    # The day and the month's short name, in the language's order ("5 Jan", "5. Jan.").
    day = datetime.date(t.tm_year, t.tm_mon, t.tm_mday)
    return format_date(day, "d MMM", locale=current_language().locale)


def _game_name(game: GameNet) -> str:
    """The game's name in the reader's language: the catalogue's, or the stored one for a
    game gone from it and for a dealer's choice (its table's variant, another game's name)."""
    try:
        variant = get_variant(game.variant)
    except ValueError:
        return engine_text(game.name)
    return variant_name(variant) if variant.name == game.name else engine_text(game.name)


def _hands(hands: int) -> str:
    return say("game_row_hands", count=hands)


def _text_width(draw: ImageDraw.ImageDraw, text: str, font: Font) -> float:
    return draw.textlength(text, font=font)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Font, room: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``room``."""
    if _text_width(draw, text, font) <= room:
        return text
    while text and _text_width(draw, text + "…", font) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _shown_games(games: Sequence[GameNet]) -> tuple[list[GameNet], int]:
    """The games drawn (the most played, in the history's order) and how many are left out."""
    kept = set(sorted(games, key=lambda g: (-g.hands, g.name))[:MAX_GAMES])
    return [g for g in games if g in kept], max(0, len(games) - MAX_GAMES)


# ------------------------------------------------------------------------------- the picture

BANKROLL_H: Final = 280
ROW_H: Final = 84
TITLE, TEXT, SMALL = 42, 33, 30
"""Type sizes: a phone shows the 640-pixel picture about 300 points wide, so 30 pixels read as
14-point text."""


def render_stats_chart(history: StatsHistory, *, language: Language | None = None) -> bytes:
    """The PNG: the bankroll line above, a bar per game below. Needs at least one bankroll
    point; call it off the event loop (``asyncio.to_thread`` keeps the current language). Its
    words are in ``language``, the reader's (default: the current one)."""
    with speaking(language or current_language()):
        return _render_stats_chart(history)


def _render_stats_chart(history: StatsHistory) -> bytes:
    if not history.bankroll:
        raise ValueError("a stats chart needs at least one bankroll point")
    games, more = _shown_games(history.games)
    games_h = 24 + 66 + ROW_H * len(games) + (44 if more else 0) if games else 0
    height = PAD + 116 + BANKROLL_H + 56 + games_h + PAD
    image = Image.new("RGB", (WIDTH, height), GROUND)
    draw = ImageDraw.Draw(image, "RGBA")
    y = PAD
    y = _bankroll(draw, history.bankroll, y)
    if games:
        _games(draw, history, games, more, y + 24)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _bankroll(draw: ImageDraw.ImageDraw, points: Sequence[BankrollPoint], top: int) -> int:
    title, small, axis = font(TITLE), font(SMALL), font(SMALL)
    draw.text((PAD, top), say("bankroll_title"), font=title, fill=WHITE)
    now = say("bankroll_now", count=points[-1].balance)
    big = font(TEXT)
    draw.text((WIDTH - PAD - _text_width(draw, now, big), top + 6), now, font=big, fill=GOLD)
    draw.text((PAD, top + 54), say("bankroll_note"), font=small, fill=MUTED)
    top += 116

    balances = [p.balance for p in points]
    least, most = min(balances), max(balances)
    # From zero, so that a bankroll's size reads from the height; but a bankroll that moved
    # little compared with its size would draw a flat line: then from just under its lowest.
    if least < most / 2:
        least = 0
    step = _nice_step(most - least or max(most, 1) / 4, 4)
    low = least // step * step
    high = max(low + step, -(-most // step) * step)
    values = range(low, high + 1, step)
    # whole figures up to 99,999; beyond, 250k, 1.5M (unless that would say 10k twice)
    labels = [_short(v) for v in values] if high >= 100_000 else []
    if len(set(labels)) < len(values):
        labels = [_chips(v) for v in values]
    label_w = max(_text_width(draw, text, axis) for text in labels)
    left = PAD + int(label_w) + 12
    right = WIDTH - PAD
    bottom = top + BANKROLL_H

    def y_of(value: int) -> float:
        return bottom - (value - low) / (high - low) * BANKROLL_H

    for value, text in zip(values, labels, strict=True):
        gy = y_of(value)
        draw.line((left, gy, right, gy), fill=GRID, width=1)
        w = _text_width(draw, text, axis)
        draw.text((left - 10 - w, gy - 17), text, font=axis, fill=MUTED)

    # Evenly spaced changes rather than a time axis: a night's dozen changes would otherwise
    # crowd into one pixel column between quiet weeks. The dates under it say when.
    n = len(points)
    span = right - left

    def x_of(i: int) -> float:
        return left + (span * i / (n - 1) if n > 1 else span / 2)

    # A bankroll holds its value until the next change: a step line.
    line: list[tuple[float, float]] = [(x_of(0), y_of(balances[0]))]
    for i in range(1, n):
        line.append((x_of(i), y_of(balances[i - 1])))
        line.append((x_of(i), y_of(balances[i])))
    if n == 1:
        line = [(left, line[0][1]), (right, line[0][1])]
    if low == 0:  # shaded down to zero; above a raised floor, shading would read as bars
        draw.polygon([*line, (line[-1][0], bottom), (line[0][0], bottom)], fill=GOLD_FILL)
    # hundreds of steps in 600 pixels would merge into a block with a thick line
    draw.line(line, fill=GOLD, width=4 if n <= 60 else 3 if n <= 150 else 2, joint="curve")
    lx, ly = line[-1]
    draw.ellipse((lx - 7, ly - 7, lx + 7, ly + 7), fill=GOLD, outline=WHITE, width=2)

    same_day = time.gmtime(points[0].at)[:3] == time.gmtime(points[-1].at)[:3]
    ticks = sorted({0, n // 2, n - 1})
    shown: set[str] = set()
    for i in ticks:
        text = _date(points[i].at, same_day)
        if text in shown:  # a night's changes all at 21:04: once is enough
            continue
        shown.add(text)
        w = _text_width(draw, text, axis)
        x = min(max(x_of(i) - w / 2, left), right - w)
        draw.text((x, bottom + 10), text, font=axis, fill=MUTED)
    return bottom + 56


def _games(
    draw: ImageDraw.ImageDraw,
    history: StatsHistory,
    games: Sequence[GameNet],
    more: int,
    top: int,
) -> None:
    title, name_font, value_font, small = font(TITLE), font(TEXT), font(TEXT), font(SMALL)
    draw.line((PAD, top - 14, WIDTH - PAD, top - 14), fill=GRID, width=2)
    draw.text((PAD, top), say("games_title"), font=title, fill=WHITE)
    hands = say("games_newest" if history.capped else "games_hands", count=history.hands)
    draw.text(
        (WIDTH - PAD - _text_width(draw, hands, small), top + 12), hands, font=small, fill=MUTED
    )
    top += 66

    values = [_signed(g.net) for g in games]
    value_w = max(_text_width(draw, v, value_font) for v in values) + 14
    most_loss = max([-g.net for g in games if g.net < 0], default=0)
    most_win = max([g.net for g in games if g.net > 0], default=0)
    # The zero line sits where wins and losses share the width in proportion; each side keeps
    # room for its value label.
    # A side without bars still holds the labels of nets of zero (drawn right of the line).
    evens = any(g.net == 0 for g in games)
    left = PAD + (value_w if most_loss else 0)
    right = WIDTH - PAD - (value_w if most_win or evens else 0)
    total = most_loss + most_win or 1
    zero = left + (right - left) * most_loss / total
    scale = (right - left) / total

    for game, value in zip(games, values, strict=True):
        count = f"  ·  {_hands(game.hands)}"
        room = WIDTH - 2 * PAD - _text_width(draw, count, small)
        name = _fit(draw, _game_name(game), name_font, room)
        draw.text((PAD, top), name, font=name_font, fill=WHITE)
        after = PAD + _text_width(draw, name, name_font)
        draw.text((after, top + 3), count, font=small, fill=MUTED)
        bar_top, bar_bottom = top + 44, top + 70
        draw.line((zero, bar_top - 4, zero, bar_bottom + 4), fill=MUTED, width=2)
        length = abs(game.net) * scale
        colour: RGB = WIN if game.net > 0 else LOSS if game.net < 0 else MUTED
        if game.net >= 0:
            x0, x1 = zero, zero + max(length, 3)
            draw.rounded_rectangle((x0, bar_top, x1, bar_bottom), radius=4, fill=colour)
            draw.text((x1 + 8, bar_top - 5), value, font=value_font, fill=colour)
        else:
            x0, x1 = zero - max(length, 3), zero
            draw.rounded_rectangle((x0, bar_top, x1, bar_bottom), radius=4, fill=colour)
            w = _text_width(draw, value, value_font)
            draw.text((x0 - 8 - w, bar_top - 5), value, font=value_font, fill=colour)
        top += ROW_H
    if more:
        draw.text((PAD, top), say("more_games", count=more), font=small, fill=MUTED)


# ------------------------------------------------------------------------------- the words


def chart_description(history: StatsHistory) -> str:
    """The picture in words (its alt text): where the bankroll went, each game's net."""
    games = " · ".join(
        say("description_game", name=_game_name(g), net=_signed(g.net), hands=_hands(g.hands))
        for g in history.games
    )
    text = say(
        "description",
        first=_chips(history.bankroll[0].balance),
        last=_chips(history.bankroll[-1].balance),
        games=games or say("description_no_games"),
    )
    return text[:1000]  # Discord's longest attachment description is 1,024 characters


def by_game_lines(history: StatsHistory, limit: int = 6) -> str:
    """The embed field under the picture: the same nets as text."""
    lines = [
        say("field_line", name=_game_name(g), net=_signed(g.net), hands=_hands(g.hands))
        for g in history.games[:limit]
    ]
    if len(history.games) > limit:
        lines.append(say("field_more", count=len(history.games) - limit))
    return "\n".join(lines)


# ------------------------------------------------------------------------------- the message


def has_chart(history: StatsHistory) -> bool:
    """Whether there is anything to draw: a game counted, or the bankroll changed at least once
    after it was opened."""
    return bool(history.games) or len(history.bankroll) >= 2


def show_chart(embed: discord.Embed, history: StatsHistory) -> None:
    """Point ``embed`` at the picture (sent with it as :data:`CHART_FILE`) and add its nets
    per game as text under it."""
    embed.set_image(url=f"attachment://{CHART_FILE}")
    if history.games:
        embed.add_field(name=say("field_by_game"), value=by_game_lines(history), inline=False)


def chart_file(png: bytes, history: StatsHistory) -> discord.File:
    """The picture as the attachment the embed shows, described for screen readers."""
    return kit.attachment(png, CHART_FILE, chart_description(history))

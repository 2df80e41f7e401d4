"""Draw a row of playing cards as a small PNG.

Everything is drawn here: the suit symbols are built from circles and polygons, and the only
font is the one bundled inside Pillow (``ImageFont.load_default``), so nothing is downloaded and
no art ships with the project. Messages that carry a picture always carry the same cards as text
too, for screen readers.
"""

from __future__ import annotations

import io
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol, cast

from PIL import Image, ImageDraw, ImageFont

from cogs.ui.showdown_texts import say
from i18n import Language, current_language

log = logging.getLogger(__name__)

CARD_W, CARD_H = 96, 136
GAP = 10
MARGIN = 12
RADIUS = 10

FELT = (22, 94, 58)
PAPER = (250, 250, 246)
EDGE = (60, 60, 60)
RED = (200, 30, 45)
BLACK = (25, 25, 30)
BACK = (40, 70, 160)
GOLD = (214, 170, 40)
# The four-colour deck: clubs and spades (and hearts and diamonds) no longer share a colour,
# which tells them apart on a phone screen where the small suit shapes blur.
BLUE = (30, 90, 200)
CLUB_GREEN = (20, 130, 50)
WHITE = (245, 245, 240)
MUTED = (190, 205, 195)

RGB = tuple[int, int, int]
Draw = ImageDraw.ImageDraw

RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A", 10: "10"}


class CardLike(Protocol):
    """What the renderer needs of a card (``engine.cards.Card`` satisfies it)."""

    @property
    def rank(self) -> int: ...

    @property
    def suit(self) -> str: ...

    @property
    def is_joker(self) -> bool: ...


BUNDLED_FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
"""DejaVu Sans, shipped with the bot (its licence beside it): accents, Polish and Cyrillic
letters on every machine, and the same pixels in tests as in production."""


@lru_cache(maxsize=1)
def font_file() -> str | None:
    """The font the pictures write words with: ``POKER_FONT`` (a path) if set, else the
    bundled DejaVu Sans; ``None`` (Pillow's ASCII-only font) only if neither can be found."""
    chosen = os.environ.get("POKER_FONT")
    if chosen and Path(chosen).is_file():
        return chosen
    if chosen:
        log.warning("POKER_FONT=%s is not a file: the pictures use the bundled font", chosen)
    if BUNDLED_FONT.is_file():
        return str(BUNDLED_FONT)
    log.warning("the bundled font is missing: pictures write ASCII letters only")
    return None


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The pictures' font for words at ``size`` (names, hand names, labels, the charts), in
    every shipped language's letters when such a font is installed (:func:`font_file`)."""
    path = font_file()
    for candidate in dict.fromkeys(p for p in (path, str(BUNDLED_FONT)) if p is not None):
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            log.warning("the font %s could not be read", candidate)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4)
def index_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font, for the cards' indices (A, K, 10: ASCII in every language)."""
    return ImageFont.load_default(size=size)


def _heart(d: Draw, cx: float, cy: float, s: float, fill: RGB) -> None:
    r = s * 0.27
    d.ellipse((cx - 2 * r, cy - s * 0.35, cx, cy - s * 0.35 + 2 * r), fill=fill)
    d.ellipse((cx, cy - s * 0.35, cx + 2 * r, cy - s * 0.35 + 2 * r), fill=fill)
    d.polygon(
        [
            (cx - 2 * r + 1, cy - s * 0.35 + r * 1.3),
            (cx + 2 * r - 1, cy - s * 0.35 + r * 1.3),
            (cx, cy + s * 0.45),
        ],
        fill=fill,
    )


def _diamond(d: Draw, cx: float, cy: float, s: float, fill: RGB) -> None:
    d.polygon(
        [(cx, cy - s * 0.5), (cx + s * 0.36, cy), (cx, cy + s * 0.5), (cx - s * 0.36, cy)],
        fill=fill,
    )


def _club(d: Draw, cx: float, cy: float, s: float, fill: RGB) -> None:
    r = s * 0.2
    for dx, dy in ((0.0, -0.24), (-0.22, 0.06), (0.22, 0.06)):
        x, y = cx + dx * s, cy + dy * s
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    d.polygon([(cx, cy), (cx - s * 0.16, cy + s * 0.48), (cx + s * 0.16, cy + s * 0.48)], fill=fill)


def _spade(d: Draw, cx: float, cy: float, s: float, fill: RGB) -> None:
    r = s * 0.22
    d.polygon(
        [(cx, cy - s * 0.5), (cx + s * 0.44, cy + s * 0.08), (cx - s * 0.44, cy + s * 0.08)],
        fill=fill,
    )
    d.ellipse((cx - 2 * r, cy - r * 0.2, cx, cy + r * 1.8), fill=fill)
    d.ellipse((cx, cy - r * 0.2, cx + 2 * r, cy + r * 1.8), fill=fill)
    d.polygon(
        [(cx, cy + s * 0.05), (cx - s * 0.15, cy + s * 0.5), (cx + s * 0.15, cy + s * 0.5)],
        fill=fill,
    )


_SUIT_SHAPES = {"h": _heart, "d": _diamond, "c": _club, "s": _spade}


def _suit_colour(suit: str, four_colour: bool) -> RGB:
    if four_colour:
        return {"h": RED, "d": BLUE, "c": CLUB_GREEN}.get(suit, BLACK)
    return RED if suit in "hd" else BLACK


def _draw_card(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    card: CardLike | None,
    wild: bool,
    four_colour: bool = False,
    labels: _Labels = ("JOKER", "WILD"),
) -> None:
    box = (x, y, x + CARD_W, y + CARD_H)
    if card is None:
        d.rounded_rectangle(box, RADIUS, fill=BACK, outline=EDGE, width=2)
        d.rounded_rectangle(
            (x + 8, y + 8, x + CARD_W - 8, y + CARD_H - 8), RADIUS - 4, outline=PAPER, width=2
        )
        return
    d.rounded_rectangle(
        box, RADIUS, fill=PAPER, outline=GOLD if wild else EDGE, width=4 if wild else 2
    )
    if card.is_joker:
        d.text(
            (x + CARD_W / 2, y + CARD_H / 2 - 14),
            _fit(d, labels[0], font(20), CARD_W - 10),
            font=font(20),
            fill=RED,
            anchor="mm",
        )
        _star(d, x + CARD_W / 2, y + CARD_H / 2 + 24, 18, GOLD)
        return
    colour = _suit_colour(card.suit, four_colour)
    label = RANK_TEXT.get(card.rank, str(card.rank))
    d.text((x + 8, y + 6), label, font=index_font(26), fill=colour)
    _SUIT_SHAPES[card.suit](d, x + 8 + 11, y + 48, 20, colour)
    _SUIT_SHAPES[card.suit](d, x + CARD_W / 2 + 8, y + CARD_H / 2 + 14, 50, colour)
    if wild:
        d.text(
            (x + CARD_W - 8, y + CARD_H - 6),
            _fit(d, labels[1], font(13), CARD_W - 16),
            font=font(13),
            fill=GOLD,
            anchor="rb",
        )


def _star(d: Draw, cx: float, cy: float, r: float, fill: RGB | int) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    d.polygon(points, fill=fill)


_Labels = tuple[str, str]
"""The words drawn on cards: the joker's label and a wild card's mark, in the picture's
language (tiles are cached per face and per labels)."""


def _labels(language: Language | None) -> _Labels:
    """The card words in ``language`` (default: the current one)."""
    return _labels_in(language or current_language())


@lru_cache(maxsize=16)
def _labels_in(language: Language) -> _Labels:
    # The catalogues are read once at start-up: a language's card words never change.
    return say("joker", language=language), say("picture_wild", language=language)


@dataclass(frozen=True)
class _Face:
    """A card face as the renderer keys its cache (any ``CardLike`` maps to one)."""

    rank: int
    suit: str
    is_joker: bool = False


def _face(card: CardLike) -> _Face:
    return _Face(card.rank, card.suit, card.is_joker)


def _tile(
    face: _Face | None,
    wild: bool,
    four_colour: bool = False,
    labels: _Labels = ("JOKER", "WILD"),
) -> Image.Image:
    """One card drawn on the felt in its exact colours, as a palette image (see
    :func:`_compact`). Drawing costs ~1 ms: pictures paste :func:`_mapped_tile`, made once per
    face from this, and this is drawn again only for a new face or a wild card's band."""
    tile = Image.new("RGB", (CARD_W + 1, CARD_H + 1), FELT)
    _draw_card(ImageDraw.Draw(tile), 0, 0, face, wild, four_colour, labels)
    return _compact(tile)


def _worded(face: _Face | None, wild: bool, labels: _Labels) -> _Labels:
    """``labels`` where the tile writes them (a joker, a wild card), else the default: a plain
    face looks the same in every language, and is cached once for all of them."""
    if wild or (face is not None and face.is_joker):
        return labels
    return ("JOKER", "WILD")


def _compact(tile: Image.Image) -> Image.Image:
    """``tile`` as a palette image of exactly the same pixels, when it has at most 256
    colours (a card's few inks and their anti-aliased edges: under 200). Pillow keeps a
    full-colour pixel in four bytes and a palette one in one: the cached tiles of a deck took
    about 10 MB of a bot's memory in full colour."""
    colours = tile.getcolors(256)
    if colours is None:
        return tile
    inks = [bytes(cast(RGB, colour)) for _, colour in colours]
    index = {ink: i for i, ink in enumerate(inks)}
    raw = tile.tobytes()  # three bytes a pixel (getdata() is going away in Pillow 14)
    out = Image.new("P", tile.size)
    out.putpalette(b"".join(inks))
    out.putdata([index[raw[k : k + 3]] for k in range(0, len(raw), 3)])
    return out


@lru_cache(maxsize=2)
def _palette(four_colour: bool = False) -> Image.Image:
    """A 32-colour palette made once from every face, the back, the joker and a wild border,
    so each picture is mapped to it instead of being quantised on its own."""
    faces: list[tuple[_Face | None, bool]] = [
        (_Face(rank, suit), False) for suit in "shdc" for rank in range(2, 15)
    ]
    faces += [(None, False), (_Face(0, "", True), False), (_Face(2, "h"), True)]
    sheet = Image.new("RGB", ((CARD_W + 1) * len(faces), CARD_H + 1), FELT)
    for i, (face, wild) in enumerate(faces):
        sheet.paste(_tile(face, wild, four_colour), (i * (CARD_W + 1), 0))
    return sheet.quantize(colors=32)


def _mapped_tile(
    face: _Face | None,
    wild: bool,
    four_colour: bool = False,
    labels: _Labels = ("JOKER", "WILD"),
) -> Image.Image:
    """A tile mapped to the shared palette, made once per face: every picture is pasted from
    these (a palette picture as it is; the others convert it)."""
    return _mapped(face, wild, four_colour, _worded(face, wild, labels))


@lru_cache(maxsize=512)
def _mapped(face: _Face | None, wild: bool, four_colour: bool, labels: _Labels) -> Image.Image:
    return (
        _tile(face, wild, four_colour, labels)
        .convert("RGB")
        .quantize(palette=_palette(four_colour), dither=Image.Dither.NONE)
    )


@lru_cache(maxsize=2)
def _palette_values(four_colour: bool = False) -> tuple[int, ...]:
    """The shared palette as Pillow takes it, read once rather than for every picture."""
    return tuple(_palette(four_colour).getpalette() or ())


@lru_cache(maxsize=2)
def _felt_index(four_colour: bool = False) -> int:
    """The palette entry of the felt (a tile's bottom-right pixel lies outside its card)."""
    index = _mapped_tile(None, False, four_colour).getpixel((CARD_W, CARD_H))
    assert isinstance(index, int)
    return index


def render_cards(
    cards: Sequence[CardLike | None],
    *,
    wild: frozenset[CardLike] | set[CardLike] = frozenset(),
    four_colour: bool = False,
    idle: int = 0,
    language: Language | None = None,
) -> bytes:
    """Return a PNG of ``cards`` side by side; ``None`` draws a face-down card.

    Cards in ``wild`` get a gold border. The last ``idle`` cards (the ones that do not play)
    are set apart and faded. Each face is drawn and mapped to one shared 32-colour palette
    once and cached; a picture is the cached tiles pasted on the felt and written with light
    compression (about 0.2 ms and 3-4 KB for five cards: the bot sends one with every private
    hand). A picture with faded cards is drawn in full colour instead (their shades are not in
    the palette). The joker's label and the wild mark are in ``language`` (default: current).
    """
    labels = _labels(language)
    count = max(1, len(cards))
    idle = max(0, min(idle, len(cards)))
    width = MARGIN * 2 + count * CARD_W + (count - 1) * GAP + (IDLE_GAP if idle else 0)
    height = MARGIN * 2 + CARD_H
    if idle:
        image = Image.new("RGB", (width, height), FELT)
    else:
        image = Image.new("P", (width, height), _felt_index(four_colour))
        image.putpalette(_palette_values(four_colour))
    for i, card in enumerate(cards):
        face = None if card is None else _face(card)
        is_wild = card is not None and card in wild
        x = MARGIN + i * (CARD_W + GAP)
        if not idle:
            image.paste(_mapped_tile(face, is_wild, four_colour, labels), (x, MARGIN))
        elif i >= len(cards) - idle and face is not None:
            image.paste(_dim_tile(face, four_colour, labels), (x + IDLE_GAP, MARGIN))
        else:
            image.paste(_mapped_tile(face, is_wild, four_colour, labels), (x, MARGIN))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


@dataclass(frozen=True)
class ShownRow:
    """One hand in a showdown picture: who, what it makes, and what it won (empty: nothing).

    ``cards`` are in reading order (see ``engine.arrange``); ``plays`` says which of them make
    the hand (empty: all do), the others are drawn dimmed and set apart; ``stands_for`` holds,
    for a wild card, the card it plays as (``None`` elsewhere; empty: no wild card).
    """

    name: str
    hand: str
    cards: tuple[CardLike, ...]
    won: str = ""
    plays: tuple[bool, ...] = ()
    stands_for: tuple[CardLike | None, ...] = ()


ROW_NAME = 36
ROW_HAND = 36
ROW_TITLE = ROW_NAME + ROW_HAND
"""The text of a row: the player's name above the cards, the hand's name under them."""
IDLE_GAP = 30
"""The extra room that sets the cards that do not play apart from those that do."""
DIM = 0.55
"""How far a card that does not play fades into the felt."""


def _fit(d: Draw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: int) -> str:
    """``text``, shortened with an ellipsis until it fits ``room`` pixels."""
    if d.textlength(text, font=font) <= room:
        return text
    while text and d.textlength(text + "…", font=font) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _dim_tile(
    face: _Face, four_colour: bool = False, labels: _Labels = ("JOKER", "WILD")
) -> Image.Image:
    """A card that does not play: faded into the felt, still readable. The mapped tile's
    palette is faded rather than its pixels (the same sums, once per colour): cheap enough not
    to be cached."""
    tile = _mapped_tile(face, False, four_colour, labels)
    out = tile.copy()
    out.putpalette(_faded_palette(four_colour))
    return out


@lru_cache(maxsize=2)
def _faded_palette(four_colour: bool = False) -> bytes:
    """The shared palette's colours faded :data:`DIM` of the way into the felt."""
    colours = bytes(_palette_values(four_colour))
    strip = Image.frombytes("RGB", (len(colours) // 3, 1), colours)
    return Image.blend(strip, Image.new("RGB", strip.size, FELT), DIM).tobytes()


@lru_cache(maxsize=64)
def _wild_tile(
    face: _Face,
    stands_for: _Face,
    four_colour: bool = False,
    labels: _Labels = ("JOKER", "WILD"),
    wild_as: str = "as {card}",
) -> Image.Image:
    """A wild card where it plays: gold border, and a gold band naming the card it plays as
    (``wild_as``: the band's words in the picture's language, ``{card}`` the rank)."""
    tile = _tile(face, True, four_colour, labels).convert("RGB")
    d = ImageDraw.Draw(tile)
    top = CARD_H - 30
    d.rounded_rectangle((5, top, CARD_W - 5, CARD_H - 5), 6, fill=GOLD)
    rank = RANK_TEXT.get(stands_for.rank, str(stands_for.rank))
    label = wild_as.format(card=rank)
    band_font = font(19)
    if d.textlength(label, font=band_font) > CARD_W - 34:
        label = rank  # the card it plays as matters more than the words around it
    width = d.textlength(label, font=band_font)
    left = (CARD_W - width - 22) / 2
    d.text((left, top + 13), label, font=band_font, fill=BLACK, anchor="lm")
    if stands_for.suit in _SUIT_SHAPES:
        colour = _suit_colour(stands_for.suit, four_colour)
        _SUIT_SHAPES[stands_for.suit](d, left + width + 12, top + 13, 17, colour)
    return _compact(tile)


def _row_width(row: ShownRow) -> int:
    count = max(1, len(row.cards))
    width = MARGIN * 2 + count * CARD_W + (count - 1) * GAP
    if row.plays and not all(row.plays):
        width += IDLE_GAP
    return width


def render_showdown(
    rows: Sequence[ShownRow], *, four_colour: bool = False, language: Language | None = None
) -> bytes:
    """Return a PNG with one row per hand shown: the player's name (and what they won) above
    the cards, the hand's name under them.

    Rows come in the order given (winners first, from ``cogs.ui.render.shown_rows``); winning
    rows are framed in gold and starred. Cards that do not play are faded and set apart after
    the others; a wild card carries the card it plays as. The picture grows by one row per hand
    shown, so a three-way split shows all three hands (and a high-low split both halves).
    The picture's own words (the joker, the wild marks) are in ``language``, the channel's
    (default: the current one); the rows' texts come already written in it.

    Drawn on the palette of :func:`_showdown_palette` (a few milliseconds, every showdown of
    every table), or in full colour when a wild card plays as another (its band has colours
    of its own).
    """
    language = language or current_language()
    labels = _labels(language)
    # The rank is filled in per card, so the placeholder goes through as a placeholder.
    wild_as = say("picture_wild_as", language=language, card="{card}")
    width = max((_row_width(row) for row in rows), default=_row_width(ShownRow("", "", ())))
    row_h = ROW_TITLE + CARD_H + MARGIN
    height = MARGIN + max(1, len(rows)) * (row_h + MARGIN)
    indexed = all(other is None for row in rows for other in row.stands_for)
    canvas = (_IndexedCanvas if indexed else _Canvas)((width, height), four_colour)
    d = canvas.measure
    name_font, small, hand_font = font(28), font(23), font(26)
    for i, row in enumerate(rows):
        top = MARGIN + i * (row_h + MARGIN)
        winner = bool(row.won)
        left = MARGIN
        if winner:
            canvas.frame((4, top - 6, width - 5, top + row_h - 2))
            canvas.star(MARGIN + 11, top + 14, 13)
            left += 30
        name = _fit(d, row.name, name_font, (width - 2 * MARGIN) // 2)
        canvas.text((left, top), name, name_font, GOLD if winner else WHITE)
        if winner:
            room = width - 3 * MARGIN - left - int(d.textlength(name, font=name_font))
            won = _fit(d, row.won, small, room)
            canvas.text((width - MARGIN, top + 6), won, small, GOLD, anchor="ra")
        x = MARGIN
        card_top = top + ROW_NAME
        for j, card in enumerate(row.cards):
            plays = not row.plays or row.plays[j]
            if not plays and (j == 0 or not row.plays or row.plays[j - 1]):
                x += IDLE_GAP
            stands_for = row.stands_for[j] if j < len(row.stands_for) else None
            if not plays:
                canvas.faded(_face(card), labels, (x, card_top))
            elif stands_for is not None:
                tile = _wild_tile(_face(card), _face(stands_for), four_colour, labels, wild_as)
                canvas.image.paste(tile, (x, card_top))
            else:
                canvas.image.paste(
                    _mapped_tile(_face(card), False, four_colour, labels), (x, card_top)
                )
            x += CARD_W + GAP
        hand = _fit(d, row.hand, hand_font, width - 2 * MARGIN)
        canvas.text((MARGIN, card_top + CARD_H + 5), hand, hand_font, WHITE if winner else MUTED)
    return canvas.png()


_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class _Canvas:
    """A showdown picture drawn in full colour."""

    compress_level = 6

    def __init__(self, size: tuple[int, int], four_colour: bool) -> None:
        self.four_colour = four_colour
        self.image = Image.new("RGB", size, FELT)
        self.draw = ImageDraw.Draw(self.image)
        # Words are measured as they are drawn: with anti-aliasing.
        self.measure = self.draw

    def frame(self, box: tuple[int, int, int, int]) -> None:
        self.draw.rounded_rectangle(box, RADIUS, outline=GOLD, width=4)

    def star(self, cx: int, cy: int, r: int) -> None:
        _star(self.draw, cx, cy, r, GOLD)

    def text(
        self, xy: tuple[int, int], text: str, font: _Font, ink: RGB, anchor: str | None = None
    ) -> None:
        self.draw.text(xy, text, font=font, fill=ink, anchor=anchor)

    def faded(self, face: _Face, labels: _Labels, xy: tuple[int, int]) -> None:
        self.image.paste(_dim_tile(face, self.four_colour, labels), xy)

    def png(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG", optimize=False, compress_level=self.compress_level)
        return out.getvalue()


class _IndexedCanvas(_Canvas):
    """A showdown picture drawn on :func:`_showdown_palette`: the cards pasted as their cached
    palette tiles, each text drawn as a coverage mask and mapped to its ink's shades over the
    felt. The same picture as in full colour (the words' edges rounded to :data:`_INK_STEPS`
    shades) in a quarter of the time and three fifths of the bytes: six rows took 16 ms in
    full colour, 14 of them writing the PNG, and every showdown of every table sends one."""

    compress_level = 3  # an indexed picture is small: a lighter pass costs few bytes

    def __init__(self, size: tuple[int, int], four_colour: bool) -> None:
        self.four_colour = four_colour
        palette, self.faded_from, self.inks = _showdown_palette(four_colour)
        self.image = Image.new("P", size, _felt_index(four_colour))
        self.image.putpalette(palette)
        self.draw = ImageDraw.Draw(self.image)
        self.measure = ImageDraw.Draw(Image.new("L", (1, 1)))

    def frame(self, box: tuple[int, int, int, int]) -> None:
        self.draw.rounded_rectangle(box, RADIUS, outline=self._solid(GOLD), width=4)

    def star(self, cx: int, cy: int, r: int) -> None:
        _star(self.draw, cx, cy, r, self._solid(GOLD))

    def text(
        self, xy: tuple[int, int], text: str, font: _Font, ink: RGB, anchor: str | None = None
    ) -> None:
        left, top, right, bottom = self.measure.textbbox(xy, text, font=font, anchor=anchor)
        if right <= left or bottom <= top:
            return
        # The words' coverage, drawn where they go (whole pixels away: the same pixels), then
        # each covered pixel set to the ink's shade for it.
        mask = Image.new("L", (int(right - left), int(bottom - top)), 0)
        origin = (xy[0] - int(left), xy[1] - int(top))
        ImageDraw.Draw(mask).text(origin, text, font=font, fill=255, anchor=anchor)
        shades = Image.frombytes("P", mask.size, mask.point(_shades(self.inks[ink])).tobytes())
        self.image.paste(shades, (int(left), int(top)), mask.point(_COVERED))

    def faded(self, face: _Face, labels: _Labels, xy: tuple[int, int]) -> None:
        tile = _mapped_tile(face, False, self.four_colour, labels)
        self.image.paste(tile.point(_shifted(self.faded_from)), xy)

    def _solid(self, ink: RGB) -> int:
        return self.inks[ink] + _INK_STEPS - 1


_INK_STEPS = 16
"""The shades of a word's anti-aliased edge on an indexed showdown picture, felt to ink."""
_COVERED = [0] + [255] * 255
"""A coverage mask's lookup table to the pixels it touches at all."""


@lru_cache(maxsize=2)
def _shifted(by: int) -> tuple[int, ...]:
    """A palette tile's lookup table to the same colours ``by`` entries further on (the
    faded copy of the cards' palette), made once rather than for every faded card."""
    return tuple(min(255, index + by) for index in range(256))


@lru_cache(maxsize=8)
def _shades(first: int) -> tuple[int, ...]:
    """A coverage mask's lookup table to the palette's shades of the ink starting at
    ``first``."""
    return (0, *(first + round(v * (_INK_STEPS - 1) / 255) for v in range(1, 256)))


@lru_cache(maxsize=2)
def _showdown_palette(four_colour: bool = False) -> tuple[bytes, int, dict[RGB, int]]:
    """The palette of an indexed showdown picture: the cards' shared palette, the same faded
    (cards that do not play), then each ink of the words in :data:`_INK_STEPS` shades from the
    felt. Returns it with the index where the faded copy starts and where each ink's begin."""
    cards = bytes(_palette_values(four_colour))
    count = len(cards) // 3
    felt = cards[3 * _felt_index(four_colour) : 3 * _felt_index(four_colour) + 3]
    shades = bytearray()
    inks: dict[RGB, int] = {}
    for k, ink in enumerate((WHITE, GOLD, MUTED)):
        inks[ink] = 2 * count + k * _INK_STEPS
        for step in range(_INK_STEPS):
            shades += bytes(
                round(f + (i - f) * step / (_INK_STEPS - 1)) for f, i in zip(felt, ink, strict=True)
            )
    palette = cards + _faded_palette(four_colour) + bytes(shades)
    assert len(palette) <= 3 * 256
    return palette, count, inks

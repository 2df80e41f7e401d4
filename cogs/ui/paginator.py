"""Paginated embeds with Previous/Next buttons that keep working after a bot restart.

A list that spans pages (the leaderboard, the admin log, a table's hand history) is described by
a *kind* and a *key*. A page builder, registered once per kind, turns ``(interaction, key,
offset)`` into a :class:`PageContent` (the embed plus the numbers needed for paging). A button's
custom id carries everything needed to rebuild the next page (the codec
:class:`~cogs.ui.custom_ids.PageId`, ``pg:<kind>:<owner>:<key>:<offset>:<p|n>``), and its press
reaches :func:`turn_page` through the router (:mod:`cogs.routing`) like every other press: no
view stays in memory, and a restarted bot answers clicks on messages sent by the previous
process.

Usage (a cog)::

    from cogs.ui.paginator import PageContent, register_pages, send_paginated

    async def history_page(interaction, key, offset) -> PageContent:
        page = await db.list_hands(int(key), offset=offset, limit=10)
        return PageContent(make_embed(page.items), page.offset, page.limit, page.total)

    async def setup(bot):
        register_pages("history", history_page)
        ...

    await send_paginated(interaction, "history", str(table_id))            # public, anyone pages
    await send_paginated(interaction, "history", str(table_id), ephemeral=True,
                         owner_id=interaction.user.id)                       # only the owner pages

A list whose lines may be too long for ten to a message (the admin log's notes) builds its
page with :func:`fitted_lines`: a page that does not fit is shown in parts, Next and Previous
walking them, so that no line is left out ("Page 1 of 3, part 2 of 2").

A builder may raise :class:`PageRefused` (for example when the clicker lacks a permission): the
clicker gets the reason ephemerally (from the router's one answer to every failure) and the
message is left as it was. Paging answers the click
by editing the message in place (interaction response type 7).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord

from cogs import languages
from cogs.translator import _
from cogs.ui.custom_ids import MAX_PAGE_OFFSET, PAGE_KIND, CustomIdError, PageDirection, PageId
from i18n import speaking
from tables.errors import Refusal

log = logging.getLogger("poker.paginator")

KIND_PATTERN: Final = PAGE_KIND
_KIND_RE: Final = re.compile(rf"^{KIND_PATTERN}$")
MAX_OFFSET: Final = MAX_PAGE_OFFSET

Direction = PageDirection


@dataclass(frozen=True, slots=True)
class PageContent:
    """One rendered page: ``embed`` shows the items ``offset .. offset+limit`` of ``total``.

    A page whose items do not all fit in one message is shown in parts (:func:`fitted_lines`):
    ``shown`` items from ``offset``, the part ``part`` of ``parts`` of the page, and the
    offset of the part before it (``previous``)."""

    embed: discord.Embed
    offset: int
    limit: int
    total: int
    shown: int | None = None
    previous: int | None = None
    part: int = 1
    parts: int = 1

    @classmethod
    def of_lines(cls, embed: discord.Embed, fitted: Fitted, limit: int) -> PageContent:
        """The page of ``fitted`` (its text is already ``embed``'s)."""
        return cls(
            embed,
            fitted.offset,
            limit,
            fitted.total,
            shown=fitted.shown,
            previous=fitted.previous,
            part=fitted.part,
            parts=fitted.parts,
        )

    @property
    def has_previous(self) -> bool:
        return self.offset > 0

    @property
    def has_next(self) -> bool:
        return self.next_offset < self.total

    @property
    def previous_offset(self) -> int:
        if self.previous is not None:
            return self.previous
        return max(0, self.offset - self.limit)

    @property
    def next_offset(self) -> int:
        return self.offset + (self.limit if self.shown is None else self.shown)

    @property
    def page_number(self) -> int:
        """1-based."""
        return self.offset // self.limit + 1

    @property
    def page_count(self) -> int:
        return max(1, -(-self.total // self.limit))

    @property
    def single_page(self) -> bool:
        return self.offset == 0 and self.total <= self.limit and self.parts == 1


@dataclass(frozen=True, slots=True)
class Fitted:
    """The part of a page of lines shown at once (:func:`fitted_lines`): its ``text``, its
    first item's ``offset``, the ``shown`` items in it, the offset of the part before it
    (``previous``; 0 on the first), which ``part`` of how many ``parts`` of its page it is,
    and the ``total`` of items in the list."""

    text: str
    offset: int
    shown: int
    previous: int
    part: int
    parts: int
    total: int


LinesAt = Callable[[int, int], Awaitable[tuple[list[str], int]]]
"""``async def lines_at(offset, limit) -> (lines, total)``: the list's items ``offset ..
offset+limit`` as lines, and how many items the list has."""


def fitting_parts(lines: Sequence[str], room: int, *, sep: str = "\n") -> list[int]:
    """Where each part of ``lines`` begins, when they are shown as few parts as can be, in
    order, each part's lines joined by ``sep`` within ``room`` characters (a line longer than
    ``room`` is a part of its own).

    >>> fitting_parts(["aaaa", "bb", "cc", "dddd"], 6)
    [0, 1, 3]
    >>> fitting_parts(["a" * 9, "bb"], 6)
    [0, 1]
    >>> fitting_parts([], 7)
    []
    """
    starts: list[int] = []
    size = 0
    for index, line in enumerate(lines):
        if starts and size + len(sep) + len(line) <= room:
            size += len(sep) + len(line)
            continue
        starts.append(index)
        size = len(line)
    return starts


def _shown_text(lines: Sequence[str], room: int, sep: str) -> str:
    text = sep.join(lines)
    return text if len(text) <= room else text[: room - 1] + "…"  # one line too long alone


async def fitted_lines(
    lines_at: LinesAt, offset: int, limit: int, room: int, *, sep: str = "\n"
) -> Fitted:
    """The lines of a list to show at ``offset``, ``limit`` items a page: all of the page
    when they fit in ``room`` characters, else the part of it that begins at ``offset``.
    Every item is on exactly one part, whichever way the list is paged: a page is cut into
    parts from its first item (and from ``offset``, if a press from another reader's language
    lands between two parts), so Next and Previous walk the same parts."""
    page = offset // limit * limit
    lines, total = await lines_at(page, limit)
    if not lines:
        return Fitted("", page, 0, max(0, page - limit), 1, 1, total)
    into = min(offset - page, len(lines) - 1)
    before = fitting_parts(lines[:into], room, sep=sep)
    starts = [*before, *(into + s for s in fitting_parts(lines[into:], room, sep=sep))]
    index = len(before)
    end = starts[index + 1] if index + 1 < len(starts) else len(lines)
    if before:
        previous = page + before[-1]
    elif page > 0:
        earlier, _total = await lines_at(page - limit, limit)
        previous = page - limit + (fitting_parts(earlier, room, sep=sep) or [0])[-1]
    else:
        previous = 0
    return Fitted(
        _shown_text(lines[into:end], room, sep),
        page + into,
        end - into,
        previous,
        index + 1,
        len(starts),
        total,
    )


class PageRefused(Refusal):
    """Raised by a page builder: ``str(exc)`` is shown to the clicker, nothing is edited."""


PageBuilder = Callable[[discord.Interaction[Any], str, int], Awaitable[PageContent]]
"""``async def builder(interaction, key, offset) -> PageContent``. ``interaction.client`` is the
bot (use it for the database); ``key`` is the string given to :func:`paginated_message`."""

_BUILDERS: dict[str, PageBuilder] = {}


def register_pages(kind: str, builder: PageBuilder) -> None:
    """Register (or replace) the page builder for ``kind`` (``[a-z][a-z0-9_]{0,19}``).

    The registry is process-wide; builders should reach the bot through ``interaction.client``
    rather than capturing one, so a restarted bot in the same process keeps working.
    """
    if not _KIND_RE.match(kind):
        raise ValueError(f"page kind must match {KIND_PATTERN}, got {kind!r}")
    _BUILDERS[kind] = builder


def registered_kinds() -> frozenset[str]:
    return frozenset(_BUILDERS)


def custom_id(kind: str, owner_id: int, key: str, offset: int, direction: Direction) -> str:
    """The custom_id of a paging button (validated by its codec: a ``ValueError`` says what is
    wrong)."""
    return PageId(kind, owner_id, key, offset, direction).encode()


class PageButton(discord.ui.Button[Any]):
    """Previous (``p``) or Next (``n``): shows the page at ``offset`` of ``kind``/``key``.

    ``owner_id`` 0 lets anyone page; otherwise only that user may. The button keeps no
    callback: its press is routed by custom id to :func:`turn_page`.
    """

    def __init__(
        self,
        kind: str,
        owner_id: int,
        key: str,
        offset: int,
        direction: Direction,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            # Translators: the paging buttons of a list (at most 80 characters).
            label=_("Previous") if direction == "p" else _("Next"),
            emoji="◀️" if direction == "p" else "▶️",
            style=discord.ButtonStyle.secondary,
            custom_id=custom_id(kind, owner_id, key, offset, direction),
            disabled=disabled,
        )


async def turn_page(interaction: discord.Interaction[Any], button: PageId) -> None:
    """Answer a press of Previous or Next by editing the message to the page it names.

    :raises PageRefused: not the list's owner, or the builder refuses (nothing is edited).
    """
    if button.owner and interaction.user.id != button.owner:
        raise PageRefused(_("Only the member who opened this list can turn its pages."))
    if not on_its_list(interaction.message, button):
        # A page button forged onto another message (a table's) would replace it by the list.
        raise PageRefused(_("That button is no longer valid."))
    page = functools.partial(
        paginated_message,
        interaction,
        button.kind,
        button.key,
        button.offset,
        owner_id=button.owner,
    )
    asker = _asker(interaction.message)
    if asker is None or asker == interaction.user.id:
        message = await page()
    else:
        # The list answered the member who asked, in their language: a page turned by
        # someone else stays in it. A refusal is for the presser: built again in theirs.
        language = (await languages.member_languages(interaction.client.db, [asker]))[asker]
        try:
            with speaking(language):
                message = await page()
        except PageRefused:
            message = await page()
    try:
        await interaction.response.edit_message(
            embed=message.embed,
            view=message.view,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not update page %s/%s", button.kind, button.key, exc_info=True)


def _asker(message: discord.Message | None) -> int | None:
    """The member whose command the paged message answered (None if it answered none)."""
    metadata = message.interaction_metadata if message is not None else None
    return metadata.user.id if metadata is not None else None


def on_its_list(message: discord.Message | None, button: PageId) -> bool:
    """Whether ``message`` is a page of the list ``button`` turns (it carries that list's
    Previous/Next buttons)."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            try:
                other = PageId.parse(str(getattr(child, "custom_id", None) or ""))
            except CustomIdError:
                continue
            if (other.kind, other.owner, other.key) == (button.kind, button.owner, button.key):
                return True
    return False


@dataclass(frozen=True, slots=True)
class PaginatedMessage:
    """What to send: the page's embed and its buttons (``view`` is None for a single page)."""

    embed: discord.Embed
    view: discord.ui.View | None
    page: PageContent


def page_view(kind: str, key: str, page: PageContent, *, owner_id: int = 0) -> discord.ui.View:
    """The Previous/Next buttons for ``page`` (disabled at either end)."""
    view = discord.ui.View(timeout=None)
    view.stop()  # never stored by discord.py: the router answers its buttons by custom id
    view.add_item(
        PageButton(kind, owner_id, key, page.previous_offset, "p", disabled=not page.has_previous)
    )
    view.add_item(
        PageButton(
            kind,
            owner_id,
            key,
            min(page.next_offset, MAX_OFFSET),
            "n",
            disabled=not page.has_next,
        )
    )
    return view


async def build_page(
    interaction: discord.Interaction[Any], kind: str, key: str, offset: int = 0
) -> PageContent:
    """Call the builder of ``kind``. An offset past the end (the list shrank since the message
    was sent) shows the last page instead. Raises :class:`PageRefused` for an unknown kind."""
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise PageRefused(_("This list is no longer available."))
    page = await builder(interaction, key, max(0, offset))
    if page.offset > 0 and page.offset >= page.total:
        last = max(0, (page.total - 1) // page.limit * page.limit)
        page = await builder(interaction, key, last)
    return page


async def paginated_message(
    interaction: discord.Interaction[Any],
    kind: str,
    key: str,
    offset: int = 0,
    *,
    owner_id: int | None = None,
) -> PaginatedMessage:
    """Build the page of ``kind``/``key`` at ``offset`` and its buttons.

    ``owner_id`` (None or 0: anyone) restricts paging to one user.
    """
    page = await build_page(interaction, kind, key, offset)
    view = None if page.single_page else page_view(kind, key, page, owner_id=owner_id or 0)
    page.embed.set_footer(text=_footer(page, page.embed.footer.text))
    return PaginatedMessage(page.embed, view, page)


async def send_paginated(
    interaction: discord.Interaction[Any],
    kind: str,
    key: str,
    offset: int = 0,
    *,
    ephemeral: bool = False,
    owner_id: int | None = None,
) -> PaginatedMessage:
    """Answer ``interaction`` with the first page (as a followup if it was deferred).

    Raises :class:`PageRefused` (nothing sent) if the builder refuses.
    """
    message = await paginated_message(interaction, kind, key, offset, owner_id=owner_id)
    extra: dict[str, Any] = {} if message.view is None else {"view": message.view}
    if interaction.response.is_done():
        await interaction.followup.send(
            embed=message.embed,
            ephemeral=ephemeral,
            allowed_mentions=discord.AllowedMentions.none(),
            **extra,
        )
    else:
        await interaction.response.send_message(
            embed=message.embed,
            ephemeral=ephemeral,
            allowed_mentions=discord.AllowedMentions.none(),
            **extra,
        )
    return message


_FOOTER_SEPARATOR: Final = " · "


def _footer(page: PageContent, existing: str | None) -> str:
    if page.parts > 1:
        # Translators: the footer of a page of a list too long for one message, shown in
        # parts ("Page 2 of 3, part 1 of 2").
        where = _(
            "Page {page} of {pages}, part {part} of {parts}",
            page=page.page_number,
            pages=page.page_count,
            part=page.part,
            parts=page.parts,
        )
    else:
        where = _("Page {page} of {pages}", page=page.page_number, pages=page.page_count)
    return f"{where}{_FOOTER_SEPARATOR}{existing}"[:2048] if existing else where

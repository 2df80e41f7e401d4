"""Buttons, selects and modals of a poker table, with state carried in their custom ids.

The router (:mod:`cogs.routing`) answers every component and modal whose custom id starts
with ``pk``, from its ``on_interaction`` listener, by custom id alone: buttons on messages
posted before a restart keep working, and discord.py keeps no view in memory for them. (A
DynamicItem would do the same, but discord.py rebuilds the whole view of the pressed message
for each press, a few percent of the bot's time at a busy table count.) The custom ids are
written and read by the codecs of :mod:`cogs.ui.custom_ids`; :mod:`cogs.ui.panels` builds
the components from the engine's decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

import discord

from cogs.translator import _


class Components(discord.ui.View):
    """The components of one message, to be sent and then forgotten.

    The view is stopped from the start, so discord.py never stores it: presses reach the
    router's ``on_interaction`` listener by custom id.

    A message of buttons alone (the table's, between hands, a player's own panel) gives them
    with :meth:`button`: written as Discord reads them, without discord.py's item objects
    (a button object, its component, the view's bookkeeping), which cost more than the rest of
    the table message's components at every action.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()
        self._buttons: list[tuple[int, dict[str, Any]]] = []

    def add_item(self, item: discord.ui.Item[Any]) -> Components:
        if self._buttons:
            raise ValueError("a view of plain buttons takes no items")
        super().add_item(item)
        # No link back from the item to the view (discord.py's is for callbacks, which a
        # stopped view never runs): without that reference cycle, a sent view is freed at
        # once instead of waiting, often in the oldest generation, for a full collection.
        item._update_view(None)
        return self

    def button(
        self,
        custom_id: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        row: int,
    ) -> Components:
        """Add the button :class:`PokerButton` would make (the same payload, in the same row
        and order), without its objects."""
        if self.children:
            raise ValueError("a view of items takes no plain buttons")
        if len(self._buttons) >= 25:
            raise ValueError("maximum number of children exceeded")
        if not 0 <= row < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        taken = sum(1 for at, _ in self._buttons if at == row) + 1
        if taken > 5:
            raise ValueError(f"item would not fit at row {row} ({taken} > 5 width)")
        # ButtonComponent.to_dict's keys, in its order.
        payload: dict[str, Any] = {"type": 2, "style": style.value, "disabled": False}
        label = label[:80]
        if label:
            payload["label"] = label
        payload["custom_id"] = custom_id
        self._buttons.append((row, payload))
        return self

    def to_components(self) -> list[dict[str, Any]]:
        if not self._buttons:
            return super().to_components()
        # As discord.py lays items out: rows in order, each row's items as they were added.
        ordered = sorted(self._buttons, key=itemgetter(0))
        return [
            {"type": 1, "components": [payload for _, payload in row]}
            for _, row in groupby(ordered, key=itemgetter(0))
        ]


@dataclass(frozen=True, slots=True)
class MessageEditor:
    """Edits a message through a recent interaction's webhook (which Discord does not count
    against the bot's global rate limit) until the interaction's token expires.

    Only the token is kept: holding the interaction itself (the pressed message with its
    embeds and components, the member, ...) for the seconds until the next press made every
    press's objects outlive the young garbage collections, and at hundreds of tables those
    promotions set off a full collection, a pause of 100 ms and more, every few seconds.
    """

    application_id: int
    token: str
    expires_at: datetime

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> MessageEditor:
        return cls(interaction.application_id, interaction.token, interaction.expires_at)

    def is_expired(self) -> bool:
        return discord.utils.utcnow() >= self.expires_at

    def webhook(self, client: discord.Client) -> discord.Webhook:
        """The interaction's webhook: its followups and their edits and deletions."""
        return discord.Webhook.partial(self.application_id, self.token, client=client)

    async def edit(
        self,
        client: discord.Client,
        message_id: int,
        *,
        embed: discord.Embed,
        view: discord.ui.View,
    ) -> None:
        """Edit ``message_id``: the interaction's original message (the one whose component
        was pressed) or one of its followups.

        :raises discord.HTTPException: e.g. NotFound once the message is gone.
        """
        # content=None clears a turn ping carried by the message.
        await self.webhook(client).edit_message(message_id, content=None, embed=embed, view=view)

    async def delete(self, client: discord.Client, message_id: int) -> None:
        """Delete one of the interaction's followups (a turn ping) through its webhook."""
        await self.webhook(client).delete_message(message_id)


class PokerButton(discord.ui.Button[Any]):
    """A poker button; the router parses its custom id."""

    def __init__(
        self,
        custom_id: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            label=label[:80],
            style=style,
            custom_id=custom_id,
            emoji=emoji,
            disabled=disabled,
            row=row,
        )


class PokerSelect(discord.ui.Select[Any]):
    """A string select of a private choice (discards, passes, rollout order)."""

    def __init__(
        self,
        custom_id: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            custom_id=custom_id,
            options=options or [discord.SelectOption(label="…", value="0")],
            placeholder=placeholder[:150] if placeholder else None,
            min_values=min_values,
            max_values=max_values,
            row=row,
        )


class _SentModal(discord.ui.Modal):
    """A form to be sent and then forgotten, like :class:`Components`: stopped once built, so
    discord.py does not keep it (one closed without being sent would stay there for good),
    its submission answered by the router's interaction listener by custom id; and its inputs
    hold no link back to it, so that it is freed as soon as it is sent, not at the garbage
    collector's next full pass."""

    def __init__(self, *, title: str, custom_id: str) -> None:
        super().__init__(title=title, custom_id=custom_id, timeout=None)
        self.stop()

    def add_item(self, item: discord.ui.Item[Any]) -> _SentModal:
        super().add_item(item)
        item._update_view(None)  # see Components.add_item
        return self

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        return None  # handled in cogs.routing (by custom id)


class AmountModal(_SentModal):
    """Asks for a bet or raise amount. Its submission is handled by the router's interaction
    listener (by custom id), so a modal opened before a restart still works."""

    def __init__(self, custom_id: str, title: str, label: str, low: int, high: int) -> None:
        super().__init__(title=title[:45], custom_id=custom_id)
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label[:45],
            custom_id="amount",
            # Translators: a modal's placeholder (at most 100 characters).
            placeholder=_("{low} to {high}", low=low, high=high)[:100],
            min_length=1,
            max_length=12,
        )
        self.add_item(self.amount)


class SitModal(_SentModal):
    """Sit down: the buy-in (prefilled, with the table's range) and a free seat. Submitted to
    the router's interaction listener, like :class:`AmountModal`."""

    def __init__(self, custom_id: str, low: int, high: int, default: int, free: list[int]) -> None:
        # Translators: the sit-down form; its title and labels are at most 45 characters.
        super().__init__(title=_("Sit down")[:45], custom_id=custom_id)
        label = (
            _.plural("Buy-in ({count} chip)", "Buy-in ({count} chips)", count=low)
            if low == high
            else _("Buy-in ({low} to {high} chips)", low=low, high=high)
        )
        self.buy_in: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label[:45],
            custom_id="buy_in",
            default=str(default),
            min_length=1,
            max_length=15,
        )
        shown = ", ".join(str(n) for n in free)
        self.seat: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=_("Seat (blank: the first free one)")[:45],
            custom_id="seat",
            placeholder=_("Free: {seats}", seats=shown)[:100],
            required=False,
            max_length=2,
        )
        self.add_item(self.buy_in)
        self.add_item(self.seat)


class LazyCallbackResponse(discord.InteractionCallbackResponse[Any]):
    """discord.py's answer to an interaction callback, with the message it carries built only
    when asked for.

    discord.py 2.7 asks Discord for the message every callback produced (``with_response``,
    with no way to turn it off) and builds a full ``InteractionMessage`` of it (embeds,
    components, author) at every press: 70-100 µs, about 3 % of a busy bot's CPU time. The bot
    never reads it (``message_id``, which it may read, comes from the callback's other half),
    so the payload is kept and the message built on first use of :attr:`resource`.

    It replaces discord.py's class where discord.py makes one (:func:`install_lazy_responses`),
    which is a patch of internals: ``tests/bot/test_lazy_response.py`` pins what it relies on
    and fails when a discord.py upgrade changes it.
    """

    __slots__ = ("_message_data",)

    def _update(self, data: Any) -> None:
        resource = data.get("resource")
        message = resource.get("message") if resource else None
        self._message_data = data if message is not None else None
        if message is not None:
            # Everything but the message, read as discord.py reads it.
            data = {**data, "resource": {**resource, "message": None}}
        super()._update(data)

    @property
    def resource(self) -> Any:
        data = self._message_data
        if data is not None:
            self._message_data = None
            super()._update(data)  # discord.py's own reading, message and all
        return _RESOURCE.__get__(self)

    @resource.setter
    def resource(self, value: Any) -> None:
        _RESOURCE.__set__(self, value)


_RESOURCE: Any = discord.InteractionCallbackResponse.__dict__["resource"]
"""The slot that holds discord.py's ``resource`` (the property above stands in front of it)."""


def install_lazy_responses() -> None:
    """Make discord.py build :class:`LazyCallbackResponse` for every interaction callback
    (``discord.interactions`` looks the class up by its module-level name at each answer)."""
    import discord.interactions

    discord.interactions.InteractionCallbackResponse = LazyCallbackResponse  # type: ignore[misc]

"""Buttons, selects and modals of a poker table, with state carried in their custom ids.

Every component is a :class:`discord.ui.DynamicItem`, so buttons on messages posted before a
restart keep working: the custom id alone says which table, which moment of the hand and what
to do. The handlers live in the poker cog (``interaction.client.get_cog("Poker")``).

Custom ids (at most 100 characters):

* ``pk:t:{table}:{version}:{verb}`` — table buttons (``version`` = hand and event count, so a
  stale or doubled press is refused);
* ``pk:l:{table}:{verb}`` — lobby buttons (sit, stand, deal, hand, rules);
* ``pk:p:{table}:{hand}:{kind}:{payload}`` — private choices in an ephemeral message;
* ``pks:{table}:{hand}:{kind}:{payload}`` — the selects of those private choices;
* ``pkm:{table}:{version}`` — the bet-amount modal.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord


class Dispatcher(Protocol):
    async def on_component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: list[str]
    ) -> None: ...


def _dispatcher(interaction: discord.Interaction[Any]) -> Dispatcher | None:
    client: Any = interaction.client
    cog: Dispatcher | None = client.get_cog("Poker")
    return cog


class PokerButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pk:(?P<rest>.+)"):
    """Any poker button; the cog parses the rest of the custom id."""

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
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=custom_id,
                emoji=emoji,
                disabled=disabled,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PokerButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match.string,
            (button.label if button and button.label else "…"),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _dispatcher(interaction)
        if handler is not None:
            await handler.on_component(interaction, self.item.custom_id or "", [])


class PokerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pks:(?P<rest>.+)"):
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
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="…", value="0")],
                placeholder=placeholder[:150] if placeholder else None,
                min_values=min_values,
                max_values=max_values,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PokerSelect:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = _dispatcher(interaction)
        if handler is not None:
            data: Any = interaction.data or {}
            values = [str(v) for v in data.get("values", [])]
            await handler.on_component(interaction, self.item.custom_id or "", values)


class AmountModal(discord.ui.Modal):
    """Asks for a bet or raise amount. Its submission is handled by the cog's interaction
    listener (by custom id), so a modal opened before a restart still works."""

    def __init__(self, custom_id: str, title: str, label: str, low: int, high: int) -> None:
        super().__init__(title=title[:45], custom_id=custom_id, timeout=None)
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label[:45],
            custom_id="amount",
            placeholder=f"{low:,} to {high:,}"[:100],
            min_length=1,
            max_length=12,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        # Handled in Poker.on_interaction (by custom id) so it survives restarts.
        return None

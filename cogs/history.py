"""Hand history: /poker history, /poker hand (being built)."""

from __future__ import annotations

from typing import Any

import discord


async def send_history(interaction: discord.Interaction[Any], table_id: int) -> None:
    await interaction.response.send_message("Hand history is not available yet.", ephemeral=True)


async def send_hand(interaction: discord.Interaction[Any], hand_id: int, *, with_phh: bool) -> None:
    await interaction.response.send_message("Hand replay is not available yet.", ephemeral=True)

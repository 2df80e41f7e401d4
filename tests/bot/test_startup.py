"""The real bot logs in to the emulator, opens its database and syncs its commands."""

from pathlib import Path


async def test_bot_starts_and_creates_database(poker_bot, emu, db_path: Path) -> None:
    bot = await poker_bot()
    assert bot.is_ready()
    assert db_path.exists()
    assert await bot.db.schema_version() >= 1
    assert emu.command_syncs, "the bot never synced its application commands"

"""Shared fixtures.  The Discord emulator's fixtures (emu, world, start_bot, bot_process) come
from tests/emulator/plugin.py; see tests/emulator/README.md."""

pytest_plugins = ["tests.emulator.plugin"]

"""Shared fixtures.  The Discord emulator's fixtures (emu, world, start_bot, bot_process) come
from tests/emulator/plugin.py; see tests/emulator/README.md.

The thousand-hand self-play of house players (``tests/house_selfplay.py``) starts here, in a
background process, as soon as its test is collected: it runs on the core the bot tests leave
idle, and ``tests/engine/test_house_selfplay.py`` waits for its figures.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest_plugins = ["tests.emulator.plugin"]

ROOT = Path(__file__).resolve().parent.parent
SELFPLAY_TEST = "tests/engine/test_house_selfplay.py"
SELFPLAY_HANDS = 1000


class SelfPlay:
    """The background run: its process and the file its JSON lines go to."""

    def __init__(self, hands: int) -> None:
        self.hands = hands
        self.output = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed at the session's end)
            prefix="house-selfplay-", suffix=".jsonl", delete=False
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.house_selfplay", "--hands", str(hands), "--nice", "5"],
            cwd=ROOT,
            stdout=self.output,
            stderr=subprocess.STDOUT,
        )

    def text(self) -> str:
        return Path(self.output.name).read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.output.close()
        Path(self.output.name).unlink(missing_ok=True)


SELFPLAY = pytest.StashKey[SelfPlay]()


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    if any(item.nodeid.startswith(SELFPLAY_TEST) for item in session.items):
        session.config.stash[SELFPLAY] = SelfPlay(SELFPLAY_HANDS)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(SELFPLAY, None)
    if run is not None:
        run.stop()

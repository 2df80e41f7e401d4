"""Shared fixtures.  The Discord emulator's fixtures (emu, world, start_bot, bot_process) come
from tests/emulator/plugin.py; see tests/emulator/README.md.

The thousand-hand self-play of house players (``tests/house_selfplay.py``) starts here, in a
background process, as soon as its test is collected: it runs on the core the bot tests leave
idle, and ``tests/engine/test_house_selfplay.py`` waits for its figures.
"""

from __future__ import annotations

import os
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
    """The background run: its output file, and its process in the pytest process that
    started it. Under pytest-xdist every worker collects every test, but only the first to
    claim the run's lock file starts the process; the test, on whichever worker it runs, reads
    the shared file until the run says it is finished."""

    def __init__(self, hands: int) -> None:
        self.hands = hands
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"solo-{os.getpid()}"
        folder = Path(tempfile.gettempdir())
        self.path = folder / f"house-selfplay-{run}.jsonl"
        self.proc: subprocess.Popen[bytes] | None = None
        try:
            claim = os.open(folder / f"house-selfplay-{run}.lock", os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            return  # another worker of this run plays the hands
        os.close(claim)
        with self.path.open("wb") as output:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.house_selfplay",
                    "--hands",
                    str(hands),
                    "--nice",
                    "5",
                ],
                cwd=ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    def text(self) -> str:
        return self.path.read_text() if self.path.exists() else ""

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.path.unlink(missing_ok=True)
        self.path.with_suffix(".lock").unlink(missing_ok=True)


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

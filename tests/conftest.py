"""Shared fixtures.  The Discord emulator's fixtures (emu, world, start_bot, bot_process) come
from tests/emulator/plugin.py; see tests/emulator/README.md.

The thousand-hand self-play of house players (``tests/house_selfplay.py``) starts here, in a
background process, as soon as its test is collected: it runs on the core the bot tests leave
idle, and ``tests/engine/test_house_selfplay.py`` plays the games it has not begun yet, then
waits for its figures.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest_plugins = ["tests.emulator.plugin"]

ROOT = Path(__file__).resolve().parent.parent
SELFPLAY_TEST = "tests/engine/test_house_selfplay.py"
SELFPLAY_HANDS = 1000
SELFPLAY_SEED = 1


class SelfPlay:
    """The background run: a folder where it and the test claim games and where it writes its
    lines, and its process in the pytest process that started it. Under pytest-xdist every
    worker collects every test, but only the first to create the folder starts the process
    (and writes its pid there); the test, on whichever worker it runs, plays the games left
    unclaimed itself, then reads the run's lines until it says it is finished and removes the
    folder. The worker that started the run lets it finish when its own tests are done: the
    test may still be waiting on another worker (it only stops the run at once when the
    session is cut short)."""

    def __init__(self, hands: int) -> None:
        self.hands = hands
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"solo-{os.getpid()}"
        self.claims = Path(tempfile.gettempdir()) / f"house-selfplay-{run}"
        self.path = self.claims / "background.jsonl"
        self.pid = self.claims / "pid"
        self.proc: subprocess.Popen[bytes] | None = None
        try:
            self.claims.mkdir()
        except FileExistsError:
            return  # another worker of this run started the process
        with self.path.open("wb") as output:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.house_selfplay",
                    "--hands",
                    str(hands),
                    "--seed",
                    str(SELFPLAY_SEED),
                    "--claims",
                    str(self.claims),
                    "--nice",
                    "5",
                ],
                cwd=ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        self.pid.write_text(str(self.proc.pid))

    def text(self) -> str:
        return self.path.read_text() if self.path.exists() else ""

    def running(self) -> bool:
        """Whether the run's process still plays, whichever worker started it."""
        if self.proc is not None:
            return self.proc.poll() is None
        try:
            pid = int(self.pid.read_text())
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, ValueError, IndexError):
            # No pid yet (the starting worker is between its two writes) or no /proc: assume
            # it plays; the test's deadline still holds.
            return self.claims.exists()
        return state != "Z"  # an ended child its worker has not reaped yet

    def consume(self) -> None:
        """The figures were read: the files can go."""
        shutil.rmtree(self.claims, ignore_errors=True)

    def stop(self, *, abandon: bool) -> None:
        if self.proc is None:
            return
        if abandon:
            self.proc.kill()
            self.consume()
        self.proc.wait()


SELFPLAY = pytest.StashKey[SelfPlay]()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: half as many workers again as there are cores. The emulator tests spend
    much of their time waiting (on a restarted bot, a timer, a retry after a 429): with one
    worker per core, CI's two cores stood idle close to half the time, and a fourth worker
    on them gained nothing over a third. xdist's own variable still decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    return cores + cores // 2


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    if any(item.nodeid.startswith(SELFPLAY_TEST) for item in session.items):
        session.config.stash[SELFPLAY] = SelfPlay(SELFPLAY_HANDS)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = session.config.stash.get(SELFPLAY, None)
    if run is not None:
        cut_short = bool(session.shouldstop) or exitstatus == pytest.ExitCode.INTERRUPTED
        run.stop(abandon=cut_short)

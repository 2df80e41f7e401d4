"""The table service is Discord-free: every module of :mod:`tables` imports without discord.

Each module is imported in a fresh interpreter, so that nothing imported earlier in the test
run (the bot's own modules) hides an import of discord.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import tables

MODULES = sorted(["tables", *(f"tables.{m.name}" for m in pkgutil.iter_modules(tables.__path__))])


def test_every_module_is_listed() -> None:
    assert {"tables.service", "tables.records", "tables.clock", "tables.live"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_imports_no_discord(module: str) -> None:
    probe = f"import sys, {module}\nassert 'discord' not in sys.modules, 'imports discord'"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"{module}: {run.stderr.strip().splitlines()[-1:]}"

"""The documentation's pictures are made by playing through the real bot
(``docs/pictures/make.py``). Nothing else runs that script, so a change of the table's
controls could break it unseen until the pictures are next refreshed: it runs here, as JSON
only (the rendering needs Chromium and the preview tool, which CI does not have)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent.parent
SCENES = ("table", "timebank", "draw", "showdown", "result", "lobby")


def test_the_pictures_script_captures_every_scene(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "docs/pictures/make.py"),
            "--json-only",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    scenes = {name: orjson.loads((tmp_path / f"{name}.json").read_bytes()) for name in SCENES}
    draw = scenes["draw"]["messages"][0]
    assert draw["ephemeral"]
    assert any(f["name"].startswith("Coach") for f in draw["embeds"][0]["fields"]), draw
    showdown = scenes["showdown"]["messages"][0]
    assert showdown["attachments"], "the showdown picture is missing"
    for scene in scenes.values():
        for message in scene["messages"]:
            for attachment in message["attachments"]:
                assert (tmp_path / attachment["path"]).stat().st_size > 0, attachment

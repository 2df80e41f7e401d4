"""What a test saw, written for a person to look at: messages in the input shape of the
preview tool (``/work/shared/tools/discord_preview.py``, Discord API JSON), with their
attachments beside them.

A test keeps a :class:`Look` and adds each message as it sees it (a message changes after it is
seen: an edited table, a panel); :meth:`Look.write` puts ``MESSAGES.json`` in a folder, and,
when it can, a copy under ``/tmp/look/<name>/`` that outlives pytest's temporary folders.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

LOOK = Path("/tmp/look")


class Look:
    """Messages in the order a test saw them, with their attachments."""

    def __init__(self, caption: str) -> None:
        self.caption = caption
        self.messages: list[dict[str, Any]] = []
        self.files: dict[str, bytes] = {}

    def add(self, where: str, message: Any, *, ephemeral: bool = False) -> None:
        """``message`` as it is now (an emulator message), seen in ``where``."""
        attachments = []
        for attachment in message.attachments:
            # Several versions of a message may carry pictures of the same name.
            name = f"{len(self.messages)}-{attachment.filename}"
            self.files[name] = attachment.data
            attachments.append({"filename": attachment.filename, "path": name})
        embeds = json.loads(json.dumps(message.embeds))
        for embed in embeds:
            # The emulator serves attachments at its own address; the preview reads them
            # beside the JSON, as Discord shows them from the message.
            if "image" in embed and attachments:
                embed["image"] = {"url": f"attachment://{attachments[0]['filename']}"}
        self.messages.append(
            {
                "where": where,
                "author": "Draw Poker",
                "ephemeral": ephemeral or bool(getattr(message, "ephemeral", False)),
                "content": message.content,
                "embeds": embeds,
                "components": json.loads(json.dumps(message.components)),
                "attachments": attachments,
            }
        )

    def write(self, folder: Path, *, name: str | None = None) -> None:
        """``MESSAGES.json`` and the pictures in ``folder``; with ``name``, a copy in
        ``/tmp/look/<name>/`` too (skipped where that cannot be written)."""
        self._write(folder)
        if name is not None:
            with contextlib.suppress(OSError):
                shutil.rmtree(LOOK / name, ignore_errors=True)
                self._write(LOOK / name)

    def _write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for file, data in self.files.items():
            (folder / file).write_bytes(data)
        payload = {"caption": self.caption, "messages": self.messages}
        (folder / "MESSAGES.json").write_text(json.dumps(payload, ensure_ascii=False, indent=1))

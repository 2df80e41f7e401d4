"""The emulator's world: users, guilds, channels, messages, commands, interactions, calls.

Everything is plain data that tests may read directly.  ``to_dict`` methods render the JSON
Discord sends for each object (the shapes discord.py 2.7 parses).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .limits import FLAG_EPHEMERAL, FLAG_LOADING, walk_components

# Permission bits (Discord's values).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5  # "Manage Server"
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_ROLE = DEFAULT_EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS | MANAGE_CHANNELS

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2  # its text chat takes messages, never threads
GUILD_ANNOUNCEMENT = 5  # its threads are announcement threads, never public or private ones
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = {ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD}


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "description": None,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = "2024-01-01T00:00:00.000000+00:00"

    def to_dict(self, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.to_dict(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    # Minutes of inactivity before Discord archives a thread: 60, 1440, 4320 or 10080.
    auto_archive_duration: int = 1440
    created_at: str = "2024-01-01T00:00:00.000000+00:00"
    last_message_id: int | None = None
    message_count: int = 0
    members: set[int] = field(default_factory=set)  # thread members
    deleted: bool = False
    # Discord's permission overwrites, as its API writes them: {"id", "type" (0 role,
    # 1 member), "allow", "deny"} with the bits as strings.
    overwrites: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_dict(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last,
                "flags": 0,
                "recipients": [u.to_dict() for u in self.recipients],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [dict(o) for o in self.overwrites],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
        }
        if self.is_thread:
            data.pop("position")
            data.pop("permission_overwrites")
            data.update(
                {
                    "owner_id": str(self.owner_id),
                    "message_count": self.message_count,
                    "total_message_sent": self.message_count,
                    "member_count": len(self.members),
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.created_at,
                        "locked": self.locked,
                        "create_timestamp": self.created_at,
                        "invitable": True,
                    },
                }
            )
        elif self.type == GUILD_VOICE:
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        else:
            data["topic"] = self.topic
            data["default_thread_rate_limit_per_user"] = 0
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str | None
    data: bytes
    url: str
    description: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        if self.content_type and self.content_type.startswith("image/"):
            size = _png_size(self.data)
            if size:
                data["width"], data["height"] = size
        return data


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


@dataclass
class Message:
    """A message as stored by the emulator (``visible_to`` set: an ephemeral message)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    created_at: str = ""
    edited_at: str | None = None
    deleted: bool = False
    thread_id: int | None = None
    revisions: list[dict[str, Any]] = field(default_factory=list)
    interaction_metadata: dict[str, Any] | None = None
    message_type: int = 0
    # A native poll as Discord stores it (question, answers with ids 1.., expiry, ...) and
    # its votes: answer_id -> the ids of the users who chose it.
    poll: dict[str, Any] | None = None
    poll_votes: dict[int, list[int]] = field(default_factory=dict)
    poll_finalized: bool = False

    # -- reading helpers for tests ----------------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_for(self, user_id: int | None) -> bool:
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    def all_components(self) -> Iterator[dict[str, Any]]:
        """Every component on the message, nested ones included."""
        return walk_components(self.components)

    def component(
        self, *, label: str | None = None, custom_id: str | None = None
    ) -> dict[str, Any] | None:
        """First component whose label or custom_id matches (exact)."""
        for comp in self.all_components():
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if label is None and custom_id is None:
                continue
            return comp
        return None

    def find(self, predicate: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if predicate(c)]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return self.find(lambda c: c.get("type") == 2)

    @property
    def selects(self) -> list[dict[str, Any]]:
        return self.find(lambda c: c.get("type") in (3, 5, 6, 7, 8))

    @property
    def button_labels(self) -> list[str | None]:
        return [b.get("label") for b in self.buttons]

    @property
    def text(self) -> str:
        """Content plus every embed's text and every text display, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
            parts.append((embed.get("author") or {}).get("name") or "")
        parts += [c.get("content") or "" for c in self.all_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.message_type,
            "channel_id": str(self.channel_id),
            "author": self.author.to_dict(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_dict() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.poll is not None:
            data["poll"] = {
                **self.poll,
                "results": {
                    "is_finalized": self.poll_finalized,
                    "answer_counts": [
                        {"id": a["answer_id"], "count": len(voters), "me_voted": False}
                        for a in self.poll["answers"]
                        if (voters := self.poll_votes.get(a["answer_id"], []))
                    ],
                },
            }
        return data


@dataclass
class Command:
    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]
    version: int = 1

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.data)
        perms = self.data.get("default_member_permissions")
        out.setdefault("type", 1)
        out.setdefault("description", "")
        out.setdefault("options", [])
        out.update(
            {
                "id": str(self.id),
                "application_id": str(self.application_id),
                "version": str(self.version),
                "default_member_permissions": None if perms is None else str(perms),
                "nsfw": bool(self.data.get("nsfw", False)),
            }
        )
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


@dataclass
class Failure:
    """Something Discord would show the user as "This interaction failed" (or similar)."""

    kind: str  # "late_response", "no_response", "expired_token", ...
    interaction_id: int | None
    detail: str
    at: float = field(default_factory=time.perf_counter)


@dataclass
class InteractionRecord:
    """One interaction the emulator dispatched, and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: User
    channel: Channel
    guild_id: int | None
    data: dict[str, Any]
    payload: dict[str, Any]
    created_at: float  # emulator clock (seconds since epoch)
    source_message_id: int | None = None  # component interactions, modal submits from one
    parent: InteractionRecord | None = None  # modal submit: the interaction that opened it
    dispatched_perf: float | None = None
    responded_perf: float | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    failure: Failure | None = None
    settled: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE being sent to the bot's callback arriving."""
        if self.dispatched_perf is None or self.responded_perf is None:
            return None
        return self.responded_perf - self.dispatched_perf


@dataclass
class RecordedCall:
    """One REST request the bot made."""

    method: str
    route: str  # template, e.g. "/channels/{channel_id}/messages"
    path: str
    query: dict[str, str]
    body: Any
    files: list[str]
    kind: str  # "interaction_callback", "interaction_webhook", "rest"
    started: float  # time.perf_counter()
    finished: float | None = None
    status: int | None = None
    fault: str | None = None  # set when an injected fault answered this call
    interaction_id: int | None = None
    response: Any = None

    @property
    def key(self) -> str:
        """``"POST /channels/{channel_id}/messages"``."""
        return f"{self.method} {self.route}"

    @property
    def duration(self) -> float | None:
        return None if self.finished is None else self.finished - self.started

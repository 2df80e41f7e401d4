"""The Discord emulator: an aiohttp server with REST under ``/api/v10`` and a gateway websocket.

Usage::

    async with Emulator() as emu:
        world = emu.default_world()
        point_discordpy_at(emu.api_base, emu.gateway_url)
        ...

See ``tests/emulator/README.md`` for the whole API.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import limits
from .drivers import Drivers, UserActionError
from .faults import Faults
from .loopwatch import LoopWatch
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ANNOUNCEMENT_THREAD,
    DEFAULT_BOT_ROLE,
    DEFAULT_EVERYONE,
    DM,
    GUILD_ANNOUNCEMENT,
    GUILD_TEXT,
    GUILD_VOICE,
    MANAGE_GUILD,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Command,
    Failure,
    Guild,
    InteractionRecord,
    Member,
    Message,
    RecordedCall,
    Role,
    User,
)
from .snowflake import Clock, SnowflakeFactory

API_PREFIX = "/api/v10"
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The minutes of inactivity Discord may archive a thread after (``auto_archive_duration``)."""
CALL = web.RequestKey("call", RecordedCall)
PAYLOAD: web.RequestKey[Any] = web.RequestKey("payload", object)
FILES = web.RequestKey("files", list[Attachment])
INTERACTION_DEADLINE = 3.0
IDLE_LOOKS = 3
"""Looks in a row (each a turn of the event loop apart) that :meth:`Emulator.idle` needs."""
IDLE_STEP = 0.005
"""Seconds between two looks of :meth:`Emulator.idle` (one turn of the loop once it has been
quiet long enough)."""
TOKEN_LIFETIME = 15 * 60.0

# Gateway intents (bits).
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Discord's sharding: a server's events go to shard (guild_id >> 22) % shard_count; DMs to
# shard 0.  It suggests a shard per ~1000 servers and refuses an unsharded connection past 2500.
GUILDS_PER_SHARD = 1000
SHARDING_REQUIRED_AT = 2500


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord dispatches ``guild_id``'s events (and interactions) to."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class ApiError(Exception):
    """Raised by handlers; rendered as Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.body = body or {"message": message, "code": code}
        if errors is not None:
            self.body["errors"] = errors


def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (or ``payload_json``), ``{}`` when there is none."""
    body = request[PAYLOAD]
    return body if isinstance(body, dict) else {}


def form_error(errs: limits.FormErrors) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", body=errs.body())


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only parses bodies whose Content-Type is exactly "application/json".
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(status=status, body=json.dumps(data).encode(), headers=all_headers)


@dataclass
class World:
    """The default world: one guild, one text channel, a host with Manage Server, players."""

    guild: Guild
    channel: Channel
    host: User
    players: list[User]

    @property
    def users(self) -> list[User]:
        return [self.host, *self.players]


@dataclass(eq=False)
class GatewaySession:
    id: str
    intents: int
    identified_at: float
    seq: int = 0
    buffer: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    conn: _Connection | None = None
    invalid: bool = False
    resumes: int = 0
    shard: tuple[int, int] | None = None  # (shard_id, shard_count) as IDENTIFIED; None: all

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session is the one (or one of those) a server's events go to."""
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]


@dataclass(eq=False)
class _Connection:
    ws: web.WebSocketResponse
    path: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    session: GatewaySession | None = None
    sender: asyncio.Task[None] | None = None
    received: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class GatewayEvent:
    """Something that happened on the gateway (for tests): identify, resume, close, ..."""

    kind: str
    session_id: str | None
    at: float = field(default_factory=time.perf_counter)
    detail: dict[str, Any] = field(default_factory=dict)


class Emulator(Drivers):
    """A local Discord: REST + gateway + the world model + drivers + recording + faults."""

    def __init__(
        self,
        *,
        token: str = "emulator.bot.token",
        heartbeat_interval_ms: int = 41_250,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_name: str = "PokerBot",
        clock: Clock | None = None,
    ) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.host = host
        self.port = port
        self.clock = clock or Clock()
        self.snowflakes = SnowflakeFactory(self.clock)
        self.faults = Faults()

        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        # Guild scheduled events the bot created (POST /guilds/{id}/scheduled-events), as sent.
        self.scheduled_events: list[dict[str, Any]] = []
        # Users who pressed "Interested" on an event, by event id (see mark_interested).
        self.event_interest: dict[str, list[User]] = {}
        # The allowed_mentions the bot sent with a channel message, by message id.
        self.allowed_mentions: dict[int, dict[str, Any]] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self._dm_by_user: dict[int, int] = {}
        self.global_commands: dict[str, Command] = {}
        self.guild_commands: dict[int, dict[str, Command]] = {}
        self.command_syncs: list[tuple[int | None, float]] = []  # (guild_id, perf time)

        self.interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self.calls: list[RecordedCall] = []
        self.failures: list[Failure] = []
        self.errors: list[RecordedCall] = []  # 4xx/5xx answered by handlers (not injected faults)
        self.unhandled: list[RecordedCall] = []  # requests to routes the emulator lacks
        self.in_flight = 0
        # perf_counter() of the last REST call started or answered, or gateway event sent.
        self.last_activity = 0.0
        self._watch: LoopWatch | None = None

        self.sessions: dict[str, GatewaySession] = {}
        # What GET /gateway/bot answers; None: one shard per GUILDS_PER_SHARD servers.
        self.recommended_shards: int | None = None
        self.max_concurrency = 1
        self.gateway_events: list[GatewayEvent] = []
        self._connections: set[_Connection] = set()
        self._changed = asyncio.Event()

        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.world: World | None = None

        self._runner: web.AppRunner | None = None
        self.app = self._build_app()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> Emulator:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        if self._watch is None:
            self._watch = LoopWatch.attach()
        return self

    async def close(self) -> None:
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._watch is not None:
            self._watch.detach()
            self._watch = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``DISCORD_API_BASE`` / ``discord.http.Route.BASE``."""
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DISCORD_GATEWAY_URL`` / ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway-resume"

    def env(self) -> dict[str, str]:
        """The environment a bot process needs to use this emulator."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ------------------------------------------------------------------ world building
    def add_user(
        self, name: str, *, bot: bool = False, dms_open: bool = True, locale: str = "en-US"
    ) -> User:
        user = User(
            self.snowflakes.next(),
            name,
            global_name=name.title(),
            bot=bot,
            dms_open=dms_open,
            locale=locale,
        )
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server; with ``shard=(shard_id, shard_count)`` its id is chosen so that Discord
        would dispatch it to that shard."""
        gid = self.snowflakes.next()
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"no shard {shard_id} among {count}")
            # A few ms later, and another "process" in the id's low bits: never a collision
            # with the snowflakes the factory hands out next.
            ms = (gid >> 22) + (shard_id - shard_of(gid, count)) % count
            gid = (ms << 22) | (31 << 12) | (len(self.guilds) & 0xFFF)
        owner = owner or self.bot_user
        guild = Guild(gid, name, owner.id, locale=locale)
        guild.roles[gid] = Role(gid, gid, "@everyone", DEFAULT_EVERYONE, 0)
        self.guilds[gid] = guild
        bot_role = self.add_role(guild, self.bot_user.username, DEFAULT_BOT_ROLE)
        guild.members[self.bot_user.id] = Member(
            self.bot_user, gid, [bot_role.id], joined_at=self.clock.iso()
        )
        if owner.id != self.bot_user.id:
            guild.members[owner.id] = Member(owner, gid, [], joined_at=self.clock.iso())
        self._dispatch_soon(
            "GUILD_CREATE", lambda s: self._guild_create(guild, s.intents), guild_id=gid
        )
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.snowflakes.next(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        if self.sessions:
            self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_dict()})
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        roles: Iterable[Role] = (),
        permissions: int | None = None,
        nick: str | None = None,
    ) -> Member:
        """Adds ``user`` to ``guild``; ``permissions`` creates a role with those bits for them."""
        role_ids = [r.id for r in roles]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{user.username}-role", permissions).id)
        member = guild.members.get(user.id)
        if member is None:
            member = Member(user, guild.id, role_ids, nick=nick, joined_at=self.clock.iso())
            guild.members[user.id] = member
            if self.sessions:
                data = {**member.to_dict(), "guild_id": str(guild.id)}
                self.dispatch("GUILD_MEMBER_ADD", data)
        else:
            member.roles.extend(r for r in role_ids if r not in member.roles)
            member.nick = nick or member.nick
            if self.sessions:
                data = {**member.to_dict(), "guild_id": str(guild.id)}
                self.dispatch("GUILD_MEMBER_UPDATE", data)
        return member

    def add_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        return self._add_channel(guild, name, GUILD_TEXT, topic)

    def add_voice_channel(self, guild: Guild, name: str) -> Channel:
        """A voice channel: members post in its text chat; it has no threads."""
        return self._add_channel(guild, name, GUILD_VOICE, None)

    def add_announcement_channel(self, guild: Guild, name: str) -> Channel:
        """An announcement channel: its threads are announcement threads."""
        return self._add_channel(guild, name, GUILD_ANNOUNCEMENT, None)

    def _add_channel(self, guild: Guild, name: str, kind: int, topic: str | None) -> Channel:
        channel = Channel(
            self.snowflakes.next(),
            kind,
            name,
            guild.id,
            position=len(guild.channel_ids),
            topic=topic,
            created_at=self.clock.iso(),
        )
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        guild.channel_ids.append(channel.id)
        if self.sessions:
            self.dispatch("CHANNEL_CREATE", channel.to_dict())
        return channel

    def set_overwrite(
        self, channel: Channel, target: Role | User, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set the channel's permission overwrite for a role or a member (replacing theirs),
        as a moderator would in the channel's settings; the bot is told (CHANNEL_UPDATE).
        Only what the bot reads from its cache follows it: the emulator's own checks of what
        the bot may do use server-wide permissions."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites = [o for o in channel.overwrites if o["id"] != str(target.id)]
        channel.overwrites.append(
            {"id": str(target.id), "type": kind, "allow": str(allow), "deny": str(deny)}
        )
        if self.sessions:
            self.dispatch("CHANNEL_UPDATE", channel.to_dict())

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User | None = None,
        private: bool = False,
        thread_id: int | None = None,
    ) -> Channel:
        owner = owner or self.bot_user
        if parent.type == GUILD_ANNOUNCEMENT:
            kind = ANNOUNCEMENT_THREAD
        else:
            kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = Channel(
            thread_id or self.snowflakes.next(),
            kind,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            created_at=self.clock.iso(),
            members={owner.id},
        )
        self.channels[thread.id] = thread
        self._channel_messages[thread.id] = []
        if self.sessions:
            self.dispatch("THREAD_CREATE", {**thread.to_dict(), "newly_created": True})
        return thread

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive ``thread`` as Discord does after its ``auto_archive_duration`` of
        inactivity (or a moderator does; ``locked``: a moderator also locks it), and tell the
        bot (THREAD_UPDATE). A message sent to it then unarchives it, unless it is locked;
        editing a message in it is refused (400 50083) while it is archived."""
        thread.archived = True
        thread.locked = thread.locked or locked
        self.dispatch("THREAD_UPDATE", thread.to_dict())
        self._notify()

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        cid = self._dm_by_user.get(user.id)
        if cid is not None:
            return self.channels[cid]
        channel = Channel(
            self.snowflakes.next(), DM, recipients=[user], created_at=self.clock.iso()
        )
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        self._dm_by_user[user.id] = channel.id
        return channel

    def default_world(self, players: int = 4) -> World:
        """Guild "Home Game" with #poker, a host holding Manage Server, and ``players`` users."""
        host = self.add_user("host")
        guild = self.add_guild("Home Game", owner=host)
        self.add_member(guild, host, permissions=MANAGE_GUILD)
        channel = self.add_text_channel(guild, "poker")
        names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"]
        people = []
        for i in range(players):
            name = names[i] if i < len(names) else f"player{i}"
            user = self.add_user(name)
            self.add_member(guild, user)
            people.append(user)
        self.world = World(guild, channel, host, people)
        return self.world

    def user_message(self, user: User, channel: Channel, content: str, **fields: Any) -> Message:
        """``user`` posts a message in ``channel`` (the bot gets MESSAGE_CREATE)."""
        if channel.type == DM and channel.recipients[0].id != user.id:
            raise ValueError("users can only post in their own DM channel with the bot")
        guild = self.guild_of(channel)
        if guild is not None and user.id not in guild.members:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        payload = {"content": content, **fields}
        self._validate_new_message(payload, [])
        return self.new_message(channel, user, payload)

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def permissions(self, guild: Guild, user: User) -> int:
        """Base permissions of a member (roles OR-ed, owner and Administrator get everything)."""
        if guild.owner_id == user.id:
            return ALL_PERMISSIONS
        member = guild.members.get(user.id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for rid in member.roles:
            role = guild.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    # ------------------------------------------------------------------ reading (tests)
    def channel_messages(
        self, channel: Channel | int, *, as_user: User | None = None, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in a channel, oldest first, as ``as_user`` sees them (their ephemerals
        included); with ``as_user=None`` only public messages."""
        cid = channel if isinstance(channel, int) else channel.id
        uid = as_user.id if as_user is not None else None
        out = []
        for mid in self._channel_messages.get(cid, []):
            msg = self.messages[mid]
            if msg.deleted and not include_deleted:
                continue
            if msg.visible_to is not None and msg.visible_to != uid:
                continue
            out.append(msg)
        return out

    def latest(self, channel: Channel | int, *, as_user: User | None = None) -> Message | None:
        msgs = self.channel_messages(channel, as_user=as_user)
        return msgs[-1] if msgs else None

    def dms(self, user: User) -> list[Message]:
        """Messages in the DM channel between the bot and ``user``, oldest first."""
        cid = self._dm_by_user.get(user.id)
        return [] if cid is None else self.channel_messages(cid, as_user=user)

    def ephemerals(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Ephemeral messages shown to ``user`` (in ``channel`` if given), oldest first."""
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.visible_to == user.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    def get_message(self, message_id: int) -> Message:
        return self.messages[message_id]

    def threads(self, parent: Channel) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == parent.id and not c.deleted]

    def commands(self, guild: Guild | None = None) -> list[Command]:
        if guild is None:
            return list(self.global_commands.values())
        return list(self.guild_commands.get(guild.id, {}).values())

    # ------------------------------------------------------------------ recording
    def mark(self) -> int:
        """A position in ``calls``; pass it to :meth:`calls_since`."""
        return len(self.calls)

    def calls_since(self, mark: int = 0, *, include_faults: bool = True) -> list[RecordedCall]:
        calls = self.calls[mark:]
        return [c for c in calls if include_faults or c.fault is None]

    def count_calls(self, mark: int = 0) -> dict[str, int]:
        """Calls since ``mark`` by kind: interaction_callback, interaction_webhook, rest."""
        counts = {"interaction_callback": 0, "interaction_webhook": 0, "rest": 0}
        for call in self.calls[mark:]:
            counts[call.kind] = counts.get(call.kind, 0) + 1
        return counts

    def count_routes(self, mark: int = 0) -> dict[str, int]:
        """Calls since ``mark`` by route key (``"POST /channels/{channel_id}/messages"``)."""
        counts: dict[str, int] = {}
        for call in self.calls[mark:]:
            counts[call.key] = counts.get(call.key, 0) + 1
        return counts

    def latencies(self) -> list[float]:
        """Dispatch-to-callback seconds for every answered interaction, in dispatch order."""
        out = []
        for rec in self.interactions.values():
            lat = rec.latency
            if lat is not None:
                out.append(lat)
        return out

    def assert_clean(self) -> None:
        """Fails if any interaction failed or any handler answered an error."""
        problems = [f"{f.kind}: {f.detail}" for f in self.failures]
        problems += [f"{c.status} {c.key}: {c.response}" for c in self.errors]
        if problems:
            raise AssertionError("Discord emulator saw problems:\n" + "\n".join(problems))

    # ------------------------------------------------------------------ waiting
    def _notify(self) -> None:
        self._changed.set()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = 5.0,
        *,
        message: str | None = None,
    ) -> Any:
        """Waits until ``predicate()`` is truthy (re-checked on every emulator change and every
        20 ms); returns its value or raises ``TimeoutError``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(message or f"condition not met within {timeout}s")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    async def idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Waits until the bot has nothing left to do: for ``quiet`` seconds (plus the worst
        lateness of this wait's own wake-ups, on a loaded machine) and at least
        :data:`IDLE_LOOKS` looks in a row, no REST call in flight, started or answered, no
        gateway event sent, and, in this event loop (a bot started with ``start_bot``),
        nothing ready to run, no thread-pool job running and no call counted as work in
        flight (see :mod:`tests.emulator.loopwatch`). Timers (action clocks, heartbeats)
        don't count. A bot in another process is seen by its REST calls and gateway events
        alone."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        looks = 0  # looks in a row that found nothing to do
        calm_since = 0.0  # the last look that found something to do
        lag = 0.0  # the latest a wake-up came, since then
        while True:
            now = time.perf_counter()
            why = f"{self.in_flight} REST call(s) in flight" if self.in_flight else None
            if why is None and self._watch is not None:
                why = self._watch.busy()
            step = IDLE_STEP
            if why is not None:
                looks, calm_since, lag = 0, now, 0.0
            else:
                looks += 1
                if now - max(calm_since, self.last_activity) >= quiet + lag:
                    if looks >= IDLE_LOOKS:
                        return
                    step = 0.0  # quiet long enough: the next turn of the loop is the next look
            if loop.time() >= deadline:
                raise TimeoutError(f"bot still busy after {timeout}s: {why or 'activity'}")
            await asyncio.sleep(step)
            lag = max(lag, time.perf_counter() - now - step)

    # ------------------------------------------------------------------ gateway
    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Sends a DISPATCH to every gateway session that receives it (buffered while
        disconnected): with sharding, only the sessions of the server's shard."""
        guild_id = _event_guild(event, data)
        for session in self.sessions.values():
            if session.invalid or not session.receives(guild_id):
                continue
            if not self._wants(session, event, data):
                continue
            self._send_dispatch(session, event, self._shape_for(session, event, data))

    def _send_dispatch(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        self.last_activity = time.perf_counter()
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append((session.seq, payload))
        if len(session.buffer) > 2000:
            del session.buffer[:500]
        if session.conn is not None:
            session.conn.queue.put_nowait(payload)

    def _dispatch_soon(
        self,
        event: str,
        build: Callable[[GatewaySession], dict[str, Any]],
        *,
        guild_id: int | None = None,
    ) -> None:
        for session in self.sessions.values():
            if not session.invalid and session.receives(guild_id):
                self._send_dispatch(session, event, build(session))

    def shard_of(self, guild: Guild | int | None, shard_count: int) -> int:
        """The shard a server's events go to with ``shard_count`` shards."""
        return shard_of(guild.id if isinstance(guild, Guild) else guild, shard_count)

    def shard_sessions(self, shard_id: int | None = None) -> list[GatewaySession]:
        """Live (not invalidated) sessions, of one shard if ``shard_id`` is given."""
        return [
            s
            for s in self.sessions.values()
            if not s.invalid and (shard_id is None or (s.shard or (0, 1))[0] == shard_id)
        ]

    @property
    def recommended_shard_count(self) -> int:
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self.guilds) // GUILDS_PER_SHARD))

    def _wants(self, session: GatewaySession, event: str, data: dict[str, Any]) -> bool:
        intents = session.intents
        if event.startswith("MESSAGE_"):
            if data.get("guild_id"):
                return bool(intents & INTENT_GUILD_MESSAGES)
            return bool(intents & INTENT_DIRECT_MESSAGES)
        if event.startswith("GUILD_MEMBER"):
            return bool(intents & INTENT_GUILD_MEMBERS)
        if event.startswith(("CHANNEL_", "THREAD_", "GUILD_")):
            return bool(intents & INTENT_GUILDS)
        return True

    def _shape_for(
        self, session: GatewaySession, event: str, data: dict[str, Any]
    ) -> dict[str, Any]:
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE") and not session.intents & (
            INTENT_MESSAGE_CONTENT
        ):
            author = (data.get("author") or {}).get("id")
            if data.get("guild_id") and author != str(self.bot_user.id):
                data = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        return data

    def _guild_create(self, guild: Guild, intents: int) -> dict[str, Any]:
        members = list(guild.members.values())
        if not intents & INTENT_GUILD_MEMBERS:
            members = [m for m in members if m.user.id == self.bot_user.id]
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        threads = [
            c
            for c in self.channels.values()
            if c.guild_id == guild.id and c.is_thread and not c.deleted and not c.archived
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "roles": [r.to_dict() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.to_dict() for c in channels],
            "threads": [t.to_dict() for t in threads],
            "members": [m.to_dict() for m in members],
            "member_count": len(guild.members),
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": guild.members[self.bot_user.id].joined_at,
            "lazy": True,
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
        }

    @property
    def identify_count(self) -> int:
        return sum(1 for e in self.gateway_events if e.kind == "identify")

    @property
    def resume_count(self) -> int:
        return sum(1 for e in self.gateway_events if e.kind == "resumed")

    @property
    def connected(self) -> bool:
        """Whether some gateway session currently has a live connection."""
        return any(s.conn is not None and not s.invalid for s in self.sessions.values())

    def _gateway_event(self, kind: str, session: GatewaySession | None, **detail: Any) -> None:
        self.gateway_events.append(
            GatewayEvent(kind, session.id if session else None, detail=detail)
        )
        self._notify()

    def _live_connections(self, shard: int | None = None) -> list[_Connection]:
        return [
            c
            for c in self._connections
            if c.session is not None
            and not c.ws.closed
            and (shard is None or (c.session.shard or (0, 1))[0] == shard)
        ]

    async def drop_gateway(self, code: int = 4000, *, shard: int | None = None) -> int:
        """Closes every live gateway connection (a network drop as the client sees it: it must
        RESUME), or only those of shard ``shard``.  Events dispatched until it does are
        buffered and replayed.  Returns how many connections were closed."""
        conns = self._live_connections(shard)
        for conn in conns:
            if conn.session is not None:
                conn.session.conn = None
                self._gateway_event("dropped", conn.session, code=code)
            await conn.ws.close(code=code, message=b"emulated disconnect")
        return len(conns)

    async def request_reconnect(self, *, shard: int | None = None) -> None:
        """Sends op 7 RECONNECT on every live connection, or those of shard ``shard`` (the
        client closes and resumes)."""
        for conn in self._live_connections(shard):
            conn.queue.put_nowait({"op": 7, "d": None})

    async def invalidate_session(
        self, resumable: bool = False, *, shard: int | None = None
    ) -> None:
        """Sends op 9 INVALID_SESSION (to every connection, or those of shard ``shard``); with
        ``resumable=False`` the session is gone and the client must IDENTIFY again (it gets a
        fresh READY and GUILD_CREATEs)."""
        for conn in self._live_connections(shard):
            session = conn.session
            assert session is not None
            if not resumable:
                session.invalid = True
            self._gateway_event("invalidated", session, resumable=resumable)
            conn.queue.put_nowait({"op": 9, "d": resumable})

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Connection(ws, request.path)
        self._connections.add(conn)
        conn.sender = asyncio.create_task(self._sender(conn))
        conn.queue.put_nowait({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        self._gateway_event("connect", None, path=request.path, query=dict(request.query))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                conn.received.append(payload)
                await self._on_gateway_message(conn, payload)
        finally:
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._gateway_event("closed", conn.session, code=ws.close_code)
            conn.queue.put_nowait(None)
            self._connections.discard(conn)
        return ws

    async def _sender(self, conn: _Connection) -> None:
        while True:
            payload = await conn.queue.get()
            if payload is None or conn.ws.closed:
                return
            if payload.get("t") == "INTERACTION_CREATE":
                rec = self.interactions.get(int(payload["d"]["id"]))
                if rec is not None and rec.dispatched_perf is None:
                    rec.dispatched_perf = time.perf_counter()
            try:
                await conn.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError):
                return
            if payload.get("op") == 9:
                # Discord closes the socket after an invalid session if the client does not.
                continue

    async def _on_gateway_message(self, conn: _Connection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:
            conn.queue.put_nowait({"op": 11})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 8:
            self._request_members(conn, data or {})
        elif op in (3, 4):
            pass  # presence / voice state: accepted, ignored
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode")

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            self._gateway_event("auth_failed", None)
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        try:
            shard = _shard_field(data.get("shard"))
        except ValueError:
            self._gateway_event("invalid_shard", None, shard=data.get("shard"))
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if shard is None and len(self.guilds) >= SHARDING_REQUIRED_AT:
            self._gateway_event("sharding_required", None)
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        # Sessions of dead connections (a killed bot process) will never resume; a new session
        # for the same servers replaces them. Another process's shard is left alone, even
        # while it is between connections.
        for sid, old in list(self.sessions.items()):
            if (old.conn is None or old.invalid) and _overlap(old.shard, shard):
                del self.sessions[sid]
        session = GatewaySession(
            secrets.token_hex(16), int(data.get("intents", 0)), time.perf_counter(), shard=shard
        )
        self.sessions[session.id] = session
        conn.session = session
        session.conn = conn
        guilds = [g for g in self.guilds.values() if session.receives(g.id)]
        ready = {
            "v": 10,
            "user": {
                **self.bot_user.to_dict(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ["discord-emulator"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        self._send_dispatch(session, "READY", ready)
        for guild in guilds:
            self._send_dispatch(session, "GUILD_CREATE", self._guild_create(guild, session.intents))
        self._gateway_event("identify", session, intents=session.intents, shard=shard)

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalid or data.get("token") != self.token:
            self._gateway_event("resume_rejected", session)
            conn.queue.put_nowait({"op": 9, "d": False})
            return
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        conn.session = session
        session.conn = conn
        client_seq = int(data.get("seq") or 0)
        missed = [p for s, p in session.buffer if s > client_seq]
        for payload in missed:
            conn.queue.put_nowait(payload)
        session.resumes += 1
        self._send_dispatch(session, "RESUMED", {"_trace": ["discord-emulator"]})
        self._gateway_event("resumed", session, replayed=len(missed), path=conn.path)

    def _request_members(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = conn.session
        if session is None:
            return
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            q = str(data["query"]).lower()
            members = [m for m in members if m.user.username.lower().startswith(q)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_dict() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST plumbing
    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        p = API_PREFIX
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get("/gateway-resume", self._gateway)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway_bot)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_get(p + "/users/{user_id}", self._get_user)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        # application commands
        r.add_put(p + "/applications/{application_id}/commands", self._put_commands)
        r.add_get(p + "/applications/{application_id}/commands", self._get_commands)
        r.add_post(p + "/applications/{application_id}/commands", self._post_command)
        r.add_delete(
            p + "/applications/{application_id}/commands/{command_id}", self._delete_command
        )
        r.add_put(
            p + "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands
        )
        r.add_get(
            p + "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands
        )
        r.add_post(
            p + "/applications/{application_id}/guilds/{guild_id}/commands", self._post_command
        )
        r.add_delete(
            p + "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            self._delete_command,
        )
        # channels and messages
        r.add_get(p + "/channels/{channel_id}", self._get_channel)
        r.add_patch(p + "/channels/{channel_id}", self._edit_channel)
        r.add_delete(p + "/channels/{channel_id}", self._delete_channel)
        r.add_get(p + "/channels/{channel_id}/messages", self._list_messages)
        r.add_post(p + "/channels/{channel_id}/messages", self._create_message)
        r.add_get(p + "/channels/{channel_id}/messages/{message_id}", self._get_channel_message)
        r.add_patch(p + "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r.add_delete(p + "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r.add_post(p + "/channels/{channel_id}/typing", self._no_content)
        r.add_put(
            p + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self._no_content,
        )
        r.add_post(p + "/channels/{channel_id}/threads", self._create_thread)
        r.add_post(p + "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r.add_put(p + "/channels/{channel_id}/thread-members/{user_id}", self._thread_member)
        r.add_delete(p + "/channels/{channel_id}/thread-members/{user_id}", self._thread_member)
        # guilds
        r.add_get(p + "/guilds/{guild_id}", self._get_guild)
        r.add_post(p + "/guilds/{guild_id}/scheduled-events", self._create_scheduled_event)
        r.add_patch(
            p + "/guilds/{guild_id}/scheduled-events/{event_id}", self._edit_scheduled_event
        )
        r.add_post(p + "/channels/{channel_id}/polls/{message_id}/expire", self._expire_poll)
        r.add_get(
            p + "/channels/{channel_id}/polls/{message_id}/answers/{answer_id}",
            self._poll_answer_voters,
        )
        r.add_get(p + "/guilds/{guild_id}/scheduled-events/{event_id}", self._get_scheduled_event)
        r.add_get(
            p + "/guilds/{guild_id}/scheduled-events/{event_id}/users", self._scheduled_event_users
        )
        r.add_get(p + "/guilds/{guild_id}/channels", self._get_guild_channels)
        r.add_get(p + "/guilds/{guild_id}/roles", self._get_guild_roles)
        r.add_get(p + "/guilds/{guild_id}/members", self._list_members)
        r.add_get(p + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        # interactions
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self._callback)
        r.add_post(p + "/webhooks/{application_id}/{token}", self._followup)
        r.add_get(
            p + "/webhooks/{application_id}/{token}/messages/{message_id}", self._webhook_message
        )
        r.add_patch(
            p + "/webhooks/{application_id}/{token}/messages/{message_id}", self._webhook_message
        )
        r.add_delete(
            p + "/webhooks/{application_id}/{token}/messages/{message_id}", self._webhook_message
        )
        return app

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        if not path.startswith(API_PREFIX + "/"):
            return await handler(request)
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else path
        route = template[len(API_PREFIX) :] if template.startswith(API_PREFIX) else template
        body, files = await self._read_body(request)
        kind = "rest"
        interaction_id: int | None = None
        if route.startswith("/interactions/"):
            kind = "interaction_callback"
            with contextlib.suppress(ValueError):
                interaction_id = int(request.match_info.get("interaction_id", ""))
        elif route.startswith("/webhooks/"):
            rec = self._interactions_by_token.get(request.match_info.get("token", ""))
            if rec is not None:
                kind = "interaction_webhook"
                interaction_id = rec.id
        call = RecordedCall(
            method=request.method,
            route=route,
            path=path[len(API_PREFIX) :],
            query=dict(request.query),
            body=body,
            files=[f.filename for f in files],
            kind=kind,
            started=time.perf_counter(),
            interaction_id=interaction_id,
        )
        self.calls.append(call)
        self.last_activity = call.started
        request[CALL] = call
        request[PAYLOAD] = body
        request[FILES] = files
        self.in_flight += 1
        try:
            fault = self.faults.take(call)
            if fault is not None and fault.name == "disconnect":
                call.fault = fault.name
                if fault.applied:
                    with contextlib.suppress(ApiError, web.HTTPException):
                        await handler(request)
                # No answer at all: the client's read of the response fails.
                assert request.transport is not None
                request.transport.close()
                raise asyncio.CancelledError
            if fault is not None:
                call.fault = fault.name
                resp: web.StreamResponse = fault.response()
                call.response = fault.body
            elif resource is None or getattr(resource, "canonical", None) is None:
                resp = await handler(request)
                self.unhandled.append(call)
            elif kind == "rest" and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            else:
                resp = await handler(request)
        except ApiError as exc:
            resp = json_response(exc.body, exc.status)
            call.response = exc.body
            self.errors.append(call)
            if kind == "interaction_callback" and interaction_id in self.interactions:
                # Wake a driver waiting on this interaction: the bot's answer was rejected.
                self.interactions[interaction_id].settled.set()
        except web.HTTPException as exc:
            if exc.status == 404:
                self.unhandled.append(call)
            resp = json_response({"message": f"{exc.status}: {exc.reason}", "code": 0}, exc.status)
        finally:
            self.in_flight -= 1
        call.status = resp.status
        call.finished = self.last_activity = time.perf_counter()
        self._notify()
        return resp

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        files: list[Attachment] = []
        if request.method in ("GET", "HEAD") or not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype == "multipart/form-data":
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                raw = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(raw)
                elif name.startswith("files["):
                    index = int(name[len("files[") : -1])
                    files.append(
                        Attachment(
                            id=index,
                            filename=getattr(part, "filename", None) or f"file{index}",
                            content_type=part.headers.get("Content-Type"),
                            data=bytes(raw),
                            url="",
                        )
                    )
            return body, files
        raw_text = await request.text()
        if not raw_text:
            return None, files
        try:
            return json.loads(raw_text), files
        except json.JSONDecodeError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment_id"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        raise web.HTTPNotFound()

    # ------------------------------------------------------------------ REST: basics
    async def _no_content(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {
                **self.bot_user.to_dict(),
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "email": None,
            }
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = self.world.host if self.world else self.bot_user
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": owner.to_dict(),
                "team": None,
                "bot": self.bot_user.to_dict(),
                "rpc_origins": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
                "tags": [],
            }
        )

    def _user(self, raw: Any) -> User:
        try:
            return self.users[int(raw)]
        except (KeyError, ValueError, TypeError):
            raise ApiError(404, 10013, "Unknown User") from None

    async def _get_user(self, request: web.Request) -> web.Response:
        return json_response(self._user(request.match_info["user_id"]).to_dict())

    async def _create_dm(self, request: web.Request) -> web.Response:
        payload = _body(request)
        try:
            user = self.users[int(payload.get("recipient_id") or 0)]
        except (KeyError, ValueError, TypeError):
            raise ApiError(400, 50033, "Invalid Recipient(s)") from None
        if user.id == self.bot_user.id:
            raise ApiError(400, 50007, "Cannot send messages to this user")
        return json_response(self.dm_channel(user).to_dict())

    # ------------------------------------------------------------------ REST: commands
    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("application_id") != str(self.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def _command_bucket(self, request: web.Request) -> tuple[int | None, dict[str, Command]]:
        self._check_app(request)
        gid_raw = request.match_info.get("guild_id")
        if gid_raw is None:
            return None, self.global_commands
        gid = int(gid_raw)
        if gid not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return gid, self.guild_commands.setdefault(gid, {})

    def _validate_command(self, data: Any, errs: limits.FormErrors, path: tuple[Any, ...]) -> None:
        if not isinstance(data, dict):
            errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        name = data.get("name")
        ctype = data.get("type", 1)
        if (
            not isinstance(name, str)
            or not COMMAND_NAME.match(name)
            or (ctype == 1 and name != name.lower())
        ):
            errs.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if ctype == 1:
            desc = data.get("description")
            if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
                errs.add(
                    (*path, "description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
        if len(path) <= 1 and limits.command_size(data) > limits.COMMAND_SIZE:
            # (path: () for one command, (i,) for one of a bulk overwrite; options go deeper)
            errs.add(
                path,
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({limits.COMMAND_SIZE})",
            )
        options = data.get("options") or []
        if len(options) > 25:
            errs.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for i, opt in enumerate(options):
            opath = (*path, "options", i)
            self._validate_command({**opt, "type": 1}, errs, opath)
            if len(opt.get("choices") or []) > 25:
                errs.add(
                    (*opath, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            if opt.get("choices") and opt.get("autocomplete"):
                errs.add(
                    (*opath, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set with choices",
                )

    def _store_command(
        self, gid: int | None, bucket: dict[str, Command], data: dict[str, Any]
    ) -> Command:
        old = bucket.get(data["name"])
        cmd = Command(
            old.id if old else self.snowflakes.next(),
            self.application_id,
            gid,
            data,
            version=(old.version + 1) if old else 1,
        )
        bucket[cmd.name] = cmd
        return cmd

    async def _put_commands(self, request: web.Request) -> web.Response:
        gid, bucket = self._command_bucket(request)
        payload = request[PAYLOAD] or []
        errs = limits.FormErrors()
        if len(payload) > 100:
            errs.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        for i, data in enumerate(payload):
            self._validate_command(data, errs, (i,))
        names = [d.get("name") for d in payload if isinstance(d, dict)]
        if len(set(names)) != len(names):
            errs.add(
                (),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        if errs:
            raise form_error(errs)
        old = dict(bucket)
        bucket.clear()
        out = []
        for data in payload:
            if data["name"] in old:
                bucket[data["name"]] = old[data["name"]]
            out.append(self._store_command(gid, bucket, data).to_dict())
        self.command_syncs.append((gid, time.perf_counter()))
        return json_response(out)

    async def _get_commands(self, request: web.Request) -> web.Response:
        _gid, bucket = self._command_bucket(request)
        return json_response([c.to_dict() for c in bucket.values()])

    async def _post_command(self, request: web.Request) -> web.Response:
        gid, bucket = self._command_bucket(request)
        errs = limits.FormErrors()
        self._validate_command(request[PAYLOAD], errs, ())
        if errs:
            raise form_error(errs)
        existed = request[PAYLOAD]["name"] in bucket
        cmd = self._store_command(gid, bucket, request[PAYLOAD])
        return json_response(cmd.to_dict(), 200 if existed else 201)

    async def _delete_command(self, request: web.Request) -> web.Response:
        _gid, bucket = self._command_bucket(request)
        cid = int(request.match_info["command_id"])
        for name, cmd in list(bucket.items()):
            if cmd.id == cid:
                del bucket[name]
                return web.Response(status=204)
        raise ApiError(404, 10063, "Unknown application command")

    # ------------------------------------------------------------------ REST: guilds
    def _guild(self, request: web.Request) -> Guild:
        try:
            return self.guilds[int(request.match_info["guild_id"])]
        except (KeyError, ValueError):
            raise ApiError(404, 10004, "Unknown Guild") from None

    async def _create_scheduled_event(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        payload = _body(request)
        errs = limits.FormErrors()
        limits._text(errs, ("name",), payload.get("name"), 100, minimum=1, required=True)
        if errs:
            raise form_error(errs)
        kind = payload.get("entity_type")
        if kind not in (1, 2, 3):
            raise ApiError(400, 50035, "Invalid Form Body: entity_type")
        if kind == 3 and not (payload.get("entity_metadata") or {}).get("location"):
            raise ApiError(400, 50035, "Invalid Form Body: an external event needs a location")
        if kind == 3 and not payload.get("scheduled_end_time"):
            raise ApiError(400, 50035, "Invalid Form Body: an external event needs an end time")
        event = {
            "id": str(self.snowflakes.next()),
            "guild_id": str(guild.id),
            "channel_id": payload.get("channel_id"),
            "creator_id": str(self.bot_user.id),
            "creator": self.bot_user.to_dict(),
            "name": payload["name"],
            "description": payload.get("description"),
            "scheduled_start_time": payload.get("scheduled_start_time"),
            "scheduled_end_time": payload.get("scheduled_end_time"),
            "privacy_level": payload.get("privacy_level", 2),
            "status": 1,
            "entity_type": kind,
            "entity_id": None,
            "entity_metadata": payload.get("entity_metadata"),
            "user_count": 0,
        }
        self.scheduled_events.append(event)
        return json_response(event, 200)

    async def _edit_scheduled_event(self, request: web.Request) -> web.Response:
        # Discord's status rules: SCHEDULED -> ACTIVE or CANCELED, ACTIVE -> COMPLETED; a
        # completed or cancelled event cannot be changed any more.
        event = self._scheduled_event(request)
        payload = _body(request)
        if event["status"] in (3, 4):
            raise ApiError(400, 180000, "Cannot modify a finished event")
        if "status" in payload:
            allowed = {1: (1, 2, 4), 2: (2, 3)}[event["status"]]
            if payload["status"] not in allowed:
                raise ApiError(400, 50035, "Invalid Form Body: status")
        if "name" in payload:
            errs = limits.FormErrors()
            limits._text(errs, ("name",), payload.get("name"), 100, minimum=1, required=True)
            if errs:
                raise form_error(errs)
        for key in ("name", "description", "scheduled_start_time", "scheduled_end_time"):
            if key in payload:
                if key == "scheduled_start_time" and event["status"] != 1:
                    raise ApiError(400, 50035, "Invalid Form Body: only a scheduled event moves")
                event[key] = payload[key]
        if "entity_metadata" in payload:
            event["entity_metadata"] = payload["entity_metadata"]
        if "status" in payload:
            event["status"] = payload["status"]
        self.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return json_response(event, 200)

    # ------------------------------------------------------------------ polls
    def vote(self, user: User, message: Message, answer: int | str) -> None:
        """``user`` votes in the poll of ``message`` (``answer``: its id or its text), as a
        member pressing an answer does: MESSAGE_POLL_VOTE_ADD goes to the bot."""
        poll = message.poll
        if poll is None:
            raise UserActionError("that message has no poll")
        if message.poll_finalized or self.clock.now() >= _parse_iso(poll["expiry"]):
            raise UserActionError("the poll is over")
        ids = {a["answer_id"]: a["poll_media"].get("text") for a in poll["answers"]}
        answer_id = (
            answer
            if isinstance(answer, int)
            else next((i for i, text in ids.items() if text == answer), None)
        )
        if answer_id is None or answer_id not in ids:
            raise UserActionError(f"no answer {answer!r} in the poll")
        if not poll.get("allow_multiselect"):
            for voters in message.poll_votes.values():
                if user.id in voters:
                    raise UserActionError("one vote each in this poll")
        message.poll_votes.setdefault(answer_id, []).append(user.id)
        data = {
            "user_id": str(user.id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "answer_id": answer_id,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        self.dispatch("MESSAGE_POLL_VOTE_ADD", data)

    async def _expire_poll(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message_in(channel, request.match_info["message_id"])
        if msg.poll is None:
            raise ApiError(400, 520006, "Cannot expire a non-poll message")
        if msg.author.id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if msg.poll_finalized or self.clock.now() >= _parse_iso(msg.poll["expiry"]):
            raise ApiError(400, 520001, "Poll expired")
        msg.poll_finalized = True
        msg.poll["expiry"] = self.clock.iso()
        self.dispatch("MESSAGE_UPDATE", msg.to_dict())
        return json_response(msg.to_dict())

    async def _poll_answer_voters(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message_in(channel, request.match_info["message_id"])
        if msg.poll is None:
            raise ApiError(400, 520006, "Cannot expire a non-poll message")
        voters = msg.poll_votes.get(int(request.match_info["answer_id"]), [])
        return json_response({"users": [self.users[i].to_dict() for i in sorted(voters)]})

    def _new_poll(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The stored poll of a message created with ``payload["poll"]`` (a create request)."""
        poll = payload["poll"]
        errs = limits.FormErrors()
        question = (poll.get("question") or {}).get("text")
        limits._text(errs, ("poll", "question", "text"), question, 300, minimum=1, required=True)
        answers = poll.get("answers") or []
        if not 1 <= len(answers) <= 10:
            errs.add(("poll", "answers"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10")
        for i, a in enumerate(answers):
            text = (a.get("poll_media") or {}).get("text")
            limits._text(
                errs, ("poll", "answers", str(i), "poll_media", "text"), text, 55, required=True
            )
        hours = poll.get("duration", 24)
        if not (isinstance(hours, (int, float)) and 1 <= hours <= 768):
            errs.add(("poll", "duration"), "NUMBER_TYPE_MAX", "Between 1 and 768 hours")
        if errs:
            raise form_error(errs)
        return {
            "question": {"text": question},
            "answers": [
                {"answer_id": i, "poll_media": dict(a["poll_media"])}
                for i, a in enumerate(answers, 1)
            ],
            "expiry": self.clock.iso(self.clock.now() + float(hours) * 3600),
            "allow_multiselect": bool(poll.get("allow_multiselect", False)),
            "layout_type": poll.get("layout_type", 1),
        }

    def mark_interested(self, event: dict[str, Any], user: User) -> None:
        """``user`` presses Interested on a scheduled event the bot created."""
        self.event_interest.setdefault(event["id"], []).append(user)
        event["user_count"] = len(self.event_interest[event["id"]])

    def _scheduled_event(self, request: web.Request) -> dict[str, Any]:
        guild = self._guild(request)
        wanted = request.match_info["event_id"]
        for event in self.scheduled_events:
            if event["id"] == wanted and event["guild_id"] == str(guild.id):
                return event
        raise ApiError(404, 10070, "Unknown Guild Scheduled Event")

    async def _get_scheduled_event(self, request: web.Request) -> web.Response:
        return json_response(self._scheduled_event(request), 200)

    async def _scheduled_event_users(self, request: web.Request) -> web.Response:
        # Discord pages these by user id (before/after, at most 100 a page), newest first.
        event = self._scheduled_event(request)
        users = sorted(self.event_interest.get(event["id"], []), key=lambda u: u.id)
        before, after = request.query.get("before"), request.query.get("after")
        if before:
            users = [u for u in users if u.id < int(before)]
        if after:
            users = [u for u in users if u.id > int(after)]
        limit = min(100, int(request.query.get("limit", "100")))
        page = users[:limit] if after else users[::-1][:limit]
        return json_response(
            [{"guild_scheduled_event_id": event["id"], "user": u.to_dict()} for u in page], 200
        )

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = self._guild_create(guild, 0)
        for key in (
            "channels",
            "threads",
            "members",
            "presences",
            "voice_states",
            "large",
            "joined_at",
            "member_count",
        ):
            data.pop(key, None)
        if request.query.get("with_counts") in ("true", "1"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        chans = [
            self.channels[c].to_dict() for c in guild.channel_ids if not self.channels[c].deleted
        ]
        return json_response(chans)

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.to_dict() for r in self._guild(request).roles.values()])

    async def _list_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )[:limit]
        return json_response([m.to_dict() for m in members])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        try:
            member = guild.members[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise ApiError(404, 10007, "Unknown Member") from None
        return json_response(member.to_dict())

    # ------------------------------------------------------------------ REST: channels
    def _channel(self, request: web.Request) -> Channel:
        try:
            channel = self.channels[int(request.match_info["channel_id"])]
        except (KeyError, ValueError):
            raise ApiError(404, 10003, "Unknown Channel") from None
        if channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_dict())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload = _body(request)
        if "name" in payload:
            limits_errs = limits.FormErrors()
            limits._text(limits_errs, ("name",), payload["name"], 100, minimum=1, required=True)
            if limits_errs:
                raise form_error(limits_errs)
            channel.name = payload["name"]
        if channel.is_thread and ("archived" in payload or "locked" in payload):
            # Only a member with Manage Threads may lock, unlock, or unarchive a locked
            # thread; an unlocked one is unarchived by any member of it (its creator is).
            guild = self.guild_of(channel)
            manages = guild is not None and bool(
                self.permissions(guild, self.bot_user) & MANAGE_THREADS
            )
            locking = "locked" in payload and bool(payload["locked"]) != channel.locked
            unarchiving = "archived" in payload and not payload["archived"]
            if not manages and (locking or (channel.locked and unarchiving)):
                raise ApiError(403, 50013, "Missing Permissions")
        if "auto_archive_duration" in payload:
            channel.auto_archive_duration = self._auto_archive_duration(payload)
        if "archived" in payload:
            channel.archived = bool(payload["archived"])
        if "locked" in payload:
            channel.locked = bool(payload["locked"])
        if "topic" in payload:
            channel.topic = payload["topic"]
        self.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.to_dict())
        return json_response(channel.to_dict())

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == DM:
            return json_response(channel.to_dict())
        channel.deleted = True
        if channel.is_thread:
            self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )
        else:
            self.dispatch("CHANNEL_DELETE", channel.to_dict())
        return json_response(channel.to_dict())

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.type not in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        payload = _body(request)
        if request.match_info.get("message_id") is None:
            # A thread of its own has the type its channel allows: an announcement
            # channel's are announcement threads, a text channel's public or private.
            wanted = payload.get("type", PRIVATE_THREAD)
            allowed = (
                {ANNOUNCEMENT_THREAD}
                if parent.type == GUILD_ANNOUNCEMENT
                else {PUBLIC_THREAD, PRIVATE_THREAD}
            )
            if wanted not in allowed:
                raise ApiError(400, 50024, "Cannot execute action on this channel type")
        errs = limits.FormErrors()
        limits._text(errs, ("name",), payload.get("name"), 100, minimum=1, required=True)
        if errs:
            raise form_error(errs)
        mid_raw = request.match_info.get("message_id")
        if mid_raw is not None:
            msg = self._message_in(parent, mid_raw)
            if msg.thread_id is not None:
                raise ApiError(400, 160004, "A thread has already been created for this message")
            thread = self.add_thread(parent, payload["name"], thread_id=msg.id)
            msg.thread_id = thread.id
        else:
            private = payload.get("type", PRIVATE_THREAD) == PRIVATE_THREAD
            thread = self.add_thread(parent, payload["name"], private=private)
        if "auto_archive_duration" in payload:
            thread.auto_archive_duration = self._auto_archive_duration(payload)
        return json_response(thread.to_dict(), 201)

    @staticmethod
    def _auto_archive_duration(payload: dict[str, Any]) -> int:
        value = payload["auto_archive_duration"]
        if value not in AUTO_ARCHIVE_DURATIONS:
            errs = limits.FormErrors()
            errs.add(
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.",
            )
            raise form_error(errs)
        return int(value)

    async def _thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user = self.bot_user if raw == "@me" else self._user(raw)
        if request.method == "PUT":
            thread.members.add(user.id)
        else:
            thread.members.discard(user.id)
        return web.Response(status=204)

    def _message_in(self, channel: Channel, raw_id: str) -> Message:
        try:
            msg = self.messages[int(raw_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10008, "Unknown Message") from None
        if msg.channel_id != channel.id or msg.deleted or msg.visible_to is not None:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        msgs = self.channel_messages(channel)
        if "before" in request.query:
            before = int(request.query["before"])
            msgs = [m for m in msgs if m.id < before]
        if "after" in request.query:
            after = int(request.query["after"])
            msgs = [m for m in msgs if m.id > after][:limit]
        msgs = list(reversed(msgs))[:limit]
        return json_response([m.to_dict() for m in msgs])

    async def _get_channel_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(self._message_in(channel, request.match_info["message_id"]).to_dict())

    def _check_can_send(self, channel: Channel) -> None:
        if channel.type == DM:
            user = channel.recipients[0]
            if not user.dms_open or user.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        guild = self.guild_of(channel)
        if guild is None:
            raise ApiError(404, 10003, "Unknown Channel")
        perms = self.permissions(guild, self.bot_user)
        needed = limits_send_permission(channel)
        if perms & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")
        if (
            channel.is_thread
            and channel.locked
            and (channel.archived or not perms & MANAGE_THREADS)
        ):
            raise ApiError(400, 50083, "Operation cannot be performed on an archived thread.")
        if channel.is_thread and channel.archived:
            # Discord: a message sent to an archived thread unarchives it, unless it is locked.
            channel.archived = False
            self.dispatch("THREAD_UPDATE", channel.to_dict())

    def _check_can_edit_in(self, channel: Channel) -> None:
        """Discord: nobody edits a message in an archived thread (the bot must unarchive it)."""
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Operation cannot be performed on an archived thread.")

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._check_can_send(channel)
        payload = _body(request)
        files: list[Attachment] = request[FILES]
        self._validate_new_message(payload, files)
        if payload.get("poll"):
            self._new_poll(payload)  # refused before anything is stored
        msg = self.new_message(channel, self.bot_user, payload, files)
        if "allowed_mentions" in payload:
            self.allowed_mentions[msg.id] = payload["allowed_mentions"]
        return json_response(msg.to_dict())

    async def _edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message_in(channel, request.match_info["message_id"])
        payload = _body(request)
        if msg.author.id != self.bot_user.id and set(payload) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._check_can_edit_in(channel)
        self._validate_edit(msg, payload, request[FILES])
        self.edit_message(msg, payload, request[FILES])
        return json_response(msg.to_dict())

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message_in(channel, request.match_info["message_id"])
        self.delete_message(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ messages (shared)
    @staticmethod
    def _check_file_sizes(files: list[Attachment]) -> None:
        if any(len(f.data) > limits.ATTACHMENT_SIZE_LIMIT for f in files):
            raise ApiError(413, 40005, "Request entity too large")

    def _validate_new_message(self, payload: dict[str, Any], files: list[Attachment]) -> None:
        self._check_file_sizes(files)
        errs = limits.validate_message(payload)
        if errs:
            raise form_error(errs)
        if limits.is_empty_message(payload, bool(files)):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _validate_edit(
        self, msg: Message, payload: dict[str, Any], files: list[Attachment]
    ) -> None:
        self._check_file_sizes(files)
        existing = {
            "content": msg.content,
            "embeds": msg.embeds,
            "flags": msg.flags,
            "components": msg.components,
        }
        errs = limits.validate_message(payload, existing=existing)
        if errs:
            raise form_error(errs)
        merged = {**existing, "attachments": [a.id for a in msg.attachments], **payload}
        if limits.is_empty_message(merged, bool(files)):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _normalise_components(self, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        components = json.loads(json.dumps(components))
        next_id = 1
        for comp in limits.walk_components(components):
            if comp.get("id") is None:
                comp["id"] = next_id
            next_id = max(next_id, int(comp["id"])) + 1
            if comp.get("type") in limits.SELECT_TYPES:
                comp.setdefault("min_values", 1)
                comp.setdefault("max_values", 1)
        return components

    def _attachments(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[Attachment],
        existing: list[Attachment],
    ) -> list[Attachment] | None:
        """The message's attachment list after applying ``payload``/``files`` (None: unchanged)."""
        by_index = {f.id: f for f in files}
        if "attachments" not in payload:
            if not files:
                return None
            entries: list[dict[str, Any]] = [{"id": f.id} for f in files]
            keep = list(existing)
        else:
            entries = payload.get("attachments") or []
            keep = []
        existing_by_id = {a.id: a for a in existing}
        out = list(keep)
        for entry in entries:
            try:
                raw_id = entry.get("id")
                aid = int(raw_id if raw_id is not None else -1)
            except (TypeError, ValueError):
                raise ApiError(400, 50035, "Invalid Form Body") from None
            if aid in existing_by_id:
                out.append(existing_by_id[aid])
            elif aid in by_index:
                f = by_index[aid]
                new_id = self.snowflakes.next()
                filename = entry.get("filename") or f.filename
                out.append(
                    Attachment(
                        id=new_id,
                        filename=filename,
                        content_type=f.content_type or _guess_type(filename),
                        data=f.data,
                        url=f"{self.base_url}/attachments/{channel.id}/{new_id}/{filename}",
                        description=entry.get("description"),
                    )
                )
            else:
                errs = limits.FormErrors()
                errs.add(
                    ("attachments", str(aid)), "ATTACHMENT_NOT_FOUND", "Attachment data not found"
                )
                raise form_error(errs)
        return out

    def _apply(
        self, msg: Message, channel: Channel, payload: dict[str, Any], files: list[Attachment]
    ) -> None:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = [{"type": "rich", **e} for e in (payload["embeds"] or [])]
        if "components" in payload:
            msg.components = self._normalise_components(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & (limits.FLAG_EPHEMERAL | limits.FLAG_LOADING)
            settable = (
                limits.FLAG_SUPPRESS_EMBEDS
                | limits.FLAG_SUPPRESS_NOTIFICATIONS
                | (limits.FLAG_COMPONENTS_V2)
            )
            msg.flags = keep | (int(payload["flags"]) & settable)
        atts = self._attachments(channel, payload, files, msg.attachments)
        if atts is not None:
            msg.attachments = atts
        # "attachment://name" in embeds refers to the message's files.
        by_name = {a.filename: a.url for a in msg.attachments}
        for embed in msg.embeds:
            for key in ("image", "thumbnail"):
                url = (embed.get(key) or {}).get("url", "")
                if url.startswith("attachment://") and url[13:] in by_name:
                    embed[key] = {
                        **embed[key],
                        "url": by_name[url[13:]],
                        "proxy_url": by_name[url[13:]],
                    }

    def new_message(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        files: list[Attachment] | None = None,
        *,
        visible_to: int | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> Message:
        """Stores a message (already validated) and dispatches MESSAGE_CREATE if public."""
        msg = Message(
            id=self.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            created_at=self.clock.iso(),
            visible_to=visible_to,
        )
        self._apply(msg, channel, payload, files or [])
        if payload.get("poll"):
            # A poll is set when its message is made (Discord does not edit polls).
            msg.poll = self._new_poll(payload)
        msg.flags |= extra_flags
        if visible_to is not None:
            msg.flags |= limits.FLAG_EPHEMERAL
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = self.application_id
            msg.message_type = 20 if interaction.type == 2 else 0
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_dict(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.type == 2:
                msg.interaction_metadata["name"] = interaction.data.get("name")
                msg.interaction_metadata["command_type"] = 1
        self.messages[msg.id] = msg
        self._channel_messages.setdefault(channel.id, []).append(msg.id)
        if visible_to is None:
            channel.last_message_id = msg.id
            channel.message_count += 1
            self.dispatch("MESSAGE_CREATE", self._message_event(msg))
        self._notify()
        return msg

    def edit_message(
        self, msg: Message, payload: dict[str, Any], files: list[Attachment] | None = None
    ) -> None:
        msg.revisions.append(msg.to_dict())
        self._apply(msg, self.channels[msg.channel_id], payload, files or [])
        msg.edited_at = self.clock.iso()
        if msg.visible_to is None:
            self.dispatch("MESSAGE_UPDATE", self._message_event(msg))
        self._notify()

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.visible_to is None:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self.dispatch("MESSAGE_DELETE", data)
        self._notify()

    def _message_event(self, msg: Message) -> dict[str, Any]:
        data = msg.to_dict()
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
            member = self.guilds[msg.guild_id].members.get(msg.author.id)
            if member is not None:
                member_data = member.to_dict()
                member_data.pop("user")
                data["member"] = member_data
        return data

    # ------------------------------------------------------------------ interactions
    def _interaction_for(self, request: web.Request) -> InteractionRecord:
        rec = self._interactions_by_token.get(request.match_info["token"])
        if rec is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if request.match_info.get("application_id") not in (None, str(self.application_id)):
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.clock.now() - rec.created_at > TOKEN_LIFETIME:
            self._fail("expired_token", rec, f"{request.method} {request.path} after 15 minutes")
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def abandon_interactions(self, detail: str = "the bot process died") -> int:
        """Settle every interaction still waiting for an answer as failed (kind
        ``abandoned``), so drivers waiting on them return now instead of at their timeout;
        returns how many. For tests that kill the bot on purpose."""
        count = 0
        for rec in self.interactions.values():
            if rec.settled.is_set() or rec.acknowledged:
                continue
            rec.failure = Failure("abandoned", rec.id, detail)
            rec.settled.set()
            count += 1
        self._notify()
        return count

    def _fail(self, kind: str, rec: InteractionRecord | None, detail: str) -> Failure:
        failure = Failure(kind, rec.id if rec else None, detail)
        self.failures.append(failure)
        if rec is not None and rec.failure is None and kind in ("late_response", "no_response"):
            rec.failure = failure
            rec.settled.set()
        self._notify()
        return failure

    async def _callback(self, request: web.Request) -> web.Response:
        call: RecordedCall = request[CALL]
        try:
            rec = self.interactions[int(request.match_info["interaction_id"])]
        except (KeyError, ValueError):
            raise ApiError(404, 10062, "Unknown interaction") from None
        if rec.token != request.match_info["token"]:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if rec.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        age = self.clock.now() - rec.created_at
        if age > INTERACTION_DEADLINE:
            self._fail(
                "late_response",
                rec,
                f"first response to interaction {rec.id} after {age:.2f}s (limit 3s)",
            )
            raise ApiError(404, 10062, "Unknown interaction")
        payload = _body(request)
        files: list[Attachment] = request[FILES]
        ctype = payload.get("type")
        data = payload.get("data") or {}
        self._check_callback_type(rec, ctype)
        message: Message | None = None
        if ctype in (4, 7):
            if ctype == 4:
                self._validate_new_message(data, files)
            else:
                source = self.messages[rec.source_message_id]  # type: ignore[index]
                self._validate_edit(source, data, files)
        elif ctype == 9:
            errs = limits.validate_modal(data)
            if errs:
                raise form_error(errs)
        elif ctype == 8:
            errs = limits.validate_autocomplete(data)
            if errs:
                raise form_error(errs)
        ephemeral = False
        if ctype == 4:
            ephemeral = bool((data.get("flags") or 0) & limits.FLAG_EPHEMERAL)
            message = self.new_message(
                rec.channel,
                self.bot_user,
                data,
                files,
                visible_to=rec.user.id if ephemeral else None,
                interaction=rec,
            )
            rec.original_message_id = message.id
        elif ctype == 5:
            ephemeral = bool((data.get("flags") or 0) & limits.FLAG_EPHEMERAL)
            message = self.new_message(
                rec.channel,
                self.bot_user,
                {"content": ""},
                visible_to=rec.user.id if ephemeral else None,
                interaction=rec,
                extra_flags=limits.FLAG_LOADING,
            )
            rec.original_message_id = message.id
        elif ctype in (6, 7):
            message = self.messages[rec.source_message_id]  # type: ignore[index]
            if message.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            if ctype == 7:
                self.edit_message(message, data, files)
            rec.original_message_id = message.id
            ephemeral = message.ephemeral
        rec.response_type = ctype
        rec.response_data = data
        rec.responded_perf = call.started
        rec.settled.set()
        self._notify()
        interaction: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": ephemeral,
        }
        resource: dict[str, Any] = {"type": ctype}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            resource["message"] = message.to_dict()
        return json_response({"interaction": interaction, "resource": resource})

    def _check_callback_type(self, rec: InteractionRecord, ctype: Any) -> None:
        allowed = {
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5} | ({6, 7} if rec.source_message_id is not None else set()),
        }[rec.type]
        if ctype not in allowed:
            errs = limits.FormErrors()
            errs.add(
                ("type",),
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"Interaction callback type {ctype} is not valid for interaction type "
                f"{rec.type} (allowed: {sorted(allowed)})",
            )
            raise form_error(errs)

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._interaction_for(request)
        if not rec.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook")
        if rec.response_type in (8, 9):
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        payload = _body(request)
        files: list[Attachment] = request[FILES]
        self._validate_new_message(payload, files)
        original = self.messages.get(rec.original_message_id or 0)
        if rec.response_type == 5 and original is not None and original.loading:
            # The first followup after a deferred "thinking" response replaces it.
            self.edit_message(original, {"content": "", **payload}, files)
            original.flags &= ~limits.FLAG_LOADING
            msg = original
        else:
            ephemeral = bool((payload.get("flags") or 0) & limits.FLAG_EPHEMERAL)
            msg = self.new_message(
                rec.channel,
                self.bot_user,
                payload,
                files,
                visible_to=rec.user.id if ephemeral else None,
                interaction=rec,
            )
        rec.followup_ids.append(msg.id)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.to_dict())
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        rec = self._interaction_for(request)
        raw = request.match_info["message_id"]
        if raw == "@original":
            if rec.original_message_id is None:
                raise ApiError(404, 10008, "Unknown Message")
            msg = self.messages[rec.original_message_id]
        else:
            try:
                msg = self.messages[int(raw)]
            except (KeyError, ValueError):
                raise ApiError(404, 10008, "Unknown Message") from None
            if msg.id not in rec.followup_ids and msg.id != rec.original_message_id:
                raise ApiError(404, 10008, "Unknown Message")
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(msg.to_dict())
        if request.method == "DELETE":
            self.delete_message(msg)
            return web.Response(status=204)
        payload = _body(request)
        files = request[FILES]
        channel = self.channels.get(msg.channel_id)
        if channel is not None:
            self._check_can_edit_in(channel)
        self._validate_edit(msg, payload, files)
        self.edit_message(msg, payload, files)
        msg.flags &= ~limits.FLAG_LOADING
        return json_response(msg.to_dict())


def limits_send_permission(channel: Channel) -> int:
    from .models import SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL

    return VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)


def _parse_iso(text: str) -> float:
    return datetime.datetime.fromisoformat(text).timestamp()


def _guess_type(filename: str) -> str | None:
    import mimetypes

    return mimetypes.guess_type(filename)[0]


def _event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The server an event is about (which decides its shard); None for DMs and the like."""
    raw = data.get("id") if event.startswith("GUILD_") and "guild_id" not in data else None
    raw = data.get("guild_id", raw)
    return int(raw) if raw else None


def _shard_field(raw: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard``: ``(id, count)``, None if absent; ValueError if Discord would refuse
    it."""
    if raw is None:
        return None
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)
    ):
        raise ValueError(raw)
    shard_id, count = raw
    if count < 1 or not 0 <= shard_id < count:
        raise ValueError(raw)
    return (shard_id, count)


def _overlap(a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool:
    """Whether two sessions' shards can receive a server in common."""
    return a is None or b is None or a[1] != b[1] or a[0] == b[0]

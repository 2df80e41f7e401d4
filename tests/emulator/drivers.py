# Driver methods annotate ``self: Emulator`` (they are mixed into it): mypy calls that "misc".
# mypy: disable-error-code="misc"
"""Drivers: what a Discord user does (slash command, autocomplete, button, select, modal).

Each driver builds INTERACTION_CREATE the way Discord does (fresh snowflake id and token, the
member with their permissions, the channel, the full message for component interactions,
``attachment_size_limit``, ``app_permissions``, locales, ...), sends it down the gateway and waits
for the bot's first response.  It returns an :class:`InteractionResult`.

Client-side rules the Discord app itself enforces (a disabled button cannot be clicked, a select
takes between min_values and max_values of its options, a required text input cannot be left
empty, a user without a command's default permissions does not see it) raise
:class:`UserActionError` before anything is sent: a test that hits one is testing something a real
user could not do.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .limits import ATTACHMENT_SIZE_LIMIT
from .models import ADMINISTRATOR, DM, Channel, InteractionRecord, Message, Role, User

if TYPE_CHECKING:
    from .server import Emulator

DEFAULT_RESPONSE_TIMEOUT = 3.25

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10


class UserActionError(Exception):
    """A user action the Discord client would not allow."""


class NoResponse(AssertionError):
    """The bot did not answer an interaction (in time)."""


@dataclass
class InteractionResult:
    """The bot's answer to one interaction (values read live from the emulator)."""

    emu: Emulator
    interaction: InteractionRecord

    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred message, 6 deferred update, 7 update message,
        8 autocomplete result, 9 modal (None: no valid response)."""
        return self.interaction.response_type

    @property
    def data(self) -> dict[str, Any]:
        return self.interaction.response_data or {}

    @property
    def message(self) -> Message | None:
        """The message the response created or updated (the "@original")."""
        mid = self.interaction.original_message_id
        return self.emu.messages.get(mid) if mid is not None else None

    @property
    def content(self) -> str | None:
        return self.message.content if self.message is not None else None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message is not None else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message is not None else []

    @property
    def attachments(self) -> list[Any]:
        return self.message.attachments if self.message is not None else []

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (``{"custom_id", "title", "components"}``) if type 9."""
        return self.data if self.type == 9 else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices if type 8."""
        return list(self.data.get("choices") or []) if self.type == 8 else None

    @property
    def followups(self) -> list[Message]:
        return [self.emu.messages[m] for m in self.interaction.followup_ids]

    @property
    def failure(self) -> Any:
        return self.interaction.failure

    @property
    def latency(self) -> float | None:
        return self.interaction.latency

    def component(
        self, *, label: str | None = None, custom_id: str | None = None
    ) -> dict[str, Any] | None:
        msg = self.message
        return msg.component(label=label, custom_id=custom_id) if msg is not None else None


def _option_value(opt_type: int, value: Any) -> Any:
    if opt_type in (USER, CHANNEL, ROLE, MENTIONABLE):
        return str(getattr(value, "id", value))
    if opt_type == INTEGER:
        return int(value)
    if opt_type == NUMBER:
        return float(value)
    if opt_type == BOOLEAN:
        return bool(value)
    return str(value)


class Drivers:
    """Mixed into :class:`~tests.emulator.server.Emulator`."""

    # ----------------------------------------------------------------- commands
    def _find_command(self: Emulator, channel: Channel, name: str) -> Any:
        guild = self.guild_of(channel)
        cmd = None
        if guild is not None:
            cmd = self.guild_commands.get(guild.id, {}).get(name)
        if cmd is None:
            cmd = self.global_commands.get(name)
        if cmd is None:
            raise UserActionError(f"no synced command named {name!r} is visible in this channel")
        return cmd

    def _check_command_visible(self: Emulator, user: User, channel: Channel, cmd: Any) -> None:
        data = cmd.data
        guild = self.guild_of(channel)
        if guild is None:
            contexts = data.get("contexts")
            if (contexts is not None and 1 not in contexts) or data.get("dm_permission") is False:
                raise UserActionError(f"/{cmd.name} is not available in DMs")
            return
        contexts = data.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise UserActionError(f"/{cmd.name} is not available in servers")
        needed = data.get("default_member_permissions")
        if needed is not None:
            perms = self.permissions(guild, user)
            if not perms & ADMINISTRATOR and perms & int(needed) != int(needed):
                raise UserActionError(
                    f"{user.username} lacks the permissions ({needed}) /{cmd.name} requires"
                )

    def _encode_command(
        self: Emulator,
        user: User,
        channel: Channel,
        path: str,
        options: Mapping[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        parts = path.split()
        cmd = self._find_command(channel, parts[0])
        self._check_command_visible(user, channel, cmd)
        declared: list[dict[str, Any]] = cmd.data.get("options") or []
        wrappers: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in declared
                    if o.get("name") == part and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                raise UserActionError(f"/{path}: no subcommand {part!r}")
            wrappers.append({"name": part, "type": sub["type"]})
            declared = sub.get("options") or []
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
            raise UserActionError(f"/{path} needs a subcommand")
        resolved: dict[str, dict[str, Any]] = {}
        encoded = []
        known = {o["name"]: o for o in declared}
        for name in options:
            if name not in known:
                raise UserActionError(f"/{path} has no option {name!r} (has {sorted(known)})")
        for opt in declared:
            name = opt["name"]
            if name not in options:
                if opt.get("required") and focused is None:
                    raise UserActionError(f"/{path}: option {name!r} is required")
                continue
            value = options[name]
            if name == focused:
                encoded.append(
                    {"name": name, "type": opt["type"], "value": str(value), "focused": True}
                )
                continue
            wire = _option_value(opt["type"], value)
            self._check_option(path, opt, wire)
            encoded.append({"name": name, "type": opt["type"], "value": wire})
            self._resolve_option(channel, opt["type"], value, resolved)
        node: list[dict[str, Any]] = encoded
        for wrapper in reversed(wrappers):
            node = [{**wrapper, "options": node}]
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        if node:
            data["options"] = node
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_option(self: Emulator, path: str, opt: dict[str, Any], value: Any) -> None:
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise UserActionError(f"/{path}: {value!r} is not a choice of {opt['name']!r}")
        if opt["type"] in (INTEGER, NUMBER):
            if "min_value" in opt and value < opt["min_value"]:
                raise UserActionError(f"/{path}: {opt['name']} below {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise UserActionError(f"/{path}: {opt['name']} above {opt['max_value']}")
        if opt["type"] == STRING:
            if "min_length" in opt and len(value) < opt["min_length"]:
                raise UserActionError(f"/{path}: {opt['name']} shorter than {opt['min_length']}")
            if "max_length" in opt and len(value) > opt["max_length"]:
                raise UserActionError(f"/{path}: {opt['name']} longer than {opt['max_length']}")

    def _resolve_option(
        self: Emulator,
        channel: Channel,
        opt_type: int,
        value: Any,
        resolved: dict[str, dict[str, Any]],
    ) -> None:
        guild = self.guild_of(channel)
        if opt_type in (USER, MENTIONABLE) and isinstance(value, User | int | str):
            uid = value.id if isinstance(value, User) else int(value)
            user = self.users.get(uid)
            if user is not None:
                resolved.setdefault("users", {})[str(uid)] = user.to_dict()
                if guild is not None and uid in guild.members:
                    member = guild.members[uid].to_dict(permissions=self.permissions(guild, user))
                    member.pop("user")
                    resolved.setdefault("members", {})[str(uid)] = member
                return
        if opt_type in (ROLE, MENTIONABLE) and guild is not None:
            rid = int(getattr(value, "id", value))
            if rid in guild.roles:
                resolved.setdefault("roles", {})[str(rid)] = guild.roles[rid].to_dict()
                return
        if opt_type == CHANNEL:
            cid = int(getattr(value, "id", value))
            ch = self.channels[cid]
            data = {
                "id": str(cid),
                "name": ch.name,
                "type": ch.type,
                "permissions": str(self.permissions(guild, self.bot_user) if guild else 0),
            }
            if ch.is_thread:
                data["parent_id"] = str(ch.parent_id)
                data["thread_metadata"] = ch.to_dict()["thread_metadata"]
            resolved.setdefault("channels", {})[str(cid)] = data
        if isinstance(value, Role) and guild is not None:
            resolved.setdefault("roles", {})[str(value.id)] = value.to_dict()

    async def run_command(
        self: Emulator,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """``user`` runs ``/command`` in ``channel``.  ``command`` is the full path
        (``"poker create"``); ``options`` maps option names to values (users, channels and
        roles may be passed as objects)."""
        data = self._encode_command(user, channel, command, options or {}, None)
        return await self._interact(
            2, user, channel, data, timeout=timeout, raise_on_failure=raise_on_failure
        )

    async def run_forged_command(
        self: Emulator,
        user: User,
        channel: Channel,
        command: str,
        wire: Mapping[str, Any],
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """Like :meth:`run_command`, as a modified client could send it: each option's value
        in ``wire`` goes out exactly as given (any JSON value, out of range, of the wrong type)
        under the type the command declares, and nothing is checked (unknown option names
        included, declared as strings)."""
        parts = command.split()
        cmd = self._find_command(channel, parts[0])
        declared: list[dict[str, Any]] = cmd.data.get("options") or []
        wrappers: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next((o for o in declared if o.get("name") == part), None)
            if sub is None:
                raise UserActionError(f"/{command}: no subcommand {part!r}")
            wrappers.append({"name": part, "type": sub["type"]})
            declared = sub.get("options") or []
        types = {o["name"]: o["type"] for o in declared}
        node: list[dict[str, Any]] = [
            {"name": name, "type": types.get(name, STRING), "value": value}
            for name, value in wire.items()
        ]
        for wrapper in reversed(wrappers):
            node = [{**wrapper, "options": node}]
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        if node:
            data["options"] = node
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return await self._interact(
            2, user, channel, data, timeout=timeout, raise_on_failure=raise_on_failure
        )

    async def autocomplete(
        self: Emulator,
        user: User,
        channel: Channel,
        command: str,
        focused: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """``user`` types ``value`` into option ``focused`` of ``/command``; the result's
        ``choices`` are what the bot suggested."""
        opts = dict(options or {})
        opts[focused] = value
        data = self._encode_command(user, channel, command, opts, focused)
        return await self._interact(
            4, user, channel, data, timeout=timeout, raise_on_failure=raise_on_failure
        )

    # ----------------------------------------------------------------- components
    def _resolve_message(
        self: Emulator, message: Message | InteractionResult | int | None
    ) -> Message:
        if message is None:
            raise UserActionError("no message given (did the interaction produce one?)")
        if isinstance(message, InteractionResult):
            msg = message.message
            if msg is None:
                raise UserActionError("that interaction produced no message")
            return msg
        if isinstance(message, int):
            return self.messages[message]
        return message

    def _component_on(
        self: Emulator,
        user: User,
        message: Message,
        custom_id: str | None,
        label: str | None,
    ) -> dict[str, Any]:
        if not message.visible_for(user.id):
            raise UserActionError(f"{user.username} cannot see message {message.id}")
        comp = message.component(custom_id=custom_id, label=label)
        if comp is None:
            raise UserActionError(
                f"no component custom_id={custom_id!r} label={label!r} on message {message.id}; "
                f"has {[(c.get('custom_id'), c.get('label')) for c in message.all_components()]}"
            )
        if comp.get("disabled"):
            raise UserActionError(f"component {comp.get('custom_id')!r} is disabled")
        return comp

    async def click(
        self: Emulator,
        user: User,
        message: Message | InteractionResult | int | None,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """``user`` clicks the button with ``custom_id`` (or ``label``) on ``message``."""
        msg = self._resolve_message(message)
        comp = self._component_on(user, msg, custom_id, label)
        if comp.get("type") != 2:
            raise UserActionError(f"component {comp.get('custom_id')!r} is not a button")
        if comp.get("style") in (5, 6):
            raise UserActionError("link and premium buttons do not send interactions")
        data = {"custom_id": comp["custom_id"], "component_type": 2, "id": comp.get("id")}
        channel = self.channels[msg.channel_id]
        return await self._interact(
            3, user, channel, data, message=msg, timeout=timeout, raise_on_failure=raise_on_failure
        )

    async def select(
        self: Emulator,
        user: User,
        message: Message | InteractionResult | int | None,
        custom_id: str,
        values: Sequence[Any],
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu ``custom_id`` on ``message`` (option
        values for a string select; users/roles/channels or ids for the other kinds)."""
        msg = self._resolve_message(message)
        comp = self._component_on(user, msg, custom_id, None)
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise UserActionError(f"component {custom_id!r} is not a select menu")
        wire = [str(getattr(v, "id", v)) for v in values]
        self._check_select_values(comp, wire)
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ctype,
            "values": wire,
            "id": comp.get("id"),
        }
        channel = self.channels[msg.channel_id]
        if ctype != 3:
            resolved: dict[str, dict[str, Any]] = {}
            kind = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[ctype]
            for v in wire:
                self._resolve_option(channel, kind, int(v), resolved)
            data["resolved"] = resolved
        return await self._interact(
            3, user, channel, data, message=msg, timeout=timeout, raise_on_failure=raise_on_failure
        )

    @staticmethod
    def _check_select_values(comp: dict[str, Any], values: Sequence[str]) -> None:
        lo = comp.get("min_values", 1)
        hi = comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise UserActionError(
                f"select {comp.get('custom_id')!r} takes {lo}..{hi} values, got {len(values)}"
            )
        if len(set(values)) != len(values):
            raise UserActionError("the same option cannot be picked twice")
        if comp.get("type") == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise UserActionError(
                    f"{bad} are not options of {comp.get('custom_id')!r}: {allowed}"
                )

    # ----------------------------------------------------------------- modals
    async def submit_modal(
        self: Emulator,
        user: User,
        opened: InteractionResult,
        values: Mapping[str, Any],
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """``user`` fills in and submits the modal ``opened`` showed (``values`` by the
        custom_id of each text input or select; a list of values for a select)."""
        modal = opened.modal
        if modal is None:
            raise UserActionError("that interaction did not open a modal")
        if opened.interaction.user.id != user.id:
            raise UserActionError("only the user the modal was shown to can submit it")
        components = []
        seen: set[str] = set()
        for comp in modal.get("components") or []:
            ctype = comp.get("type")
            if ctype == 1:
                inner = comp["components"][0]
                components.append(
                    {
                        "type": 1,
                        "id": comp.get("id"),
                        "components": [self._modal_value(inner, values, seen)],
                    }
                )
            elif ctype == 18:
                inner = comp["component"]
                components.append(
                    {
                        "type": 18,
                        "id": comp.get("id"),
                        "component": self._modal_value(inner, values, seen),
                    }
                )
        unknown = set(values) - seen
        if unknown:
            raise UserActionError(f"the modal has no inputs {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        parent = opened.interaction
        message = self.messages.get(parent.source_message_id) if parent.source_message_id else None
        return await self._interact(
            5,
            user,
            parent.channel,
            data,
            message=message,
            parent=parent,
            timeout=timeout,
            raise_on_failure=raise_on_failure,
        )

    @staticmethod
    def _modal_value(
        comp: dict[str, Any], values: Mapping[str, Any], seen: set[str]
    ) -> dict[str, Any]:
        cid = comp.get("custom_id")
        ctype = comp.get("type")
        if cid is not None:
            seen.add(cid)
        if ctype == 4:
            value = values.get(cid, comp.get("value") or "") if cid is not None else ""
            value = str(value)
            if comp.get("required", True) and not value:
                raise UserActionError(f"text input {cid!r} is required")
            if value:
                lo = comp.get("min_length") or 0
                hi = comp.get("max_length") or 4000
                if not lo <= len(value) <= hi:
                    raise UserActionError(f"text input {cid!r} takes {lo}..{hi} characters")
            return {"type": 4, "id": comp.get("id"), "custom_id": cid, "value": value}
        if ctype in (3, 5, 6, 7, 8):
            picked = [str(getattr(v, "id", v)) for v in values.get(cid, [])]  # type: ignore[arg-type]
            if comp.get("required", True) or picked:
                Drivers._check_select_values(comp, picked)
            return {"type": ctype, "id": comp.get("id"), "custom_id": cid, "values": picked}
        return {
            "type": ctype,
            "id": comp.get("id"),
            "custom_id": cid,
            "value": values.get(cid) if cid is not None else None,
        }

    # ----------------------------------------------------------------- plumbing
    def build_interaction(
        self: Emulator,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        parent: InteractionRecord | None = None,
    ) -> InteractionRecord:
        """Creates (but does not send) an interaction record and its INTERACTION_CREATE."""
        if message is not None and not message.visible_for(user.id):
            raise UserActionError(f"{user.username} cannot see message {message.id}")
        iid = self.snowflakes.next()
        # As Discord's: base64 of "interaction:<id>:<random>", so every character is one a
        # URL path takes as it is (a raw ":" made discord.py percent-encode each token).
        secret = f"interaction:{iid}:{secrets.token_urlsafe(96)}".encode()
        token = base64.urlsafe_b64encode(secret).decode().rstrip("=")
        guild = self.guild_of(channel)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id),
            "channel": channel.to_dict(),
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise UserActionError(f"{user.username} is not a member of {guild.name}")
            perms = self.permissions(guild, user)
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": member.to_dict(permissions=perms),
                    "app_permissions": str(self.permissions(guild, self.bot_user)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            if channel.type != DM:
                raise UserActionError("interactions happen in guild channels or DMs")
            payload.update(
                {
                    "user": user.to_dict(),
                    "app_permissions": str((1 << 51) - 1 & ~(1 << 3)),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": 1,
                }
            )
        if message is not None:
            payload["message"] = message.to_dict()
        rec = InteractionRecord(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            guild_id=guild.id if guild else None,
            data=data,
            payload=payload,
            created_at=self.clock.now(),
            source_message_id=message.id if message is not None else None,
            parent=parent,
        )
        self.interactions[iid] = rec
        self._interactions_by_token[token] = rec
        return rec

    async def _interact(
        self: Emulator,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
        parent: InteractionRecord | None = None,
        timeout: float,
        raise_on_failure: bool,
    ) -> InteractionResult:
        rec = self.build_interaction(itype, user, channel, data, message=message, parent=parent)
        self.dispatch("INTERACTION_CREATE", rec.payload)
        return await self.await_response(rec, timeout=timeout, raise_on_failure=raise_on_failure)

    async def await_response(
        self: Emulator,
        rec: InteractionRecord,
        *,
        timeout: float = DEFAULT_RESPONSE_TIMEOUT,
        raise_on_failure: bool = True,
    ) -> InteractionResult:
        """Waits for the bot's first response to ``rec`` (or records ``no_response``)."""
        try:
            await asyncio.wait_for(rec.settled.wait(), timeout)
        except TimeoutError:
            if not rec.acknowledged and rec.failure is None:
                self._fail(
                    "no_response",
                    rec,
                    f"no response to interaction {rec.id} ({rec.type}) within {timeout}s",
                )
        result = InteractionResult(self, rec)
        if raise_on_failure and not rec.acknowledged:
            failure = rec.failure
            detail = failure.detail if failure else "no response"
            errors = [c.response for c in self.errors if c.interaction_id == rec.id]
            raise NoResponse(f"{detail}; errors answered to the bot: {errors}")
        return result

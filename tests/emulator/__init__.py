"""A local Discord emulator for testing the bot as it really runs (see README.md here)."""

from .client_setup import point_discordpy_at, restore_endpoints
from .drivers import InteractionResult, NoResponse, UserActionError
from .models import Channel, Guild, InteractionRecord, Member, Message, RecordedCall, Role, User
from .runner import BotProcess, running_bot
from .server import ApiError, Emulator, World

__all__ = [
    "ApiError",
    "BotProcess",
    "Channel",
    "Emulator",
    "Guild",
    "InteractionRecord",
    "InteractionResult",
    "Member",
    "Message",
    "NoResponse",
    "RecordedCall",
    "Role",
    "User",
    "UserActionError",
    "World",
    "point_discordpy_at",
    "restore_endpoints",
    "running_bot",
]

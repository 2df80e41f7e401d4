"""Typed custom ids of the poker table's components: one small codec per kind.

A component's custom id carries all the state its press needs (Discord gives it back verbatim,
even to a restarted bot), so the router needs no memory. Each kind is a frozen dataclass with
``encode()`` and ``parse(text)``; ``parse`` accepts exactly what ``encode`` writes and raises
:class:`CustomIdError` (a ``ValueError``) with the reason for anything else, in the spirit of
python-chess's ``Move.uci()`` / ``Move.from_uci()``. :func:`parse_custom_id` picks the codec
by prefix, so the router stays a fast dictionary of handlers by kind. Every component the bot
sends has a codec here, the table's and the others' (a list's pages, a tournament's lobby): the
router (:mod:`cogs.routing`) is the one way in for every press.

The text formats are stable: messages posted before an upgrade keep working. The one change
so far is a private panel's (ephemeral, and made for one round of one hand): its ids name the
round since panels were held to it, and a panel opened before that upgrade is refused as no
longer valid; its player opens it again.

>>> TableButton(7, Version(3, 12), "to", 40).encode()
'pk:t:7:3.12:to40'
>>> parse_custom_id("pk:t:7:3.12:to40") == TableButton(7, Version(3, 12), "to", 40)
True
>>> PanelButton(7, 3, "draw", picks=(0, 4), street=2).encode()
'pk:p:7:3.2:draw:0.4'
>>> PanelSelect(7, 3, "cw", choice=GameChoice("razz", ("wild:2",))).encode()
'pks:7:3.0:cw:razz~wild=2'
>>> parse_custom_id("pg:leaderboard:0:1:20:n")
PageId(kind='leaderboard', owner=0, key='1', offset=20, direction='n')
>>> parse_custom_id("profile:42") is None  # not a component of this bot
True
>>> parse_custom_id("pk:l:7:dance")
Traceback (most recent call last):
...
cogs.ui.custom_ids.CustomIdError: malformed lobby button id 'pk:l:7:dance'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Final, Literal, TypeAlias, cast, get_args

from cogs.validation import MAX_ID
from tables.live import Version

__all__ = [
    "AmountModalId",
    "CustomIdError",
    "GameChoice",
    "LobbyButton",
    "PageId",
    "PanelButton",
    "PanelSelect",
    "PokerId",
    "ReplayButton",
    "RulesSelect",
    "SeatPanelButton",
    "TableButton",
    "TournamentButton",
    "Version",
    "parse_custom_id",
]

MAX_LENGTH: Final = 100
"""Discord's limit on a custom id."""

_ID: Final = r"(0|[1-9][0-9]{0,18})"
_COUNT: Final = r"(0|[1-9][0-9]{0,8})"


class CustomIdError(ValueError):
    """A custom id that none of the codecs wrote: forged, truncated, or from an old format."""


def _match(pattern: re.Pattern[str], text: str, what: str) -> re.Match[str]:
    found = pattern.fullmatch(text)
    if found is None:
        raise CustomIdError(f"malformed {what} id {text[:MAX_LENGTH]!r}")
    return found


def _version(text: str) -> Version:
    """The table version a custom id carries (the table's own value, :class:`Version`)."""
    try:
        return Version.parse(text)
    except ValueError:
        raise CustomIdError(f"malformed table version id {text[:MAX_LENGTH]!r}") from None


@dataclass(frozen=True, slots=True)
class GameChoice:
    """A dealer's choice in progress: the game's slug and the modifiers ticked so far.

    Written ``slug~mod,mod`` with each modifier's ``:`` as ``=`` (``:`` separates the fields
    of the custom id).

    >>> GameChoice.parse("lowball~wild=2,bug")
    GameChoice(slug='lowball', mods=('wild:2', 'bug'))
    >>> GameChoice.parse("razz~"), GameChoice.parse("")  # "": the table's default game
    (GameChoice(slug='razz', mods=()), GameChoice(slug='', mods=()))
    """

    slug: str
    mods: tuple[str, ...] = ()

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        r"([a-z0-9-]*)(?:~((?:[a-z0-9=-]+)(?:,[a-z0-9=-]+)*)?)?"
    )

    def encode(self) -> str:
        if not self.slug and not self.mods:
            return ""
        return f"{self.slug}~{','.join(m.replace(':', '=') for m in self.mods)}"

    @classmethod
    def parse(cls, text: str) -> GameChoice:
        found = _match(cls._PATTERN, text, "game choice")
        mods = tuple(m.replace("=", ":") for m in (found[2] or "").split(",") if m)
        if text and "~" not in text:
            # ``slug`` alone is not what encode() writes (it always adds ``~``).
            raise CustomIdError(f"malformed game choice id {text!r}")
        return cls(found[1], mods)

    def or_default(self, default: str) -> GameChoice:
        return self if self.slug else GameChoice(default, self.mods)


def _picks(text: str) -> tuple[int, ...]:
    """Card positions in a hand, ``0.2.4``; each at most once."""
    if not text:
        return ()
    if not re.fullmatch(r"[0-9]{1,2}(?:\.[0-9]{1,2}){0,15}", text):
        raise CustomIdError(f"malformed card positions {text!r}")
    picks = tuple(int(p) for p in text.split("."))
    if len(set(picks)) != len(picks):
        raise CustomIdError(f"a card is picked twice in {text!r}")
    return picks


def _picks_text(picks: tuple[int, ...]) -> str:
    return ".".join(str(i) for i in picks)


LobbyVerb: TypeAlias = Literal["sit", "stand", "deal", "settings", "hand", "rules", "rebuy"]
TableVerb: TypeAlias = Literal[
    "fold", "foldanyway", "check", "call", "allin", "amount", "private", "pat", "to"
]
PanelKind: TypeAlias = Literal["draw", "pass", "arrange", "declare", "keep", "choose", "show"]
SelectKind: TypeAlias = Literal["draw", "pass", "arrange", "cg", "cw", "cr", "ch"]
CHOICE_KINDS: Final = ("cg", "cw", "cr", "ch")
"""The dealer's choice menus (the game, then three of modifiers): their ids carry the choice."""
RulesField: TypeAlias = Literal["flags", "newcomers", "draw"]
SeatChoice: TypeAlias = Literal["checkfold", "callany", "clear", "sitout", "back"]

_DIRECTIONS: Final = ("high", "low", "both")
_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "declare": _DIRECTIONS,
    "keep": ("up", "down"),
    "show": ("show", "muck"),
}
_CARD_KINDS: Final = ("draw", "pass", "arrange")


def _alternatives(alias: object) -> str:
    return "|".join(get_args(alias))


@dataclass(frozen=True, slots=True)
class LobbyButton:
    """``pk:l:{table}:{verb}``: a button of the table between hands (and My hand)."""

    table: int
    verb: LobbyVerb

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"pk:l:{_ID}:({_alternatives(LobbyVerb)})")

    def encode(self) -> str:
        return f"pk:l:{self.table}:{self.verb}"

    @classmethod
    def parse(cls, text: str) -> LobbyButton:
        found = _match(cls._PATTERN, text, "lobby button")
        return cls(int(found[1]), cast(LobbyVerb, found[2]))


@dataclass(frozen=True, slots=True)
class TableButton:
    """``pk:t:{table}:{version}:{verb}``: a betting button, the one opening a private panel,
    ``pat`` (stand pat without opening the draw panel), or ``foldanyway`` (a fold confirmed
    where checking was free).

    ``to`` carries its amount (``to40`` = bet or raise to 40).
    """

    table: int
    version: Version
    verb: TableVerb
    amount: int | None = None

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"pk:t:{_ID}:([0-9.]+):"
        rf"(foldanyway|fold|check|call|allin|amount|private|pat|to([1-9][0-9]{{0,11}}))"
    )

    def __post_init__(self) -> None:
        if (self.verb == "to") != (self.amount is not None):
            raise CustomIdError("an amount goes with the 'to' verb, and only with it")

    def encode(self) -> str:
        verb = f"to{self.amount}" if self.verb == "to" else self.verb
        return f"pk:t:{self.table}:{self.version}:{verb}"

    @classmethod
    def parse(cls, text: str) -> TableButton:
        found = _match(cls._PATTERN, text, "table button")
        version = _version(found[2])
        if found[4] is not None:
            return cls(int(found[1]), version, "to", int(found[4]))
        return cls(int(found[1]), version, cast(TableVerb, found[3]))


@dataclass(frozen=True, slots=True)
class PanelButton:
    """``pk:p:{table}:{hand}.{street}:{kind}:{payload}``: the button that makes a private
    choice, for the round (``street``, see :meth:`tables.live.LiveTable.street`) of hand
    ``hand`` the panel was made in.

    The payload by kind: ``draw``/``pass``/``arrange`` the chosen card positions (``0.3``),
    ``declare`` a direction, ``keep`` ``up`` or ``down``, ``show`` ``show`` or ``muck``,
    ``choose`` a :class:`GameChoice`.
    """

    table: int
    hand: int
    kind: PanelKind
    picks: tuple[int, ...] = ()
    word: str = ""
    choice: GameChoice | None = None
    street: int = 0

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"pk:p:{_ID}:{_COUNT}\.{_COUNT}:({_alternatives(PanelKind)}):([a-z0-9.,~=-]*)"
    )

    def encode(self) -> str:
        return f"pk:p:{self.table}:{self.hand}.{self.street}:{self.kind}:{self._payload()}"

    def _payload(self) -> str:
        if self.kind in _CARD_KINDS:
            return _picks_text(self.picks)
        if self.kind == "choose":
            return (self.choice or GameChoice("")).encode()
        return self.word

    @classmethod
    def parse(cls, text: str) -> PanelButton:
        found = _match(cls._PATTERN, text, "private choice")
        table, hand, street, payload = int(found[1]), int(found[2]), int(found[3]), found[5]
        kind = cast(PanelKind, found[4])
        if kind in _CARD_KINDS:
            return cls(table, hand, kind, picks=_picks(payload), street=street)
        if kind == "choose":
            choice = GameChoice.parse(payload)
            if not choice.slug:
                raise CustomIdError(f"no game in the choice {text!r}")
            return cls(table, hand, kind, choice=choice, street=street)
        allowed = _WORDS[kind]
        if payload not in allowed:
            raise CustomIdError(f"{kind} takes one of {', '.join(allowed)}, not {payload!r}")
        return cls(table, hand, kind, word=payload, street=street)


@dataclass(frozen=True, slots=True)
class SeatPanelButton:
    """``pk:s:{table}:{hand}:{choice}``: a button of a player's own panel (My hand): tick a
    pre-action for hand ``hand`` (``checkfold``, ``callany``, ``clear``), or sit out from the
    next hand / come back (``sitout``, ``back``).

    >>> SeatPanelButton(7, 3, "callany").encode()
    'pk:s:7:3:callany'
    """

    table: int
    hand: int
    choice: SeatChoice

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"pk:s:{_ID}:{_COUNT}:({_alternatives(SeatChoice)})"
    )

    def encode(self) -> str:
        return f"pk:s:{self.table}:{self.hand}:{self.choice}"

    @classmethod
    def parse(cls, text: str) -> SeatPanelButton:
        found = _match(cls._PATTERN, text, "seat panel button")
        return cls(int(found[1]), int(found[2]), cast(SeatChoice, found[3]))


@dataclass(frozen=True, slots=True)
class PanelSelect:
    """``pks:{table}:{hand}.{street}:{kind}:{payload}``: a select of a private panel (of a
    round of a hand, as :class:`PanelButton`).

    ``draw``/``pass`` carry nothing (the select's values are the choice), ``arrange`` the
    order chosen so far, ``cg``/``cw``/``cr`` (game, wild cards, house rules) the dealer's
    :class:`GameChoice` so far.
    """

    table: int
    hand: int
    kind: SelectKind
    picks: tuple[int, ...] = ()
    choice: GameChoice | None = None
    street: int = 0

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"pks:{_ID}:{_COUNT}\.{_COUNT}:({_alternatives(SelectKind)}):([a-z0-9.,~=-]*)"
    )

    def encode(self) -> str:
        if self.kind in CHOICE_KINDS:
            payload = (self.choice or GameChoice("")).encode()
        else:
            payload = _picks_text(self.picks)
        return f"pks:{self.table}:{self.hand}.{self.street}:{self.kind}:{payload}"

    @classmethod
    def parse(cls, text: str) -> PanelSelect:
        found = _match(cls._PATTERN, text, "private select")
        table, hand, street, payload = int(found[1]), int(found[2]), int(found[3]), found[5]
        kind = cast(SelectKind, found[4])
        if kind in CHOICE_KINDS:
            return cls(table, hand, kind, choice=GameChoice.parse(payload), street=street)
        if kind != "arrange" and payload:
            raise CustomIdError(f"a {kind} select carries no payload, not {payload!r}")
        return cls(table, hand, kind, picks=_picks(payload), street=street)


@dataclass(frozen=True, slots=True)
class AmountModalId:
    """``pkm:{table}:{version}``: the bet-or-raise amount modal."""

    table: int
    version: Version

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"pkm:{_ID}:([0-9.]+)")

    def encode(self) -> str:
        return f"pkm:{self.table}:{self.version}"

    @classmethod
    def parse(cls, text: str) -> AmountModalId:
        found = _match(cls._PATTERN, text, "amount modal")
        return cls(int(found[1]), _version(found[2]))


@dataclass(frozen=True, slots=True)
class SitModalId:
    """``pkm:sit:{table}``: the Sit down modal (buy-in and seat).

    >>> SitModalId.parse("pkm:sit:7")
    SitModalId(table=7)
    """

    table: int

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"pkm:sit:{_ID}")

    def encode(self) -> str:
        return f"pkm:sit:{self.table}"

    @classmethod
    def parse(cls, text: str) -> SitModalId:
        return cls(int(_match(cls._PATTERN, text, "sit modal")[1]))


@dataclass(frozen=True, slots=True)
class RulesSelect:
    """``pks:r:{table}:{field}``: a select of the Settings panel that changes the table's house
    rules (``flags``: the on/off rules, ``newcomers``, ``draw``: the draw limit); the select's
    values are the choice.

    >>> RulesSelect.parse("pks:r:7:newcomers")
    RulesSelect(table=7, field='newcomers')
    """

    table: int
    field: RulesField

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"pks:r:{_ID}:({_alternatives(RulesField)})")

    def encode(self) -> str:
        return f"pks:r:{self.table}:{self.field}"

    @classmethod
    def parse(cls, text: str) -> RulesSelect:
        found = _match(cls._PATTERN, text, "house rules select")
        return cls(int(found[1]), cast(RulesField, found[2]))


PageDirection: TypeAlias = Literal["p", "n"]

PAGE_KIND: Final = r"[a-z][a-z0-9_]{0,19}"
PAGE_KEY: Final = r"[A-Za-z0-9_.\-]{1,40}"
MAX_PAGE_OFFSET: Final = 999_999_999


@dataclass(frozen=True, slots=True)
class PageId:
    """``pg:{kind}:{owner}:{key}:{offset}:{p|n}``: Previous or Next of a list of pages
    (:mod:`cogs.ui.paginator`): the page of ``kind``/``key`` at ``offset``; ``owner`` 0 lets
    anyone turn the pages, otherwise only that member may.

    >>> PageId("history", 42, "1234", 20, "n").encode()
    'pg:history:42:1234:20:n'
    >>> PageId("History", 0, "k", 0, "n")
    Traceback (most recent call last):
    ...
    cogs.ui.custom_ids.CustomIdError: page kind must match [a-z][a-z0-9_]{0,19}, got 'History'
    """

    kind: str
    owner: int
    key: str
    offset: int
    direction: PageDirection

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"pg:({PAGE_KIND}):([0-9]{{1,20}}):({PAGE_KEY}):([0-9]{{1,9}}):([pn])"
    )

    def __post_init__(self) -> None:
        if not re.fullmatch(PAGE_KIND, self.kind):
            raise CustomIdError(f"page kind must match {PAGE_KIND}, got {self.kind!r}")
        if not re.fullmatch(PAGE_KEY, self.key):
            raise CustomIdError(f"page key must match {PAGE_KEY}, got {self.key!r}")
        if not 0 <= self.offset <= MAX_PAGE_OFFSET:
            raise CustomIdError(f"page offset out of range: {self.offset}")
        if self.owner < 0:
            raise CustomIdError(f"page owner id must be >= 0, got {self.owner}")
        if self.direction not in ("p", "n"):
            raise CustomIdError(f"page direction is 'p' or 'n', not {self.direction!r}")
        if len(self.encode()) > MAX_LENGTH:
            raise CustomIdError(f"a custom id is at most {MAX_LENGTH} characters")

    def encode(self) -> str:
        return f"pg:{self.kind}:{self.owner}:{self.key}:{self.offset}:{self.direction}"

    @classmethod
    def parse(cls, text: str) -> PageId:
        found = _match(cls._PATTERN, text, "page button")
        direction = cast(PageDirection, found[5])
        return cls(found[1], int(found[2]), found[3], int(found[4]), direction)


TournamentVerb: TypeAlias = Literal["register", "unregister", "start", "rebuy", "decline"]


@dataclass(frozen=True, slots=True)
class TournamentButton:
    """``trn:{verb}:{tournament}``: a button of a tournament's lobby, naming its tournament
    (a lobby's buttons act on their own tournament, not on the one now in the channel); also
    a tournament table's Rebuy and No rebuy, offered to a player left without chips.

    ``trn:{verb}`` (``tournament`` None) is what lobbies posted before the id was carried
    wrote: those act on the tournament whose lobby the pressed message is.

    >>> TournamentButton.parse("trn:register:12")
    TournamentButton(verb='register', tournament=12)
    >>> TournamentButton.parse("trn:register")
    TournamentButton(verb='register', tournament=None)
    """

    verb: TournamentVerb
    tournament: int | None = None

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(
        rf"trn:({_alternatives(TournamentVerb)})(?::([1-9][0-9]{{0,18}}))?"
    )

    def encode(self) -> str:
        if self.tournament is None:
            return f"trn:{self.verb}"
        return f"trn:{self.verb}:{self.tournament}"

    @classmethod
    def parse(cls, text: str) -> TournamentButton:
        found = _match(cls._PATTERN, text, "tournament button")
        tournament = None if found[2] is None else int(found[2])
        if tournament is not None and tournament > MAX_ID:  # no tournament has it
            raise CustomIdError(f"tournament button id out of range {text[:MAX_LENGTH]!r}")
        return cls(cast(TournamentVerb, found[1]), tournament)


@dataclass(frozen=True, slots=True)
class ReplayButton:
    """``pk:r:{hand}``: the Replay button of a hand's result message. It names the hand
    (its id in the history), not the table: a closed table's results still replay.

    >>> ReplayButton(12).encode()
    'pk:r:12'
    """

    hand: int

    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(rf"pk:r:{_ID}")

    def encode(self) -> str:
        return f"pk:r:{self.hand}"

    @classmethod
    def parse(cls, text: str) -> ReplayButton:
        hand = int(_match(cls._PATTERN, text, "replay button")[1])
        if hand > MAX_ID:  # no hand has it: the database's ids stop there
            raise CustomIdError(f"replay button id out of range {text[:MAX_LENGTH]!r}")
        return cls(hand)


TableId: TypeAlias = (
    LobbyButton
    | TableButton
    | PanelButton
    | SeatPanelButton
    | PanelSelect
    | RulesSelect
    | AmountModalId
    | SitModalId
)
"""The ids of a table's components: each names its table (``.table``)."""

PokerId: TypeAlias = TableId | PageId | TournamentButton | ReplayButton
"""Every component id this bot writes."""

TABLE_KINDS: Final = (
    LobbyButton,
    TableButton,
    PanelButton,
    SeatPanelButton,
    PanelSelect,
    RulesSelect,
    AmountModalId,
    SitModalId,
)

MODAL_KINDS: Final = (AmountModalId, SitModalId)
"""The kinds submitted as a modal (every other kind is pressed on a message)."""

_CODECS: Final[tuple[tuple[str, type[PokerId]], ...]] = (
    ("pk:l:", LobbyButton),
    ("pk:r:", ReplayButton),
    ("pk:t:", TableButton),
    ("pk:p:", PanelButton),
    ("pk:s:", SeatPanelButton),
    ("pks:r:", RulesSelect),  # before "pks:", which it also starts with
    ("pks:", PanelSelect),
    ("pkm:sit:", SitModalId),  # before "pkm:", which it also starts with
    ("pkm:", AmountModalId),
    ("pg:", PageId),
    ("trn:", TournamentButton),
)

PREFIXES: Final = ("pk:", "pks:", "pkm:", "pg:", "trn:")
"""Every custom id this bot writes starts with one of these (a cheap test before parsing)."""


def parse_custom_id(text: str) -> PokerId | None:
    """The component ``text`` names; ``None`` when no codec's prefix starts it.

    :raises CustomIdError: for a known prefix with anything :meth:`encode` would not write.
    """
    if not text.startswith(PREFIXES):
        return None
    if len(text) > MAX_LENGTH:
        raise CustomIdError(f"a custom id is at most {MAX_LENGTH} characters")
    for prefix, codec in _CODECS:
        if text.startswith(prefix):
            parsed = codec.parse(text)
            if parsed.encode() != text:
                raise CustomIdError(f"{text!r} is not written the way this bot writes it")
            return parsed
    raise CustomIdError(f"unknown component {text!r}")

"""How a night's ledger and settle-up read: the embed and the CSV file (pure formatting).

Every text a player sees is one of the named templates below (``{placeholder}`` fields), so that
the translation layer can take them over as they are. Chips are play money: amounts are chips,
never a currency, and nothing here links to a payment.

The CSV has PokerNow's ledger columns (:data:`CSV_COLUMNS`) so the settle-up tools built for
PokerNow's export read it: one row per player per table (a session), times in ISO 8601 (UTC),
``buy_in`` every chip brought (rebuys included), ``buy_out`` every chip taken back, ``stack``
what is still in front of the player, ``net = buy_out + stack - buy_in``. A nickname that
a spreadsheet would read as a formula starts with an apostrophe (:func:`text_cell`).

>>> from data.ledger import LedgerLine
>>> line = LedgerLine(5, 200, 200, 2, 0, 150, True, 0.0, None)
>>> player_line("Bob", line)
'**Bob** · in 200 + 2 rebuys (200) · stack 150 · net **−250**'
>>> signed(0), signed(120), signed(-5)
('0', '+120', '−5')
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import discord
from babel.numbers import format_decimal

from cogs import kit
from cogs.translator import _
from data.ledger import LedgerLine, NightLedger, TableLedger
from engine.settle import Transfer, UnbalancedNets, settle
from i18n import Language, LazyString, current_language, speaking

# -- the texts (one place, named placeholders) ------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A message of the cogs' catalogue, rendered when it is read: ``str(text)`` in the current
    language, ``text.format(**values)`` with its placeholders filled (``language=`` to choose)."""

    message: LazyString

    def format(self, *, language: Language | None = None, **values: object) -> str:
        return self.message.render(language, **values)

    def __str__(self) -> str:
        return self.message.render()


TITLE: Final = Text(_.lazy("Ledger · table {table}"))
TITLE_CLOSED: Final = Text(_.lazy("Ledger · table {table} (closed)"))
NOBODY: Final = Text(_.lazy("Nobody bought in at this table."))
# Translators: a player's line of the ledger; {where}: their stack or what they cashed out;
# {net}: what they won or lost, with its sign.
LINE: Final = Text(_.lazy("**{name}** · in {buy_in} · {where} · net **{net}**"))
# Translators: a ledger line of a player who rebought {count} times for {chips} chips in all.
LINE_REBUYS: Final = _.lazy_plural(
    "**{name}** · in {buy_in} + {count} rebuy ({chips}) · {where} · net **{net}**",
    "**{name}** · in {buy_in} + {count} rebuys ({chips}) · {where} · net **{net}**",
)
STACK: Final = Text(_.lazy("stack {stack}"))
CASHED_OUT: Final = Text(_.lazy("cashed out {chips}"))
LEFT_EARLY: Final = Text(_.lazy("left with {chips}"))
STACK_AND_OUT: Final = Text(_.lazy("stack {stack}, cashed out {chips}"))
NIGHT_FIELD: Final = _.lazy_plural("The night: {count} table", "The night: {count} tables")
NIGHT_LINE: Final = Text(_.lazy("**{name}** · net **{net}**"))
SETTLE_FIELD: Final = Text(_.lazy("Settle-up"))
# Translators: one transfer of the settle-up: {payer} gives {payee} play chips.
SETTLE_LINE: Final = _.lazy_plural(
    "{payer} → {payee}: {count} chip", "{payer} → {payee}: {count} chips"
)
SETTLE_EVEN: Final = Text(_.lazy("Everyone is even: nothing to settle."))
SETTLE_IN_PLAY: Final = _.lazy_plural(
    "A hand is being played ({count} chip in the pot): settle up once it ends.",
    "A hand is being played ({count} chips in the pot): settle up once it ends.",
)
# Translators: between hands, a pot nobody won (a passed-out deal) waits for the next deal.
SETTLE_CARRIED: Final = _.lazy_plural(
    "{count} chip waits in the middle for the next deal: settle up once a hand wins it.",
    "{count} chips wait in the middle for the next deal: settle up once a hand wins them.",
)
# Translators: the ledger's footer. Chips are play money: say nothing of money or payments.
FOOTER: Final = Text(
    _.lazy("Play chips only: no money changes hands. CSV in PokerNow's ledger format.")
)
# Translators: the CSV file's description (its alt text).
CSV_DESCRIPTION: Final = Text(_.lazy("The ledger in PokerNow's columns"))
# Translators: a player the ledger has no name for; {id}: their Discord id.
UNKNOWN_PLAYER: Final = Text(_.lazy("player {id}"))
NO_TABLE: Final = Text(_.lazy("This channel has had no table yet; give a table id."))
NO_SUCH_TABLE: Final = Text(_.lazy("There is no table\u00a0#{table} in this server."))
TOURNAMENT_TABLE: Final = Text(
    _.lazy(
        "A tournament table has no cash ledger: its chips are tournament chips "
        "(see the tournament's results)."
    )
)
SERVER_ONLY: Final = Text(
    _.lazy("The ledger is kept per server: use this command in a server channel.")
)

CSV_COLUMNS: Final = (
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
)

FIELD_LIMIT: Final = kit.FIELD_LIMIT
DESCRIPTION_LIMIT: Final = kit.DESCRIPTION_LIMIT

# -- pieces -----------------------------------------------------------------------------------


def _number(amount: int) -> str:
    return format_decimal(amount, locale=current_language().locale)


def signed(amount: int) -> str:
    """A net with its sign (a real minus sign, easier to read than a hyphen)."""
    if amount > 0:
        return f"+{_number(amount)}"
    if amount < 0:
        return f"−{_number(-amount)}"
    return "0"


def name_of(names: Mapping[int, str], player_id: int) -> str:
    return names.get(player_id) or UNKNOWN_PLAYER.format(id=str(player_id))


def player_line(name: str, line: LedgerLine) -> str:
    if line.seated and line.cashed_out:
        where = STACK_AND_OUT.format(stack=line.stack, chips=line.cashed_out)
    elif line.seated:
        where = STACK.format(stack=line.stack)
    elif line.cashed_out or line.ended_at is not None:
        where = CASHED_OUT.format(chips=line.cashed_out)
    else:
        where = STACK.format(stack=line.stack)
    values: dict[str, Any] = {
        "name": name,
        "buy_in": line.buy_in,
        "where": where,
        "net": signed(line.net),
    }
    if line.rebuy_count:
        return LINE_REBUYS.render(line.rebuy_count, chips=line.rebuys, **values)
    return LINE.format(**values)


def transfer_line(transfer: Transfer, names: Mapping[int, str]) -> str:
    """One transfer of the settle-up, players by name.

    >>> transfer_line(Transfer("6", "5", 120), {5: "Alice", 6: "Bob"})
    'Bob → Alice: 120 chips'
    """
    return SETTLE_LINE.render(
        transfer.amount,
        payer=name_of(names, int(transfer.payer)),
        payee=name_of(names, int(transfer.payee)),
    )


def settle_up(night: NightLedger) -> tuple[Transfer, ...] | None:
    """The night's transfers (player ids as text); None while chips are in a pot."""
    try:
        return settle({str(player): net for player, net in night.nets().items()})
    except UnbalancedNets:
        return None


def settle_lines(night: NightLedger, names: Mapping[int, str]) -> list[str]:
    transfers = settle_up(night)
    if transfers is None:
        in_play = sum(t.in_play for t in night.night)
        dealing = any(t.table.current_hand_id is not None for t in night.night)
        return [(SETTLE_IN_PLAY if dealing else SETTLE_CARRIED).render(in_play)]
    if not transfers:
        return [str(SETTLE_EVEN)]
    return [transfer_line(t, names) for t in transfers]


# -- the embed --------------------------------------------------------------------------------


def ledger_embed(
    night: NightLedger, names: Mapping[int, str], *, language: Language | None = None
) -> discord.Embed:
    """The table's ledger, the night's nets when several tables ran, and the settle-up, in
    ``language`` (default: the current one; the channel's when the table closes)."""
    with speaking(language or current_language()):
        return _ledger_embed(night, names)


def _ledger_embed(night: NightLedger, names: Mapping[int, str]) -> discord.Embed:
    # Nicknames are the members' own text: shown as typed, not as markdown or as a mention of
    # someone else (the CSV keeps them raw).
    names = {player: kit.as_typed(name) for player, name in names.items()}
    table = night.table.table
    title = TITLE_CLOSED if table.status == "closed" else TITLE
    lines = [player_line(name_of(names, ln.player_id), ln) for ln in night.table.lines]
    embed = discord.Embed(
        # An id, written as typed (``table:1000``), not as an amount ("1,000").
        title=title.format(table=str(table.table_id)),
        description=kit.fit_lines(lines or [str(NOBODY)], DESCRIPTION_LIMIT),
        colour=kit.GREY if table.status == "closed" else kit.GREEN,
    )
    nets = sorted(night.nets().items(), key=lambda item: (-item[1], item[0]))
    if len(night.night) > 1 and nets:  # a field with no line is refused by Discord
        embed.add_field(
            name=NIGHT_FIELD.render(len(night.night)),
            value=kit.fit_lines(
                [
                    NIGHT_LINE.format(name=name_of(names, player), net=signed(net))
                    for player, net in nets
                ],
                FIELD_LIMIT,
            ),
            inline=False,
        )
    embed.add_field(
        name=str(SETTLE_FIELD),
        value=kit.fit_lines(settle_lines(night, names), FIELD_LIMIT),
        inline=False,
    )
    embed.set_footer(text=str(FOOTER))
    return embed


# -- the CSV ----------------------------------------------------------------------------------


def iso(unix: float | None) -> str:
    """A time as PokerNow writes it (ISO 8601, UTC, milliseconds); empty for none.

    >>> iso(0.25), iso(None)
    ('1970-01-01T00:00:00.250Z', '')
    """
    if unix is None:
        return ""
    moment = datetime.fromtimestamp(unix, tz=UTC).isoformat(timespec="milliseconds")
    return moment.replace("+00:00", "Z")


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (or strip to one) when it opens a CSV."""


def text_cell(text: str) -> str:
    """A member-chosen text as a CSV cell a spreadsheet shows as text: one that would start a
    formula (``=HYPERLINK(...)``, ``+1``, ``@SUM(...)``) is written after an apostrophe, which
    spreadsheets read as "this is text" and do not show.

    >>> text_cell("Ana"), text_cell("=HYPERLINK(1)"), text_cell("-Bo-"), text_cell("@x")
    ('Ana', "'=HYPERLINK(1)", "'-Bo-", "'@x")
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_rows(tables: Iterable[TableLedger], names: Mapping[int, str]) -> list[list[str]]:
    rows = []
    for ledger in tables:
        closed_at = ledger.table.closed_at
        for line in ledger.lines:
            end = line.ended_at
            if end is None and not line.seated:  # never cashed out: gone when the table closed
                end = closed_at
            rows.append(
                [
                    text_cell(name_of(names, line.player_id)),
                    str(line.player_id),
                    iso(line.started_at),
                    iso(end),
                    str(line.brought),
                    str(line.cashed_out),
                    str(line.stack),
                    str(line.net),
                ]
            )
    return rows


def ledger_csv(night: NightLedger, names: Mapping[int, str]) -> str:
    """Every session of the night (one table: that table's), PokerNow's columns."""
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180: CRLF rows, fields with any line break quoted
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_rows(night.night, names))
    return out.getvalue()


def csv_name(night: NightLedger) -> str:
    """The file's name: the table's, or the night's first and last tables'.

    >>> from data.models import Table
    >>> t = Table(7, 1, 2, 3, "open", "{}", None, 0, None, None, 0.0, 0.0, None)
    >>> csv_name(NightLedger(TableLedger(t, ()), (TableLedger(t, ()),)))
    'ledger-table-7.csv'
    """
    ids = [t.table.table_id for t in night.night]
    if len(ids) <= 1:
        return f"ledger-table-{night.table.table.table_id}.csv"
    return f"ledger-night-{ids[0]}-{ids[-1]}.csv"


def ledger_file(night: NightLedger, names: Mapping[int, str]) -> discord.File:
    return kit.attachment(ledger_csv(night, names).encode(), csv_name(night), str(CSV_DESCRIPTION))

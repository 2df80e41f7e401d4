"""The tournament extension: sit-and-gos, multi-table events and scheduled poker nights.

:mod:`.cog` carries a tournament out (the ``Tournaments`` cog), :mod:`.entries` registers and
pays (a collaborator of that cog), :mod:`.run` holds the running record and shared checks,
:mod:`.nights` schedules poker nights (the ``PokerNights`` cog, loaded with it), with the
pure rules of a series and its game poll in :mod:`.series`.
"""

from cogs.tournament.cog import Tournaments, setup, teardown
from cogs.tournament.nights import PokerNights

__all__ = ["PokerNights", "Tournaments", "setup", "teardown"]

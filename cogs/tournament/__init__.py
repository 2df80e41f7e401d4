"""The tournament extension: sit-and-gos, multi-table events and scheduled poker nights.

:mod:`.cog` carries a tournament out, :mod:`.entries` registers and pays, :mod:`.run` holds
the running record and shared checks, :mod:`.nights` schedules poker nights.
"""

from cogs.tournament.cog import Tournaments, setup, teardown

__all__ = ["Tournaments", "setup", "teardown"]

"""Running tables: the Discord-free service that joins the engine to the data layer.

:mod:`tables.service` holds every open table and its operations, :mod:`tables.live` the state
of one table, :mod:`tables.records` and :mod:`tables.clock` the service's two collaborators
(what is written to disk; the timers and house players' turns), :mod:`tables.errors` the
refusal family and :mod:`tables.worker` the odds thread. Nothing here imports discord: the
bot's presenter (:mod:`cogs.presenter`) turns outcomes into messages, and keeps what Discord
shows of a table, which the service saves with it without reading it.
"""

"""warlog: an event-sourced rules engine and arbiter for wargames.

The package's parts live in the repository's top-level folders and install under this name:
``warlog.domain`` (the rules), ``warlog.eventstore`` (the log), ``warlog.arbiter`` (the
application), ``warlog.projections`` (read models) and ``warlog.cli`` (the command line).
"""

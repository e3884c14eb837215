"""The arbiter over HTTP for tournaments (`warlog serve`): many games in one process, every
player allowed only their own commands and view (docs/server.md)."""

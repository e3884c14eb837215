"""Following other processes' appends: LISTEN on the store's channel, on a thread of its own.

Each batch a PostgreSQL store commits is announced (``pg_notify`` in its transaction, delivered
at commit) as ``[origin, game, first, last]``. A Follower holds one connection that LISTENs,
and calls ``on_append(game, first, last)`` for each announcement from another origin: no
polling, and a batch is announced only once it can be read. If the connection is lost, it
connects again (waiting longer each time, up to a few seconds) and then calls ``on_gap()``:
whatever was announced meanwhile is lost, so the caller must look again at what it follows.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import Any

#: how often the thread looks whether it was asked to stop, in seconds
POLL_STOP = 0.5
#: the longest wait between two attempts to connect again
MAX_BACKOFF = 5.0


class Follower:
    """Listens to ``channel`` of the database at ``dsn`` until ``close``."""

    def __init__(
        self,
        dsn: str,
        channel: str,
        origin: str,
        on_append: Callable[[str, int, int], None],
        on_gap: Callable[[], None],
    ) -> None:
        self._dsn = dsn
        self._channel = channel
        self._origin = origin
        self._on_append = on_append
        self._on_gap = on_gap
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while LISTEN is in force (tests wait on it)
        self._thread = threading.Thread(target=self._run, name="warlog-follow", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening (within ``POLL_STOP`` seconds) and wait for the thread."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def _run(self) -> None:
        import psycopg
        from psycopg import sql

        backoff = 0.1
        lost = False
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._dsn, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
                    self.listening.set()
                    backoff = 0.1
                    if lost:
                        self._call(self._on_gap)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=POLL_STOP):
                            self._announced(note.payload)
            except psycopg.Error:
                self.listening.clear()
                lost = True
                self._stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
        self.listening.clear()

    def _announced(self, payload: str) -> None:
        try:
            origin, game, first, last = json.loads(payload)
        except (ValueError, TypeError):
            return  # not a warlog announcement: someone else's NOTIFY on the channel
        # any role that may connect may NOTIFY (a player's too): a note shaped like ours but not
        # one is passed over, since a follower that died of it would leave the feeds deaf
        if not (isinstance(game, str) and type(first) is int and type(last) is int):
            return
        if origin != self._origin:
            self._call(self._on_append, game, first, last)

    @staticmethod
    def _call(fn: Callable[..., Any], *args: Any) -> None:
        # a listener must not raise; the thread must not die of one that does
        with contextlib.suppress(Exception):
            fn(*args)

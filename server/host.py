"""The one thread that owns the server's Arbiter: every application call runs on it, in order.

An SQLite connection belongs to the thread that opened it, and one arbiter process writes a
game's log in one place: so the Arbiter is opened on a single worker thread and every request
hands it a function to run there (``await host.call(fn)``). Calls run one at a time in the order
they were made, which is the order commands to a game are applied (and a command's ``If-Match``
check and its append are one call, so nothing comes between them). The event loop never waits on
SQLite: it goes on reading requests and writing feeds meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import TypeVar

from warlog.arbiter.application import Arbiter

T = TypeVar("T")


class ArbiterHost:
    """An Arbiter opened by ``open_arbiter`` on a worker thread of its own (opened at once, so
    that a database that cannot be used is reported before the server listens)."""

    def __init__(self, open_arbiter: Callable[[], Arbiter]) -> None:
        self._open_arbiter = open_arbiter
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._arbiter: Arbiter | None = None
        self.open()

    def open(self) -> None:
        """Open the Arbiter on a new thread, unless it is open (the app starting again)."""
        if self._executor is not None:
            return
        executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="arbiter")
        try:  # opened there, so that its connections belong to that thread
            self._arbiter = executor.submit(self._open_arbiter).result()
        except BaseException:
            executor.shutdown()
            raise
        self._executor = executor

    async def call(self, fn: Callable[[Arbiter], T]) -> T:
        """``fn(arbiter)`` run on the arbiter's thread, after every call made before it."""
        if self._executor is None:
            raise RuntimeError("the arbiter is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._run, fn)

    def _run(self, fn: Callable[[Arbiter], T]) -> T:
        assert self._arbiter is not None
        return fn(self._arbiter)

    def close(self) -> None:
        """Close the Arbiter on its thread, after every call already made, and stop the thread
        (again: nothing)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        try:
            executor.submit(self._run, lambda arb: arb.close()).result()
        finally:
            executor.shutdown()
            self._arbiter = None

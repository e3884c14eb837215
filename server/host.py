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
    """An Arbiter opened by ``open_arbiter`` on a worker thread of its own."""

    def __init__(self, open_arbiter: Callable[[], Arbiter]) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="arbiter")
        self._closed = False
        try:  # opened there, so that its connections belong to that thread
            self._arbiter = self._executor.submit(open_arbiter).result()
        except BaseException:
            self._executor.shutdown()
            raise

    async def call(self, fn: Callable[[Arbiter], T]) -> T:
        """``fn(arbiter)`` run on the arbiter's thread, after every call made before it."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, self._arbiter)

    def call_blocking(self, fn: Callable[[Arbiter], T]) -> T:
        """``fn(arbiter)`` on the arbiter's thread, waited for (outside the event loop)."""
        return self._executor.submit(fn, self._arbiter).result()

    def close(self) -> None:
        """Close the Arbiter on its thread, after every call already made, and stop the thread
        (again: nothing)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.call_blocking(lambda arb: arb.close())
        finally:
            self._executor.shutdown()

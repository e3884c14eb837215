"""Pacing: answers leave on a fixed tick, so that how long the arbiter took to answer does not
tell a player the other side's secrets.

A read walks every army before it keeps what the reader may see, and deciding a move checks the
mover's sightings against every enemy army in range, hidden or not: their time grows with the
other side's hidden armies (measured in docs/server.md, "Timing"). The bytes a player is given
do not change, but the moment they arrive does, and a read can be repeated as often as the
server allows. With a tick of T seconds an answer leaves at the first whole number of ticks (one
at least) after its request arrived, so its time says only how many ticks the work took.

What pacing does not hide: the moment a command's events become visible. A player watching its
own feed, or polling reads while its command is decided, sees when the events were appended, so
it learns how long its own command took, once per command. A live feed's frames are therefore
sent when ready: holding them to a tick would add latency and hide nothing more.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
#: an ASGI app (Litestar's types its scopes and messages more narrowly)
App = Callable[[Any, Any, Any], Awaitable[None]]

#: ticks within this of a whole number count as whole (floating point: 0.05 / 0.05 may not be 1)
WHOLE = 1e-9
#: the longest tick `warlog serve --pace` takes, in milliseconds: well within the 5 s a stopping
#: server gives the requests in progress (serve.GRACEFUL_SECONDS), so that an answer held to its
#: tick is still sent
MAX_PACE_MS = 2000


def answer_at(arrived: float, now: float, tick: float) -> float:
    """When an answer ready at ``now`` to a request that arrived at ``arrived`` leaves: the
    first whole number of ticks after its arrival, one at least."""
    return arrived + max(1, math.ceil((now - arrived) / tick - WHOLE)) * tick


async def until(loop: asyncio.AbstractEventLoop, moment: float) -> None:
    """Wait until the loop's clock reads ``moment``."""
    wait = moment - loop.time()
    if wait > 0:
        await asyncio.sleep(wait)


class Paced:
    """The ASGI app ``app`` with the head of each HTTP answer it gives held to a tick of
    ``tick`` seconds after its request arrived (the body follows it at once)."""

    def __init__(self, app: App, tick: float) -> None:
        if not (math.isfinite(tick) and tick > 0):
            raise ValueError(f"a tick is a number of seconds above 0, not {tick!r}")
        self.app = app
        self.tick = tick

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the app's start and stop
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        arrived = loop.time()

        async def paced(message: Message) -> None:
            if message["type"] == "http.response.start":
                await until(loop, answer_at(arrived, loop.time(), self.tick))
            await send(message)

        await self.app(scope, receive, paced)

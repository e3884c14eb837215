"""Pacing: answers leave on a fixed tick, so that how long the arbiter took does not tell a
player the other side's secrets.

Deciding a move checks the mover's sightings against every enemy army in range, hidden or not,
and a read walks every army before it keeps what the reader may see: their time grows with the
other side's hidden armies (measured in docs/server.md, "Timing"). The bytes a player is given
do not change, but the moment they arrive does. With a tick of T seconds:

- an answer leaves at the first whole number of ticks (one at least) after its request
  arrived, so its time says only how many ticks deciding or reading took;
- a live feed's frames leave on the server's tick grid (whole multiples of T on the event
  loop's clock): a player timing its own command by the moment its events reach its feed
  learns as little, since when its request arrived falls anywhere between two ticks.

What still shows is a step that crosses a tick: choose T above what a command takes (its
commit included) and above what a read takes.
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

#: the content type of a live feed, whose frames leave on the grid rather than once
STREAM = b"text/event-stream"


def answer_at(arrived: float, now: float, tick: float) -> float:
    """When an answer ready at ``now`` to a request that arrived at ``arrived`` leaves: the
    first whole number of ticks after its arrival, one at least."""
    return arrived + max(1, math.ceil((now - arrived) / tick - WHOLE)) * tick


def frame_at(now: float, tick: float) -> float:
    """When a feed's frame ready at ``now`` leaves: the next multiple of ``tick``."""
    return math.ceil(now / tick - WHOLE) * tick


async def until(loop: asyncio.AbstractEventLoop, moment: float) -> None:
    """Wait until the loop's clock reads ``moment``."""
    wait = moment - loop.time()
    if wait > 0:
        await asyncio.sleep(wait)


def _streams(start: Message) -> bool:
    return any(
        name.lower() == b"content-type" and value.startswith(STREAM)
        for name, value in start.get("headers", ())
    )


class Paced:
    """The ASGI app ``app`` with its HTTP answers paced on a tick of ``tick`` seconds."""

    def __init__(self, app: App, tick: float) -> None:
        if not tick > 0:
            raise ValueError(f"a tick is a number of seconds above 0, not {tick!r}")
        self.app = app
        self.tick = tick

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the app's start and stop
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        streaming = False

        async def paced(message: Message) -> None:
            nonlocal streaming
            if message["type"] == "http.response.start":
                streaming = _streams(message)
                await until(loop, answer_at(arrived, loop.time(), self.tick))
            elif streaming and message["type"] == "http.response.body":
                await until(loop, frame_at(loop.time(), self.tick))
            await send(message)

        await self.app(scope, receive, paced)

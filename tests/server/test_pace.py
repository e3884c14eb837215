"""Pacing (`warlog serve --pace MS`): answers leave a whole number of ticks after their request
arrived, so that two answers that took different times within one tick reach the player at the
same moment; a live feed's frames follow its head at once (docs/server.md, "Timing")."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests.server.conftest import ADMIN, RULESETS, served
from warlog.cli.main import cli
from warlog.domain.core.errors import InputError
from warlog.server import pace
from warlog.server.pace import MAX_PACE_MS, Paced, answer_at
from warlog.server.serve import GRACEFUL_SECONDS, serve

TICK = 0.05


class Clock:
    """A loop clock the test moves: work advances it, and waiting until a moment sets it
    there, recording the moment."""

    def __init__(self) -> None:
        self.now = 100.0
        self.waits: list[float] = []

    def time(self) -> float:
        return self.now

    async def until(self, loop: Any, moment: float) -> None:
        self.waits.append(moment)
        self.now = max(self.now, moment)


def sent_at(clock: Clock, app: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Each message ``app`` sends under pacing, and when (on ``clock``) it left."""
    monkeypatch.setattr(pace.asyncio, "get_running_loop", lambda: clock)
    monkeypatch.setattr(pace, "until", clock.until)
    out: list[tuple[str, float]] = []

    async def send(message: Any) -> None:
        out.append((message["type"], clock.now))

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    asyncio.run(Paced(app, TICK)({"type": "http"}, receive, send))
    return out


def answering_after(clock: Clock, work: float) -> Any:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        clock.now += work  # deciding or reading takes ``work`` seconds
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    return app


def test_a_tick_is_the_first_whole_number_of_ticks_after_arrival_one_at_least() -> None:
    assert answer_at(10.0, 10.0, TICK) == pytest.approx(10.05)
    assert answer_at(10.0, 10.01, TICK) == pytest.approx(10.05)
    assert answer_at(10.0, 10.05, TICK) == pytest.approx(10.05)
    assert answer_at(10.0, 10.051, TICK) == pytest.approx(10.10)


@pytest.mark.parametrize("work", [0.001, 0.004, 0.049])
def test_answers_that_took_different_times_within_a_tick_leave_at_the_same_moment(
    work: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a request arriving at 100.0 whose answer takes ``work`` (the other side's hidden
    # armies make a move's checks longer), when it is answered under a 50 ms pace
    clock = Clock()
    sent = sent_at(clock, answering_after(clock, work), monkeypatch)
    # then its head and body leave at 100.05 whatever the work took
    assert [kind for kind, _ in sent] == ["http.response.start", "http.response.body"]
    assert [at for _, at in sent] == [pytest.approx(100.05)] * 2


def test_an_answer_longer_than_a_tick_leaves_on_the_next_whole_tick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    sent = sent_at(clock, answering_after(clock, 0.07), monkeypatch)
    assert sent[0][1] == pytest.approx(100.10)


def test_a_tick_must_be_above_zero() -> None:
    with pytest.raises(ValueError, match="above 0"):
        Paced(answering_after(Clock(), 0), 0.0)


def test_warlog_serve_with_a_pace_answers_no_sooner_than_its_tick(tmp_path: Path) -> None:
    # given a server paced at 300 ms, when a client asks twice, then neither answer comes
    # before 300 ms, and each is the whole answer
    auth = {"Authorization": f"Bearer {ADMIN}"}
    with (
        served(tmp_path / "w.db", "--pace", "300") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        for _ in range(2):
            started = time.monotonic()
            answer = client.get("/rulesets", headers=auth)
            assert time.monotonic() - started >= 0.3
            assert answer.status_code == 200
            assert {r["name"] for r in answer.json()} == set(RULESETS)


@pytest.mark.parametrize("value", ["-1", "2001", "fast"])
def test_a_pace_out_of_range_is_a_usage_error(tmp_path: Path, value: str) -> None:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "serve", "--pace", value])
    assert result.exit_code == 2
    assert "Invalid value for '--pace'" in result.output
    assert not (tmp_path / "w.db").exists()


@pytest.mark.parametrize("arrival", [100.013, 100.049])
def test_an_answer_arriving_off_the_grid_leaves_whole_a_tick_after_its_arrival(
    arrival: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given a request arriving off the tick grid, whose answer takes 4 ms
    clock = Clock()
    clock.now = arrival
    # when it is answered under a 50 ms pace
    sent = sent_at(clock, answering_after(clock, 0.004), monkeypatch)
    # then its head and its body both leave one tick after it arrived, not on the grid
    assert [kind for kind, _ in sent] == ["http.response.start", "http.response.body"]
    assert [at for _, at in sent] == [pytest.approx(arrival + TICK)] * 2


def test_a_live_feeds_frames_follow_its_paced_head_as_they_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a feed whose head is ready at once and whose events are appended at 100.07 and
    # 100.071 (two batches in a burst)
    clock = Clock()

    async def feed(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"content-type", b"text/event-stream; charset=utf-8")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for appended in (100.07, 100.071):
            clock.now = appended
            await send({"type": "http.response.body", "body": b"data: {}\n\n", "more_body": True})

    # when it is sent under a 50 ms pace, then its head waits a tick and each frame leaves as it
    # comes: the moment a command's events are visible is not hidden (its own feed, or reads
    # polled meanwhile, show it), so holding frames would add latency and hide nothing
    sent = sent_at(clock, feed, monkeypatch)
    assert [at for _, at in sent] == [
        pytest.approx(100.05),
        pytest.approx(100.07),
        pytest.approx(100.071),
    ]


@pytest.mark.parametrize("pace", [-0.05, float("nan"), float("inf"), 2.001])
def test_a_bad_pace_from_python_is_refused_before_anything_is_created(
    tmp_path: Path, pace: float
) -> None:
    # given a pace no tick can be, when the server is started from Python, then it is refused
    # in one line (input/bad_pace), before the database is created or an address taken
    with pytest.raises(InputError, match="a pace is 0 to 2 seconds") as refused:
        serve(str(tmp_path / "w.db"), port=0, pace=pace)
    assert refused.value.code == "input/bad_pace"
    assert not (tmp_path / "w.db").exists()


def test_the_commands_bound_is_the_servers_and_within_its_stopping_grace() -> None:
    # the CLI writes MAX_PACE_MS out (importing the server would slow every command's start)
    [option] = [p for p in cli.commands["serve"].params if p.name == "pace"]
    assert option.type.max == MAX_PACE_MS  # type: ignore[attr-defined]
    assert MAX_PACE_MS / 1000 < GRACEFUL_SECONDS

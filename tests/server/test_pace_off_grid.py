"""Pacing of an answer whose request arrived between two ticks of the server's grid: its head
and body leave together, a whole number of ticks after its arrival; only a live feed's frames
keep to the grid (docs/server.md, "Timing")."""

from __future__ import annotations

import pytest

from tests.server.test_pace import TICK, Clock, answering_after, sent_at


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

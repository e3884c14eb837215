"""The summary `warlog state` prints, read where a dispute looks: what the game waits for in a
battle or an intercept, the winner of a finished game, and a hex where both empires stand."""

from __future__ import annotations

import pytest

from tests.recorded import recorded
from warlog.arbiter.application import Arbiter


@pytest.fixture(scope="module")
def golden() -> tuple[Arbiter, str]:
    return recorded("armageddon-empires", "ae-golden")


def test_a_decision_outside_the_turn_is_named_in_its_own_words(golden: tuple[Arbiter, str]) -> None:
    arb, game = golden
    # red's turn, blue asked whether to intercept red's air strike; then a battle's set-up
    assert arb.summary(game, 1785, "red").waiting == (
        "blue's answer to the intercept window of air strike 2 at 6,6"
    )
    assert (
        arb.summary(game, 201, "red").waiting == "blue sets up its side (p.33) in battle 1 at 3,6"
    )
    # in red's own turn the turn's orders are listed; between two events of a batch, nothing
    # (the referee's reads: a player asking for an event inside a batch is shown its end, so
    # red at 1783 is told what it is told at 1785, and at 63 what it is at 65)
    assert arb.summary(game, 1785 - 2).waiting.startswith("red acts: draw, deploy")
    assert arb.summary(game, 63).waiting == ""
    assert arb.summary(game, 1785 - 2, "red") == arb.summary(game, 1785, "red")
    assert arb.summary(game, 63, "red").waiting.startswith("red acts: draw, deploy")


def test_a_finished_game_names_its_winner(golden: tuple[Arbiter, str]) -> None:
    arb, game = golden
    assert arb.summary(game, None, "red").headline.endswith(
        "the game is over: red lost the HQ (p.15); blue wins"
    )


def test_a_hex_where_both_empires_stand_shows_both(golden: tuple[Arbiter, str]) -> None:
    arb, game = golden
    # after event 200 hex 3,6 holds red-vanguard, red-1 and blue-lance (the referee sees all)
    row = next(line for line in arb.summary(game, 200).board if line.startswith("r6"))
    assert "2r+" in row.split()


def test_the_empires_table_shows_ap_owed_and_bids_as_each_reader_may_see_them(
    golden: tuple[Arbiter, str],
) -> None:
    arb, game = golden
    # blue owes 4 AP for what it did in red's turn (AE-19): public, as those acts were
    blue = next(r for r in arb.summary(game, 2066, "red").tables[0].rows if r[0] == "blue")
    assert blue[1] == "hidden, owes 4"
    # red has bid 2 initiative dice (its bid's batch ends at 19): red reads its bid, blue only
    # that red has bid (AE-7)
    as_red = {r[0]: r[1] for r in arb.summary(game, 19, "red").tables[0].rows}
    as_blue = {r[0]: r[1] for r in arb.summary(game, 19, "blue").tables[0].rows}
    assert as_red["red"] == "0; bid 2" and as_blue["red"] == "hidden; bid hidden"


def test_a_reader_s_count_of_the_enemy_s_armies_says_it_counts_those_sighted(
    golden: tuple[Arbiter, str],
) -> None:
    arb, game = golden
    as_red = {r[0]: r[-1] for r in arb.summary(game, 2077, "red").tables[0].rows}
    referee = {r[0]: r[-1] for r in arb.summary(game, 2077).tables[0].rows}
    assert as_red == {"red": "2 armies", "blue": "1 army sighted"}
    assert referee == {"red": "2 armies", "blue": "4 armies"}
    assert [t.title for t in arb.summary(game, 2077).tables][:2] == ["empires", "armies"]

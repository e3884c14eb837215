"""What a player may not see stays hidden in `events --as` and `state --as`, through the CLI."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner

from tests.recorded import FIXTURES
from warlog.arbiter.autoplay import autoplay
from warlog.arbiter.database import on_database
from warlog.cli.context import open_arbiter
from warlog.cli.main import cli

GOLDEN = FIXTURES / "armageddon-empires" / "ae-golden.jsonl"


def warlog(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def lines(text: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in text.splitlines()]


def strategies_chosen(db: Path) -> tuple[str, dict[int, dict]]:  # type: ignore[type-arg]
    """A Battle for Armageddon game played 40 commands in, and its strategy choices by seq (as
    the referee reads them: every chosen card)."""
    game = warlog(db, "new", "battle-for-armageddon", "--game", "bfa").strip()
    autoplay(open_arbiter(str(db)), game, 40)
    full = [e for e in lines(warlog(db, "events", game, "--json")) if e["type"] == "command_issued"]
    chosen = {
        e["seq"]: e["data"]["command"]
        for e in full
        if e["data"]["command"]["type"] == "choose_strategy"
    }
    return game, chosen


def test_the_other_sides_strategy_choice_is_hidden_until_revealed(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    game, chosen = strategies_chosen(db)
    assert {c["player"] for c in chosen.values()} == {"orks", "imperials"}
    for viewer in ("orks", "imperials"):
        seen = {e["seq"]: e for e in lines(warlog(db, "events", game, "--as", viewer, "--json"))}
        for seq, command in chosen.items():
            shown = seen[seq]["data"]["command"]
            if command["player"] == viewer:
                assert shown["cards"] == command["cards"]
            else:
                assert shown.get("cards") != command["cards"], (
                    f"{viewer} sees the other side's choice"
                )


def test_the_other_empires_hand_and_draws_are_hidden(tmp_path: Path) -> None:
    db = tmp_path / "w.db"

    def unseen(game: str) -> list[str]:
        """Blue's cards red never saw played (an aircraft flies openly and comes back)."""
        red_events = warlog(db, "events", game, "--as", "red", "--json")
        return [c for c in arbiter.state(game).empires["blue"].hand if c not in red_events]

    # games vary with their key, and some end before one empire has drawn: play a few games
    # (of fixed keys) until one where both have drawn and blue holds a card red never saw
    for attempt in range(16):
        key = hashlib.sha256(f"hidden hands {attempt}".encode()).digest()  # the same every run
        with on_database(str(db), create=True, seeds=lambda key=key: key) as created:
            game = created.new_game("armageddon-empires", game=f"ae{attempt}")
        arbiter = open_arbiter(str(db))
        while True:
            played = autoplay(arbiter, game, 10)
            full = lines(warlog(db, "events", game, "--json"))
            draws = {e["seq"]: e["data"] for e in full if e["type"] == "card_drawn"}
            both = {d["empire"] for d in draws.values()} == {"red", "blue"}
            if (both and unseen(game)) or not played:
                break
        if both and unseen(game):
            break
    assert {d["empire"] for d in draws.values()} == {"red", "blue"}
    seen = {e["seq"]: e["data"] for e in lines(warlog(db, "events", game, "--as", "red", "--json"))}
    for seq, draw in draws.items():
        # the referee's record opens every seal; red's opens its own draws only
        assert set(draw["card"]) == {"sealed", "value", "salt"}
        if draw["empire"] == "red":
            assert seen[seq]["card"] == draw["card"]
        else:
            assert seen[seq]["card"] == {"sealed": draw["card"]["sealed"]}
    referee = json.loads(warlog(db, "state", game, "--json"))["state"]["empires"]["blue"]["hand"]
    red_view = json.dumps(json.loads(warlog(db, "state", game, "--as", "red", "--json"))["state"])
    hidden = unseen(game)
    assert referee and hidden and not any(card in red_view for card in hidden)


def test_replay_and_explain_as_a_player_show_each_event_as_events_as_that_player_does(
    tmp_path: Path,
) -> None:
    """Given a Battle for Armageddon game where each side chose its strategy in secret, when
    `replay --as P --json` walks it and `explain G SEQ --as P --json` explains each choice, then
    every step's data is the event exactly as `events --as P --json` shows it: P reads its own
    choice whole, and neither the other side's chosen cards nor its command reaches P (README,
    "Commands and exit codes": `--as PLAYER` works on every command that shows a player
    anything)."""
    db = tmp_path / "w.db"
    game, chosen = strategies_chosen(db)
    for viewer in ("orks", "imperials"):
        seen = {
            e["seq"]: e["data"] for e in lines(warlog(db, "events", game, "--as", viewer, "--json"))
        }
        replayed = lines(warlog(db, "replay", game, "--as", viewer, "--json"))
        assert {step["seq"]: step["data"] for step in replayed} == seen
        for seq, command in chosen.items():
            report = json.loads(warlog(db, "explain", game, str(seq), "--as", viewer, "--json"))
            assert report["data"] == seen[seq]
            assert report["command"]["command"] == seen[seq]["command"]
            # its own choice it reads whole; the other side's not
            mine = command["player"] == viewer
            assert (report["command"]["command"].get("cards") == command["cards"]) == mine


def sealed_objects(value: object) -> list[dict]:  # type: ignore[type-arg]
    """Every ``{"sealed": ...}`` object inside ``value``."""
    if isinstance(value, dict):
        found = [value] if "sealed" in value else []
        return found + [s for v in value.values() for s in sealed_objects(v)]
    if isinstance(value, list):
        return [s for v in value for s in sealed_objects(v)]
    return []


def test_play_with_referee_prints_every_sealed_value_opened_and_without_it_the_players_view(
    tmp_path: Path,
) -> None:
    """Given an Armageddon Empires game whose second initiative bid (blue's) deals cards to
    both empires, when the bid is played with --referee, then the events printed are the
    referee's, every sealed value opened; played without it in a game alike, they are blue's,
    red's cards withheld ({"sealed": H} alone)."""
    db = tmp_path / "w.db"
    printed = {}
    for game, flags in (("g1", ["--referee"]), ("g2", [])):
        warlog(db, "new", "armageddon-empires", "--game", game)
        warlog(
            db, "play", game, json.dumps({"type": "buy_initiative", "count": 0, "player": "red"})
        )
        bid = json.dumps({"type": "buy_initiative", "count": 0, "player": "blue"})
        printed[game] = lines(warlog(db, "play", game, bid, "--json", *flags))
    first = printed["g1"][0]["seq"]
    assert printed["g1"] == lines(warlog(db, "events", "g1", "--from", str(first), "--json"))
    seals = sealed_objects(printed["g1"])
    assert seals and all("value" in s for s in seals)
    as_blue = lines(warlog(db, "events", "g2", "--from", str(first), "--as", "blue", "--json"))
    assert printed["g2"] == as_blue
    assert any("value" not in s for s in sealed_objects(printed["g2"]))


def test_a_player_asking_for_an_event_inside_a_batch_is_shown_the_batch_s_end(
    tmp_path: Path,
) -> None:
    """Given the golden Armageddon Empires game, whose first command of round 1 is the batch
    of seqs 20..32 (the purchase, the initiative rolls, the observation checks), when red asks
    for the state after seq 25 inside it, then red is shown the state after seq 32 (``seq``
    32, ``at`` 25) and the summary says why; the referee is still shown seq 25 itself, which
    differs from the batch's end."""
    db = tmp_path / "w.db"
    warlog(db, "import", str(GOLDEN))
    inside = json.loads(warlog(db, "state", "ae-golden", "--at", "25", "--as", "red", "--json"))
    end = json.loads(warlog(db, "state", "ae-golden", "--at", "32", "--as", "red", "--json"))
    assert (inside["seq"], inside["at"], end["at"]) == (32, 25, 32)
    assert inside["state"] == end["state"]
    text = warlog(db, "state", "ae-golden", "--at", "25", "--as", "red")
    assert text.splitlines()[0].endswith(
        "after event 32 as red (event 25 is inside a batch, which a player sees whole)"
    )
    referee = json.loads(warlog(db, "state", "ae-golden", "--at", "25", "--json"))
    at_end = json.loads(warlog(db, "state", "ae-golden", "--at", "32", "--json"))
    assert (referee["seq"], referee["at"]) == (25, 25)
    assert referee["state"] != at_end["state"]

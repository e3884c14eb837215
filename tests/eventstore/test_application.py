"""The application: create, play, reject, fork, reveal — on the dice-race test ruleset."""

from __future__ import annotations

import hashlib
import json
import re

import msgspec
import pytest

from tests.eventstore.conftest import SEED
from tests.toy import rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.audit import audit_records
from warlog.arbiter.fold import Folded
from warlog.domain.core.dice import commitment_of, derive_faces
from warlog.domain.core.errors import ConflictError, InputError, RulesError, WarlogError


def roll(player: str, count: int = 3, **extra: object) -> str:
    return json.dumps({"type": "roll", "player": player, "count": count, **extra})


def test_a_new_game_commits_to_its_seed_in_its_first_event(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1", salt="s")
    first = next(arbiter.records(game))
    data = json.loads(first.data)
    assert (first.seq, first.type) == (1, "game_created")
    assert data["dice"] == {
        "mode": "auto",
        "stream": "g1",
        "salt": "s",
        "commitment": commitment_of(SEED),
    }
    assert data["players"] == ["red", "blue"]


def test_a_command_is_recorded_first_and_its_dice_follow_the_contract_derivation(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1", salt="s")
    records = arbiter.play(game, roll("red"))
    assert [r.type for r in records] == ["command_issued", "dice_rolled", "scored", "turn_passed"]
    assert json.loads(records[0].data) == {
        "player": "red",
        "command": {"type": "roll", "player": "red", "count": 3},
    }
    dice = json.loads(records[1].data)
    assert dice["faces"] == derive_faces(SEED, "g1", "s", records[1].seq, 3, 6)
    assert json.loads(records[2].data)["successes"] == sum(f >= 4 for f in dice["faces"])


@pytest.mark.parametrize(
    ("text", "code", "exit_code"),
    [
        ("{not json", "input/bad_json", 1),
        ("[1, 2]", "input/bad_command", 1),
        ('{"type": "fly", "player": "red"}', "input/unknown_command", 1),
        ('{"player": "red"}', "input/unknown_command", 1),
        ('{"type": "roll", "player": "red"}', "input/bad_command", 1),
        ('{"type": "roll", "player": "red", "count": "3"}', "input/bad_command", 1),
        ('{"type": "roll", "player": "red", "count": 3, "extra": 1}', "input/bad_command", 1),
        ('{"type": "roll", "player": "green", "count": 3}', "input/unknown_player", 1),
        ('{"type": "roll", "player": "blue", "count": 3}', "rules/not_your_turn", 3),
        ('{"type": "roll", "player": "red", "count": 9}', "rules/bad_count", 3),
        ('{"type": "roll", "player": "red", "count": 1, "dice": [4]}', "input/unexpected_dice", 1),
    ],
)
def test_bad_commands_are_rejected_with_their_code_and_nothing_is_appended(
    arbiter: Arbiter, scenario_file: str, text: str, code: str, exit_code: int
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    before = arbiter.head(game)
    with pytest.raises(WarlogError) as info:
        arbiter.play(game, text)
    assert (info.value.code, info.value.exit_code) == (code, exit_code)
    assert "\n" not in info.value.line()
    assert arbiter.head(game) == before


def test_an_empty_dice_list_in_an_auto_game_is_no_dice_and_records_the_same_log(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given two auto-dice games, when one is sent a command with ``"dice": []`` and the other
    the same command without it, then both accept it and record the same command: an empty
    list types no faces, so it is the same as none (a client that always sends the field is
    not refused); the game rolls its own dice for it."""
    plain = arbiter.new_game("dice-race", scenario_file, game="g1", salt="s")
    listed = arbiter.new_game("dice-race", scenario_file, game="g2", salt="s")
    without = arbiter.play(plain, roll("red"))
    empty = arbiter.play(listed, roll("red", dice=[]))
    assert empty[0].data == without[0].data
    assert "dice" not in json.loads(empty[0].data)["command"]
    assert [r.type for r in empty] == [r.type for r in without]
    faces = json.loads(empty[1].data)["faces"]
    assert faces == derive_faces(SEED, "g2", "s", empty[1].seq, 3, 6)


def test_manual_dice_for_an_initiative_tie_are_counted_with_1s_and_fewer_may_do(
    arbiter: Arbiter,
) -> None:
    """Given an Armageddon Empires game on a referee's dice where both empires bought no
    initiative dice (a tie at 0 successes: each re-rolls 1 die, AE-3), when the last purchase
    comes with no faces, then it is refused with the count that 1s for every face give (each
    re-roll a tie again: 3 re-rolls of 2 dice), saying that it took 1s and that fewer may do;
    with the two faces that break the tie first it needs 4 dice fewer, and that many faces
    are accepted; too many faces are refused with the exact count, nothing said of 1s."""
    game = arbiter.new_game("armageddon-empires", game="ae", dice="manual")
    arbiter.play(game, '{"type": "buy_initiative", "player": "red", "count": 0}')
    head = arbiter.head(game)[0]

    def refusal(faces: list[int]) -> str:
        command = {"type": "buy_initiative", "player": "blue", "count": 0, "dice": faces}
        with pytest.raises(InputError) as told:
            arbiter.play(game, json.dumps(command))
        assert told.value.code == "input/dice_count"
        return told.value.message

    counted = re.fullmatch(
        r"this command needs (\d+) dice \(.*\) in its 'dice' list; 0 given \(counted with 1s "
        r"for the (\d+) missing: where a roll depends on the faces before it, as a tie that "
        r"rolls again, fewer may do\)",
        refusal([]),
    )
    assert counted is not None and counted[1] == counted[2]
    broken = re.fullmatch(
        r"this command needs (\d+) dice .*; 2 given \(counted with 1s for the (\d+) missing: .*\)",
        refusal([6, 1]),
    )
    assert broken is not None and int(broken[1]) == int(counted[1]) - 4
    assert int(broken[2]) == int(broken[1]) - 2  # the missing: needed less given
    enough = [6, 1] + [3] * (int(broken[1]) - 2)
    assert refusal([*enough, 3]) == (
        f"this command needs {len(enough)} dice ({len(enough)} d6) in its 'dice' list; "
        f"{len(enough) + 1} given"
    )
    assert arbiter.head(game)[0] == head  # nothing appended by a refusal
    arbiter.play(
        game, json.dumps({"type": "buy_initiative", "player": "blue", "count": 0, "dice": enough})
    )
    assert arbiter.state(game).order == ("red", "blue")


def test_manual_dice_must_match_what_the_command_rolls(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="m1", dice="manual")
    with pytest.raises(InputError, match=r"needs 3 dice \(3 d6\) in its 'dice' list; 2 given"):
        arbiter.play(game, roll("red", dice=[6, 6]))
    with pytest.raises(InputError, match=r"needs 3 dice \(3 d6\) in its 'dice' list; 4 given"):
        arbiter.play(game, roll("red", dice=[6, 6, 6, 6]))
    with pytest.raises(InputError, match="is a d6"):
        arbiter.play(game, roll("red", dice=[6, 7, 1]))
    assert arbiter.head(game)[0] == 1
    records = arbiter.play(game, roll("red", dice=[6, 5, 1]))
    assert json.loads(records[1].data)["faces"] == [6, 5, 1]
    assert json.loads(records[2].data)["successes"] == 2


def test_a_lost_race_is_a_conflict_and_appends_nothing(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    other = Arbiter(arbiter.store, rulesets, vault=arbiter.vault)
    real_append = arbiter.store.append

    def append_after_a_rival(game_id, batch, expected_seq):  # type: ignore[no-untyped-def]
        arbiter.store.append = real_append  # type: ignore[method-assign]
        other.play(game_id, roll("red", 1))  # the rival wins the race
        return real_append(game_id, batch, expected_seq)

    arbiter.store.append = append_after_a_rival  # type: ignore[method-assign]
    with pytest.raises(ConflictError) as info:
        arbiter.play(game, roll("red"))
    assert info.value.exit_code == 5
    assert [r.type for r in arbiter.records(game)].count("command_issued") == 1


def test_a_command_decided_on_a_head_that_has_moved_on_is_a_conflict(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a caller who knew the head at N (a server's If-Match) while another writer has
    appended since, when it plays on N, then it is a conflict with nothing appended, not a
    command decided on the newer state."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    known = arbiter.head(game)[0]
    arbiter.play(game, roll("red", 1))  # the other writer
    before = list(arbiter.records(game))
    with pytest.raises(ConflictError):
        arbiter.play(game, roll("red", 1), on=known)  # legal on N: red's turn there
    assert list(arbiter.records(game)) == before
    assert arbiter.play(game, roll("blue", 1), on=arbiter.head(game)[0])


def play_until_won(arbiter: Arbiter, game: str) -> None:
    for _ in range(200):
        state = arbiter.state(game)
        if state.winner:
            return
        arbiter.play(game, roll(state.players[state.turn]))
    raise AssertionError("no winner")


def test_state_at_any_seq_equals_the_fold_of_its_prefix(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    play_until_won(arbiter, game)
    head, _ = arbiter.head(game)
    for at in range(1, head + 1):
        fresh = Arbiter(arbiter.store, rulesets, vault=arbiter.vault)  # snapshots + tail
        full = fresh.fold_records(fresh.ruleset_of(game), fresh.records(game, 1, at))
        assert msgspec.to_builtins(fresh.state(game, at)) == msgspec.to_builtins(full.state)


def test_play_stops_when_the_game_is_over(arbiter: Arbiter, scenario_file: str) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    play_until_won(arbiter, game)
    with pytest.raises(RulesError) as info:
        arbiter.play(game, roll("red"))
    assert info.value.code == "rules/game_over"
    assert arbiter.legal(game) == []


def test_a_fork_shares_its_parents_events_and_records_its_lineage(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    for _ in range(3):
        state = arbiter.state(game)
        arbiter.play(game, roll(state.players[state.turn]))
    parent = list(arbiter.records(game))
    fork = arbiter.fork(game, 5, new_game="f1")
    records = list(arbiter.records(fork))
    assert records[:5] == parent[:5]
    lineage = json.loads(records[5].data)
    assert (records[5].type, lineage["parent"], lineage["at"], records[5].prev) == (
        "game_forked",
        "g1",
        5,
        parent[4].hash,
    )
    assert lineage["dice"]["commitment"] == commitment_of(SEED)  # the test's seed source repeats
    assert not audit_records(records, rulesets).findings


def test_a_fork_inside_a_batch_names_the_nearest_batch_ends(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    arbiter.play(game, roll("blue"))
    with pytest.raises(InputError, match=r"fork at a batch end \(5 or 9\)") as info:
        arbiter.fork(game, 7)
    assert info.value.exit_code == 1


def test_a_fork_with_the_same_dice_waits_for_the_reveal_and_then_rolls_the_parents_stream(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    parents = arbiter.play(game, roll("blue"))  # seq 6..9: its roll is the event at seq 7
    with pytest.raises(InputError) as info:
        arbiter.fork(game, 5, dice="same")
    assert info.value.code == "input/seed_not_revealed"
    arbiter.reveal(game)
    fork = arbiter.fork(game, 5, new_game="same1", dice="same")
    records = arbiter.play(fork, roll("blue"))  # the same command, one seq later
    # the parent's seed, stream and salt go on deriving at the seq the event would have had
    # without the fork's own lineage event: the fork's roll at seq 8 is the parent's at 7
    assert records[1].seq == 8
    assert json.loads(records[1].data)["faces"] == derive_faces(SEED, "g1", "", 7, 3, 6)
    assert [json.loads(r.data) for r in records[1:]] == [json.loads(r.data) for r in parents[1:]]
    assert not audit_records(list(arbiter.records(fork)), rulesets).findings


def test_after_the_reveal_the_game_takes_no_more_commands_and_audits_its_dice(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    revealed = arbiter.reveal(game)
    assert revealed.seed == SEED.hex()
    (record,) = arbiter.records(game, revealed.seq)
    assert record.type == "dice_revealed" and json.loads(record.data) == {"seed": SEED.hex()}
    with pytest.raises(RulesError) as info:
        arbiter.play(game, roll("blue"))
    assert info.value.code == "rules/seed_revealed"
    with pytest.raises(InputError, match="already revealed"):
        arbiter.reveal(game)
    auditor = audit_records(list(arbiter.records(game)), rulesets)
    assert auditor.findings == [] and auditor.revealed


def test_a_manual_game_reveals_its_sealing_seed_and_then_takes_no_more_commands(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="m1", dice="manual")
    arbiter.play(game, roll("red", dice=[6, 5, 1]))
    revealed = arbiter.reveal(game)
    assert (
        hashlib.sha256(bytes.fromhex(revealed.seed)).hexdigest()
        == json.loads(next(iter(arbiter.records(game))).data)["dice"]["commitment"]
    )
    with pytest.raises(RulesError) as info:
        arbiter.play(game, roll("blue", dice=[1, 2, 3]))
    assert info.value.code == "rules/seed_revealed"
    auditor = audit_records(list(arbiter.export_records(game)), rulesets)
    assert auditor.findings == [] and auditor.proved.seals_opened == 1  # the referee's dice


def test_game_ids_are_checked_and_not_reused(arbiter: Arbiter, scenario_file: str) -> None:
    arbiter.new_game("dice-race", scenario_file, game="g1")
    with pytest.raises(InputError, match="already exists"):
        arbiter.new_game("dice-race", scenario_file, game="g1")
    with pytest.raises(InputError, match="bad game id"):
        arbiter.new_game("dice-race", scenario_file, game="no spaces")
    with pytest.raises(InputError, match="unknown scenario"):
        arbiter.new_game("dice-race", "no-such-scenario", game="g2")


def test_a_copy_of_a_memory_store_and_vault_goes_on_apart(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a game, when its store and vault are copied and the copy plays on, then the
    original's log, keys and snapshots are as they were, and the copy folds as the original
    would have."""
    from warlog.eventstore.memory_store import MemoryStore
    from warlog.eventstore.vault import MemoryVault

    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    play_until_won(arbiter, game)
    assert isinstance(arbiter.store, MemoryStore) and isinstance(arbiter.vault, MemoryVault)
    before = list(arbiter.records(game))
    copy = Arbiter(arbiter.store.copy(), rulesets, vault=arbiter.vault.copy(), seeds=lambda: SEED)
    fork = copy.fork(game, 5, new_game="f1")
    state = copy.state(fork)
    copy.play(fork, roll(state.players[state.turn]))
    assert list(arbiter.records(game)) == before
    assert [g.game for g in arbiter.store.games()] == ["g1"]
    assert copy.state(fork) == Arbiter(copy.store, rulesets, vault=copy.vault).state(fork)


def test_a_copy_of_a_memory_store_appended_to_leaves_the_original_log_as_it_was(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a game two commands in, when its store and vault are copied and the copy plays
    the next command, then the original's log still ends where it did and plays that command
    itself: the two go on apart (``MemoryStore.copy``), in the same game as in a fork."""
    from warlog.eventstore.memory_store import MemoryStore
    from warlog.eventstore.vault import MemoryVault

    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    for _ in range(2):
        state = arbiter.state(game)
        arbiter.play(game, roll(state.players[state.turn]))
    assert isinstance(arbiter.store, MemoryStore) and isinstance(arbiter.vault, MemoryVault)
    before = list(arbiter.records(game))
    copy = Arbiter(arbiter.store.copy(), rulesets, vault=arbiter.vault.copy(), seeds=lambda: SEED)
    state = copy.state(game)
    copy.play(game, roll(state.players[state.turn]))
    assert list(arbiter.records(game)) == before
    arbiter.play(game, roll(state.players[state.turn]))
    assert arbiter.head(game)[0] == copy.head(game)[0]


def test_a_dice_filter_sees_and_may_change_every_command_s_dice(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given an arbiter whose dice filter turns every face into a 6, then every roll shows 6s,
    and an audit (which re-derives from the seed) finds them once the seed is revealed."""
    from warlog.domain.core.dice import Dice

    class Sixes:
        def __init__(self, dice: Dice) -> None:
            self.dice = dice

        def faces(self, offset: int, count: int, sides: int) -> list[int]:
            return [sides for _ in self.dice.faces(offset, count, sides)]

    loaded = Arbiter(
        arbiter.store, rulesets, vault=arbiter.vault, seeds=lambda: SEED, dice_filter=Sixes
    )
    game = loaded.new_game("dice-race", scenario_file, game="g1")
    loaded.play(game, roll("red"))
    faces = [json.loads(r.data)["faces"] for r in loaded.records(game) if r.type == "dice_rolled"]
    assert faces == [[6, 6, 6]]
    loaded.reveal(game)
    assert any(
        f.check == "dice" for f in audit_records(list(loaded.records(game)), rulesets).findings
    )


def test_reads_inside_the_last_batch_and_after_a_fork_start_from_what_the_arbiter_holds(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a command just played and a fork just made, then the state after each event of that
    batch, and the fork's state, are what a fresh arbiter folds from the log."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    records = arbiter.play(game, roll("red"))
    fresh = Arbiter(arbiter.store, rulesets, vault=arbiter.vault)
    for r in records:
        assert arbiter.state(game, r.seq) == fresh.state(game, r.seq)
    fork = arbiter.fork(game, records[-1].seq, new_game="f1")
    assert arbiter.folded(fork).meta == fresh.folded(fork).meta
    assert arbiter.state(fork) == fresh.state(fork)
    arbiter.play(fork, roll("blue"))
    assert arbiter.state(fork) == Arbiter(arbiter.store, rulesets, vault=arbiter.vault).state(fork)


def test_a_watcher_is_told_of_each_batch_appended_and_cannot_undo_it(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a listener that records what it is told and one that raises, when commands are
    played and the seed revealed, then the first is told of exactly each batch as committed
    and the commands still succeed."""
    told: list[tuple[str, list[int]]] = []
    arbiter.watch(lambda game, records: told.append((game, [r.seq for r in records])))

    def broken(game: str, records: object) -> None:
        raise RuntimeError("a listener's bug")

    arbiter.watch(broken)
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    assert told == []  # a new game's first batch is no append to a watched log
    first = arbiter.play(game, roll("red"))
    second = arbiter.play(game, json.dumps({"type": "pass", "player": "blue"}))
    with pytest.raises(RulesError):
        arbiter.play(game, roll("blue"))  # red's turn: rejected, nothing appended, nobody told
    revealed = arbiter.reveal(game)
    assert told == [
        ("g1", [r.seq for r in first]),
        ("g1", [r.seq for r in second]),
        ("g1", [revealed.seq]),
    ]


def test_about_a_game_says_its_players_head_and_whether_it_is_over(
    arbiter: Arbiter, scenario_file: str
) -> None:
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    summary = arbiter.about(game)
    seq, hash_ = arbiter.head(game)
    assert summary == {
        "game": "g1",
        "ruleset": "dice-race",
        "version": arbiter.ruleset_of(game).version,
        "players": ["red", "blue"],
        "head": {"seq": seq, "hash": hash_},
        "over": False,
    }
    arbiter.reveal(game)
    assert arbiter.about(game)["over"] is True


def test_a_players_records_from_any_seq_are_the_tail_of_the_whole_feed() -> None:
    """Given an Armageddon Empires game with sealed draws, a fork of it with new dice and a
    fork with the same dice after the reveal, when each reader's records are read from any seq,
    then they are exactly the tail of that reader's records read from seq 1 (what a live feed
    resumed at any point must send)."""
    from warlog.arbiter.autoplay import autoplay
    from warlog.domain import rulesets as registry
    from warlog.eventstore.memory_store import MemoryStore

    arb = Arbiter(MemoryStore(), registry.get, snapshot_every=16)
    game = arb.new_game("armageddon-empires", game="ae")
    autoplay(arb, game, 30)
    cut = arb.head(game)[0]
    new_dice = arb.fork(game, cut, new_game="ae-new")
    autoplay(arb, new_dice, 10)
    arb.reveal(game, despite_live_forks=True)
    same_dice = arb.fork(game, cut, new_game="ae-same", dice="same")
    autoplay(arb, same_dice, 10)
    for g in (game, new_dice, same_dice):
        head = arb.head(g)[0]
        for reader in (None, "red", "blue"):
            whole = list(arb.records_as(g, reader))
            assert [r.seq for r in whole] == list(range(1, head + 1))
            starts = [*range(1, head + 1, 5), cut, cut + 1, cut + 2, head]
            for from_seq in (s for s in starts if s <= head):
                assert list(arb.records_as(g, reader, from_seq)) == whole[from_seq - 1 :]


def test_replay_agrees_only_while_the_state_held_is_the_fold_of_the_log(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a game played on, whose live state replays from its log byte for byte, when the
    arbiter comes to hold another state at the head (a cache gone wrong), then ``replay_agrees``
    says so (``warlog demo``'s replay check)."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    arbiter.play(game, roll("blue"))
    assert arbiter.replay_agrees(game)
    head, first = arbiter.folded(game), arbiter.folded(game, 1)
    arbiter.states.hold(game, Folded(head.seq, head.hash, head.meta, first.state))
    assert not arbiter.replay_agrees(game)


def test_a_fork_with_new_dice_of_a_revealed_game_plays_on(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a game whose seed is revealed, so that it takes no more commands, when it is forked
    after its reveal with new dice (what its refusal advises: "fork it with --dice new to play
    on"), then the fork is not revealed: it offers its legal commands and plays them."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    revealed = arbiter.reveal(game)
    fork = arbiter.fork(game, revealed.seq, new_game="f1", dice="new")
    assert arbiter.about(fork)["over"] is False
    assert arbiter.legal(fork, "blue")
    records = arbiter.play(fork, roll("blue"))
    assert [r.type for r in records] == ["command_issued", "dice_rolled", "scored", "turn_passed"]


def test_the_view_of_a_revealed_game_says_it_is_over(arbiter: Arbiter, scenario_file: str) -> None:
    """Given a game still going on, when its seed is revealed, then its view (``warlog state``,
    ``GET /games/{game}/state``) says it is over, as ``about`` does: it takes no more commands;
    the view at a seq before the reveal says that game was not over then."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    arbiter.play(game, roll("red"))
    assert arbiter.view(game)["over"] is False
    revealed = arbiter.reveal(game)
    assert arbiter.view(game)["over"] is True
    assert arbiter.view(game, revealed.seq - 1)["over"] is False


def test_the_view_as_a_player_the_game_does_not_have_is_refused(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a dice race of red and blue, when its state is asked for as green (``warlog state
    --as green``), then it is refused, ``input/unknown_player`` (exit 1), naming who plays:
    not a view that is no player's (every hand hidden) passed off as green's."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    with pytest.raises(InputError, match="green") as told:
        arbiter.view(game, player="green")
    assert (told.value.code, told.value.exit_code) == ("input/unknown_player", 1)
    assert arbiter.view(game, player="red")["state"]["hands"] == {"red": 3, "blue": None}


def test_a_command_played_is_shown_back_as_its_player_sees_it_unless_the_referee_asks(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a manual-dice game, whose referee types the faces of each roll into the command
    (sealed from every player: they may pick something secret), when red's roll is played and
    its records shown back with no reader named (``warlog play`` without ``--as``), then they
    are as red sees them, the command's faces sealed; only the referee's read opens them."""
    game = arbiter.new_game("dice-race", scenario_file, game="m1", dice="manual")
    shown = arbiter.play_as(game, roll("red", dice=[6, 5, 1]))
    issued = json.loads(shown[0].data)["command"]
    assert issued["dice"].keys() == {"sealed"}  # no "value": not opened to red
    assert shown == list(arbiter.records_as(game, "red", shown[0].seq, shown[-1].seq))
    opened = arbiter.play_as(game, roll("blue", dice=[2, 3, 4]), referee=True)
    assert json.loads(opened[0].data)["command"]["dice"]["value"] == [2, 3, 4]


def test_a_command_played_can_be_shown_to_another_player_than_the_one_who_issued_it(
    arbiter: Arbiter, scenario_file: str
) -> None:
    """Given a game of red and blue, when the referee plays red's roll and asks to see it as
    blue sees it (``warlog play CMD --as blue``), then it is played and shown as blue's read of
    those events: ``play_as`` names a reader, it does not check who issued the command (the
    server checks the seat itself, 403 ``auth/not_your_seat``)."""
    game = arbiter.new_game("dice-race", scenario_file, game="g1")
    shown = arbiter.play_as(game, roll("red"), "blue")
    assert json.loads(shown[0].data)["player"] == "red"
    assert shown == list(arbiter.records_as(game, "blue", shown[0].seq, shown[-1].seq))
    assert arbiter.head(game)[0] == shown[-1].seq

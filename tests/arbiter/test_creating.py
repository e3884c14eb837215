"""Creating a game: the salt it takes, its key drawn last, and nothing left behind on refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from tests.arbiter.conftest import play
from tests.eventstore.conftest import SEED
from tests.toy import RULESET, SCENARIO, rulesets
from warlog.arbiter.application import Arbiter
from warlog.arbiter.creating import SALT_MAX, check_salt, create_game, game_created
from warlog.arbiter.ids import check_game_id
from warlog.arbiter.states import version_key
from warlog.domain.core.dice import commitment_of, derive_faces
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import DiceRolled, GameCreated
from warlog.eventstore.memory_store import MemoryStore


def test_a_salt_is_at_most_salt_max_printable_characters() -> None:
    assert check_salt("tournament 2026 · round 1") == "tournament 2026 · round 1"
    with pytest.raises(InputError, match=f"use at most {SALT_MAX}") as too_long:
        check_salt("x" * (SALT_MAX + 1))
    with pytest.raises(InputError, match=r"its character 4, U\+000A, is not printable") as line:
        check_salt("abc\ndef")
    assert too_long.value.code == line.value.code == "input/bad_salt"


def test_the_key_is_drawn_only_once_everything_else_is_checked(tmp_path: Path) -> None:
    drawn: list[bytes] = []

    def key() -> bytes:
        drawn.append(SEED)
        return SEED

    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    # a bad dice mode and a bad id are refused before any key is drawn
    with pytest.raises(InputError, match="dice must be 'auto' or 'manual'"):
        game_created(RULESET, str(scenario), game="g1", dice="loaded", salt="", key=key)
    with pytest.raises(InputError):
        game_created(RULESET, str(scenario), game="not an id!", dice="auto", salt="", key=key)
    assert drawn == []
    created, key_drawn = game_created(
        RULESET, str(scenario), game="g1", dice="auto", salt="", key=key
    )
    assert drawn == [SEED] and key_drawn == SEED
    assert (created.game, created.dice.commitment) == ("g1", commitment_of(SEED))


def test_a_game_the_store_refuses_leaves_no_new_key_in_the_vault(arb: Arbiter, race: str) -> None:
    # given a game g1 and a game_created for another g1, committed to a key the vault lacks
    other = bytes(range(1, 33))
    ((_, made),) = arb.events(race, 1, 1)
    assert isinstance(made, GameCreated)
    again = replace(made, dice=replace(made.dice, commitment=commitment_of(other)))
    # when it is created, then the id is taken and the key put for it is taken back
    with pytest.raises(InputError, match=f"game {race} already exists") as taken:
        create_game(arb.states, arb.rulesets, again, other, lambda: "2026-11-22T00:00:00.000Z")
    assert taken.value.code == "input/game_exists"
    assert arb.vault.key(commitment_of(other)) is None
    assert arb.vault.key(commitment_of(SEED)) == SEED


def test_a_salt_of_exactly_salt_max_characters_is_taken_and_a_lone_surrogate_is_not_utf8() -> None:
    # given a salt of exactly SALT_MAX printable characters, and one holding half a surrogate pair
    # then the first is taken as it is, the second refused as text UTF-8 cannot hold
    assert check_salt("x" * SALT_MAX) == "x" * SALT_MAX
    with pytest.raises(UnicodeEncodeError):
        check_salt("round \ud800 one")


def test_a_game_refused_on_a_key_the_vault_held_already_leaves_that_key(
    arb: Arbiter, race: str
) -> None:
    """Given g1, when its own game_created is created again on its own key (a retried
    creation), then the id is taken and g1's key is still in the vault: what a refusal takes
    back is only what the vault did not hold before (``creating.unheld``); g1 would otherwise
    never roll nor open a seal again."""
    ((_, made),) = arb.events(race, 1, 1)
    assert isinstance(made, GameCreated)
    with pytest.raises(InputError, match=f"game {race} already exists"):
        create_game(arb.states, arb.rulesets, made, SEED, lambda: "2026-11-22T00:00:00.000Z")
    assert arb.vault.key(commitment_of(SEED)) == SEED
    fresh = Arbiter(arb.store, arb.rulesets, vault=arb.vault)
    play(fresh, race, 1)
    assert fresh.state(race) == fresh.fold_log(race).state


def test_a_new_game_keeps_its_snapshot_at_seq_1_before_anything_reads_it(
    arb: Arbiter, tmp_path: Path
) -> None:
    """Given a game just created, before any read of it, then the vault holds its snapshot at
    seq 1: the next process (each ``warlog`` command) starts from it rather than building the
    scenario again, which for Armageddon Empires costs more than folding a young game
    (``create_game``; ``States.created``)."""
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    game = arb.new_game("dice-race", str(scenario), game="g2")
    found = arb.vault.latest_snapshot(arb.store.lineage(game), 1, version_key(RULESET))
    assert found is not None and found[0] == 1


def test_the_opening_deal_rolls_on_the_key_at_the_seq_each_roll_is_stored_at(arb: Arbiter) -> None:
    """Given an Armageddon Empires game created on a known key, then every die of its opening
    deal (rolled in ``game_created``'s batch, hidden) is the contract's derivation at the seq
    its ``dice_rolled`` is stored at: what anyone checks once the seed is revealed
    (ARCHITECTURE.md, "Dice")."""
    game = arb.new_game("armageddon-empires", game="ae", salt="s")
    rolls = [(seq, e) for seq, e in arb.events(game) if isinstance(e, DiceRolled)]
    assert rolls and all(r.hidden and r.purpose == rolls[0][1].purpose for _, r in rolls)
    for seq, rolled in rolls:
        assert rolled.faces == derive_faces(SEED, game, "s", seq, len(rolled.faces), rolled.sides)


def test_a_dice_mode_given_empty_or_otherwise_spelt_is_refused(tmp_path: Path) -> None:
    """Given a dice mode that is empty (a form's blank field) or not spelt as the contract
    spells it, when a game is created with it, then it is refused, ``input/bad_dice_mode``:
    a game is ``auto`` or ``manual``, and nothing in between."""
    scenario = tmp_path / "race.toml"
    scenario.write_bytes(SCENARIO)
    for dice in ("", "Auto", "manual "):
        with pytest.raises(InputError, match="dice must be 'auto' or 'manual'") as told:
            game_created(RULESET, str(scenario), game="g1", dice=dice, salt="", key=lambda: SEED)
        assert told.value.code == "input/bad_dice_mode"


@pytest.mark.parametrize("game", ["g\n", "g1.jsonl\n", "g\r", "\ng"])
def test_a_game_id_ending_in_a_line_break_is_refused(game: str) -> None:
    """Given an id that is a good one with a line break after it (a pattern's ``$`` matches
    before a final line break), then it is refused, ``input/bad_game_id``: else two games would
    both be listed as ``g``, and ``g1.jsonl`` plus a line break would pass for a game id."""
    with pytest.raises(InputError, match="use 1-64 letters") as told:
        check_game_id(game)
    assert told.value.code == "input/bad_game_id"


def test_a_game_id_is_at_most_64_characters() -> None:
    """Given ids of 64 and 65 characters, then the first is a game id and the second is refused,
    ``input/bad_game_id``, naming the limit (``arbiter/ids.py``: 1-64 characters)."""
    assert check_game_id("g" * 64) == "g" * 64
    with pytest.raises(InputError, match="use 1-64 letters") as told:
        check_game_id("g" * 65)
    assert told.value.code == "input/bad_game_id"


def test_a_ruleset_without_bundled_scenarios_needs_one_named() -> None:
    """Given a ruleset that bundles no scenario (a plug-in's, like the dice race), when a game
    is created without naming one, then it is refused in one line that says to give a file,
    input/no_scenario, and no game is made."""
    arb = Arbiter(MemoryStore(), rulesets)
    with pytest.raises(InputError) as told:
        arb.new_game("dice-race")
    assert (told.value.code, told.value.message) == (
        "input/no_scenario",
        "dice-race has no bundled scenario; give --scenario FILE",
    )
    assert arb.store.games() == []


def test_a_scenario_file_that_cannot_be_read_is_one_line_naming_the_systems_reason() -> None:
    """Given a scenario named by a file that exists but fails as it is read (/proc/self/mem:
    the kernel answers EIO at its first page), when a game is created from it, then it is one
    line, input/unreadable, with the system's reason, and no game is made."""
    if not Path("/proc/self/mem").is_file():
        pytest.skip("no /proc file system here")
    arb = Arbiter(MemoryStore(), rulesets)
    with pytest.raises(InputError) as told:
        arb.new_game("dice-race", "/proc/self/mem")
    assert (told.value.code, told.value.message) == (
        "input/unreadable",
        "cannot read scenario '/proc/self/mem': Input/output error",
    )
    assert arb.store.games() == []

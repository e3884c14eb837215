"""The engine's own events (``core.events``) explain themselves: a game's dice and their
commitment, a seed published, a fork and the dice it goes on with."""

from __future__ import annotations

from warlog.domain.core.dice import DiceSpec, commitment_of
from warlog.domain.core.events import DiceRevealed, GameCreated, GameForked

SEED = bytes(range(32))
COMMITTED = DiceSpec(mode="auto", stream="g", commitment=commitment_of(SEED))


def test_a_published_seed_names_its_sha256_and_a_seed_that_is_not_hex_opens_nothing() -> None:
    assert (
        DiceRevealed(seed=SEED.hex())
        .explain()
        .startswith(
            f"the game's seed is published: its sha256 is {commitment_of(SEED)}, which must be the "
            "commitment"
        )
    )
    # an edited log may publish anything as the seed: its explanation still reads
    assert DiceRevealed(seed="not-hex").explain() == (
        "the seed 'not-hex' is published, but it is not hex: it opens nothing"
    )


def test_a_fork_names_its_parent_and_cut_and_either_its_new_dice_or_the_parents_seed() -> None:
    anew = GameForked(game="g2", parent="g1", at=12, dice=COMMITTED)
    assert anew.explain() == (
        "g2 forks g1 after event 12; automatic dice, each face derived from a secret seed; the "
        f"seed (which also seals hidden values) is committed to as sha256 {commitment_of(SEED)} "
        "(the dice contract: docs/log-format.md)"
    )
    kept = GameForked(game="g2", parent="g1", at=12, seed=SEED.hex())
    assert kept.explain() == (
        "g2 forks g1 after event 12; its dice go on from the parent's seed, revealed and carried "
        "here"
    )


def test_dice_with_no_commitment_say_none_is_recorded() -> None:
    created = GameCreated(
        game="g",
        ruleset="dice-race",
        version="1",
        scenario_name="race",
        scenario={},
        players=["red", "blue"],
        dice=DiceSpec(mode="manual", stream="g"),
    )
    assert created.explain() == (
        "a game of dice-race (rules version 1), scenario race, for red, blue; manual dice: the "
        "referee enters each roll's faces in the command; no commitment to the seed is recorded "
        "(the dice contract: docs/log-format.md)"
    )

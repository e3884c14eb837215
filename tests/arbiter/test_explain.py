"""``explain`` of a published seed tells whether it opens the commitment in force."""

from __future__ import annotations

from tests.eventstore.conftest import SEED
from warlog.arbiter.application import Arbiter
from warlog.arbiter.explain import explain_event, opens_commitment
from warlog.domain.core.dice import commitment_of
from warlog.domain.core.events import DiceRevealed


def test_explaining_a_reveal_says_its_seed_opens_the_commitment_made_at_the_games_start(
    arb: Arbiter, race: str
) -> None:
    # given a game whose seed is revealed at seq 14
    revealed = arb.reveal(race)
    # when its reveal is explained, for the referee and for a player alike
    for reader in (None, "red"):
        report = explain_event(arb, race, revealed.seq, reader)
        # then it says the seed opens the commitment made at event 1
        assert report["commitment"] == (
            "the seed's sha256 is the commitment made at event 1: it opens it"
        )
    # and no other event says anything of a commitment
    assert "commitment" not in explain_event(arb, race, revealed.seq - 1)


def test_a_published_seed_that_is_not_the_commitment_or_not_hex_is_said_to_open_nothing() -> None:
    # given a game that committed to SEED at event 1 and an edited log publishing another seed
    committed = commitment_of(SEED)
    for published in (bytes(32).hex(), "not-hex"):
        # when the reveal is explained, then it says the seed does not open the commitment
        assert opens_commitment(DiceRevealed(seed=published), committed, 1) == (
            f"the seed does NOT open the commitment made at event 1 ({committed}): nothing "
            "sealed or rolled under it is proved by this seed (`warlog audit` reports it)"
        )
    assert opens_commitment(DiceRevealed(seed=SEED.hex()), committed, 1).endswith("it opens it")

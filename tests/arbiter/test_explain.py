"""``explain`` of a published seed tells whether it opens the commitment in force."""

from __future__ import annotations

from tests.eventstore.conftest import SEED
from tests.recorded import recorded
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


def _first(arb: Arbiter, game: str, type_: str, purpose: str = "") -> int:
    head, _ = arb.head(game)
    return next(r.seq for r in arb.records(game, 1, head) if r.type == type_ and purpose in r.data)


def test_a_roll_s_explanation_names_the_rule_of_the_event_it_serves() -> None:
    # given the golden games of Armageddon Empires and Battle for Armageddon
    for ruleset, name, purpose, ruling in (
        ("armageddon-empires", "ae-golden", '"starting hand"', "(AE-15)"),
        ("battle-for-armageddon", "bfa-golden", '"special card draw"', "BFA-10)"),
    ):
        arb, game = recorded(ruleset, name)
        roll = _first(arb, game, "dice_rolled", purpose)
        # when the first roll for a starting hand, or a special card, is explained
        rule = explain_event(arb, game, roll)["rule"].splitlines()
        # then after the roll it says the event it serves, and that event's rule with its ruling
        assert rule[1].startswith(f"the roll serves event {roll + 1} (")
        assert ruling in rule[1]


def test_a_command_s_explanation_says_it_is_an_order_whose_rules_are_on_its_events() -> None:
    # given the golden game; when its first command is explained
    arb, game = recorded("armageddon-empires", "ae-golden")
    seq = _first(arb, game, "command_issued")
    report = explain_event(arb, game, seq)
    # then its rule says whose order it is, and where its rules are cited
    assert report["rule"] == (
        f"{report['command']['player']}'s order ({report['command']['command']['type']}): a "
        "command is a player's order, not a rule; the rules that decide it are cited on the "
        "events it caused, the rest of its batch"
    )


def test_a_reveal_says_a_seed_opens_typed_dice_but_never_derives_them() -> None:
    # given a published seed; when its event is explained
    text = DiceRevealed(seed=SEED.hex()).explain()
    # then it says the seed re-derives the automatic dice, and derives no typed die
    assert "re-derive every automatic die" in text
    assert "a manual-dice game's typed dice are opened where they were sealed, but no seed " in text
    assert "typed dice too" not in text

"""The ruleset's own invariants name what broke in words a rules developer can act on (the
fuzzer and the random-play tests print them)."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.battle_for_armageddon.helpers import second_war
from warlog.domain.battle_for_armageddon.invariants import violations
from warlog.domain.battle_for_armageddon.ruleset import RULESET


def test_a_special_card_held_twice_is_named_with_where_each_copy_is() -> None:
    """Given the Second War's opening, when a card of the Orks' deck is also in their hand
    (an evolve that played it and forgot to take it from the hand), then the invariant names
    that card alone, how many times it is held and where, not every card the Orks hold."""
    state = RULESET.initial_state(second_war())
    deck = state.decks["orks"]
    card = deck[0]
    broken = replace(state, hands={**state.hands, "orks": (*state.hands["orks"], card)})
    (violation,) = violations(broken)
    assert violation.line() == (
        f"special_cards_conserved: the orks' cards, each once: {card} 2 times, 1 in the deck, "
        "1 in the hand"
    )
    lost = replace(state, decks={**state.decks, "orks": deck[1:]})
    assert [v.line() for v in violations(lost)] == [
        f"special_cards_conserved: the orks' cards, each once: {card} 0 times"
    ]
    assert violations(state) == []


def test_the_cards_held_other_than_once_are_named_in_order_of_their_ids() -> None:
    """Given the Second War's opening, when every card of the Orks' deck is also in their hand,
    then the invariant names them in the order of their ids, the same in every process (the
    fuzzer compares messages across runs; a set's order changes with PYTHONHASHSEED)."""
    state = RULESET.initial_state(second_war())
    deck = state.decks["orks"]
    broken = replace(state, hands={**state.hands, "orks": deck})
    (violation,) = violations(broken)
    assert violation.line() == "special_cards_conserved: the orks' cards, each once: " + "; ".join(
        f"{card} 2 times, 1 in the deck, 1 in the hand" for card in sorted(deck)
    )

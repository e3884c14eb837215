"""Armies: create, disband and transfer; at most 1 hero, 8 units, 8 armies a hex (p.22–23)."""

from __future__ import annotations

from msgspec.structs import replace

from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    BASES,
    army_block,
    game,
    only,
    sight,
    start_turns,
)
from warlog.domain.armageddon_empires import autoplay
from warlog.domain.armageddon_empires.commands import (
    CreateArmy,
    DisbandArmy,
    MoveArmy,
    TransferCards,
)
from warlog.domain.armageddon_empires.events import (
    ArmyCreated,
    ArmyDisbanded,
    CardsTransferred,
    TurnBegan,
)
from warlog.domain.armageddon_empires.ruleset import RULESET

AT_HQ = ARMIES + army_block("red-c", "red", "0,0", hero="guide", units=("trooper",))


def test_an_army_is_created_empty_at_a_stronghold_or_outpost_for_3_ap() -> None:
    g = start_turns(game())
    events = g.when(CreateArmy(player="red", army="red-new", at="0,4"))
    assert events == [ArmyCreated(empire="red", army="red-new", at="0,4", ap_cost=3)]
    assert g.state.armies["red-new"].cards() == ()
    assert g.state.empires["red"].ap == 9


def test_an_army_is_not_created_away_from_a_base_or_under_a_taken_name() -> None:
    g = start_turns(game())
    g.when_rejected(CreateArmy(player="red", army="red-new", at="2,0"), code="rules/not_at_base")
    g.when_rejected(CreateArmy(player="red", army="red-a", at="0,0"), code="rules/army_name_taken")
    g.when_rejected(CreateArmy(player="red", army="red-x", at="7,5"), code="rules/not_at_base")
    # a name not of its own empire's form would tell of an unseen enemy army that took it (AE-17)
    err = g.when_rejected(CreateArmy(player="red", army="blue-b", at="0,0"), "rules/army_name")
    assert str(err).startswith("red names its armies 'red-...', not 'blue-b'")


def test_a_ninth_army_of_one_empire_in_a_hex_is_refused() -> None:
    g = start_turns(game())
    # the garrison is the first army at 0,0; seven more make eight
    g.events(*(ArmyCreated(empire="red", army=f"x{i}", at="0,0", ap_cost=0) for i in range(7)))
    g.when_rejected(CreateArmy(player="red", army="red-x8", at="0,0"), code="rules/hex_full")
    assert not any(
        isinstance(c, CreateArmy) and c.at == "0,0" for c in RULESET.legal_commands(g.state, "red")
    )


def test_creating_an_army_needs_3_ap() -> None:
    g = start_turns(game())
    g.events(TurnBegan(empire="red", place=1, base_ap=2, bonuses=(), ap=2))
    g.when_rejected(CreateArmy(player="red", army="red-new", at="0,0"), code="rules/not_enough_ap")


def test_an_empty_army_at_a_base_is_disbanded() -> None:
    g = start_turns(game())
    g.when(CreateArmy(player="red", army="red-new", at="0,0"))
    events = g.when(DisbandArmy(player="red", army="red-new"))
    assert events == [ArmyDisbanded(empire="red", army="red-new", at="0,0")]
    assert events[0].explain() == "red disbands the empty army red-new at 0,0 (p.23; AE-9)"
    assert "red-new" not in g.state.armies


def test_only_an_empty_field_army_at_a_base_is_disbanded() -> None:
    g = start_turns(game(armies=AT_HQ))
    g.when_rejected(DisbandArmy(player="red", army="red-c"), code="rules/army_not_empty")
    g.when_rejected(
        DisbandArmy(player="red", army="red-hq-garrison"), code="rules/garrison_cannot_disband"
    )
    g.events(ArmyCreated(empire="red", army="lost", at="3,0", ap_cost=0))
    g.when_rejected(DisbandArmy(player="red", army="lost"), code="rules/not_at_base")
    g.when_rejected(DisbandArmy(player="red", army="blue-hq-garrison"), code="rules/unknown_army")


def test_cards_transfer_between_armies_in_one_hex_for_1_ap() -> None:
    g = start_turns(game(armies=AT_HQ))
    events = g.when(
        TransferCards(
            player="red", from_army="red-hq-garrison", to_army="red-c", cards=("red.trooper.1",)
        )
    )
    assert events == [
        CardsTransferred(
            empire="red",
            from_army="red-hq-garrison",
            to_army="red-c",
            cards=("red.trooper.1",),
            ap_cost=1,
        )
    ]
    # AE-63 (since version 17): the army holds its units in the order of their ids
    assert g.state.armies["red-c"].units == ("red.trooper.1", "red.trooper.4")
    assert g.state.armies["red-hq-garrison"].units == ()
    assert g.state.empires["red"].ap == 11


def test_before_version_17_a_transferred_unit_joins_the_army_s_units_last() -> None:
    g = start_turns(game(armies=AT_HQ))
    g.state = replace(g.state, rules_version=16)
    g.when(
        TransferCards(
            player="red", from_army="red-hq-garrison", to_army="red-c", cards=("red.trooper.1",)
        )
    )
    assert g.state.armies["red-c"].units == ("red.trooper.4", "red.trooper.1")


def test_a_hero_moves_between_armies_as_the_leader() -> None:
    g = start_turns(game(armies=AT_HQ))
    g.when(
        TransferCards(
            player="red", from_army="red-c", to_army="red-hq-garrison", cards=("red.guide.1",)
        )
    )
    assert g.state.armies["red-hq-garrison"].hero == "red.guide.1"
    assert g.state.armies["red-c"].hero is None


def test_an_army_takes_at_most_one_hero() -> None:
    g = start_turns(game(armies=AT_HQ + army_block("red-d", "red", "0,0", hero="captain")))
    err = g.when_rejected(
        TransferCards(player="red", from_army="red-d", to_army="red-c", cards=("red.captain.2",)),
        code="rules/army_full",
    )
    assert "at most 1 hero" in str(err)


def test_an_army_takes_at_most_eight_units() -> None:
    eight = army_block("red-c", "red", "0,0", units=("trooper",) * 8)
    g = start_turns(game(armies=ARMIES + eight))
    err = g.when_rejected(
        TransferCards(
            player="red", from_army="red-hq-garrison", to_army="red-c", cards=("red.trooper.1",)
        ),
        code="rules/army_full",
    )
    assert "at most 8 units" in str(err)
    assert not any(
        isinstance(c, TransferCards) and c.to_army == "red-c"
        for c in RULESET.legal_commands(g.state, "red")
    )


def test_transfers_happen_within_one_hex_between_one_s_own_armies() -> None:
    g = start_turns(game(armies=AT_HQ))
    g.when_rejected(
        TransferCards(player="red", from_army="red-a", to_army="red-c", cards=("red.captain.1",)),
        code="rules/not_same_hex",
    )
    g.when_rejected(
        TransferCards(player="red", from_army="red-c", to_army="red-c", cards=("red.guide.1",)),
        code="rules/same_army",
    )
    g.when_rejected(
        TransferCards(
            player="red", from_army="red-c", to_army="red-hq-garrison", cards=("red.scout.1",)
        ),
        code="rules/card_not_in_army",
    )
    g.when_rejected(
        TransferCards(
            player="red", from_army="red-c", to_army="blue-hq-garrison", cards=("red.guide.1",)
        ),
        code="rules/unknown_army",
    )


def test_a_field_army_is_not_left_empty_away_from_a_base() -> None:
    g = start_turns(game(armies=ARMIES + army_block("red-c", "red", "0,1", units=("trooper",))))
    g.when_rejected(
        TransferCards(player="red", from_army="red-b", to_army="red-c", cards=("red.scout.1",)),
        code="rules/army_stranded",
    )
    # at a base the emptied army may stay, to be disbanded
    g2 = start_turns(game(armies=AT_HQ))
    g2.when(
        TransferCards(
            player="red",
            from_army="red-c",
            to_army="red-hq-garrison",
            cards=("red.guide.1", "red.trooper.4"),
        )
    )
    g2.when(DisbandArmy(player="red", army="red-c"))


def test_cards_that_moved_this_turn_make_their_new_army_count_as_moved() -> None:
    g = start_turns(game(armies=ARMIES + army_block("red-c", "red", "2,0", units=("scout",))))
    g.when(MoveArmy(player="red", army="red-a", to="2,0"))
    events = g.when(
        TransferCards(player="red", from_army="red-a", to_army="red-c", cards=("red.trooper.2",))
    )
    transferred = only(events, CardsTransferred)
    assert transferred.receiver_moved
    assert transferred.explain().endswith(
        f"; {transferred.from_army} has moved this turn, so red-c now counts as moved"
    )
    g.when_rejected(MoveArmy(player="red", army="red-c", to="3,0"), code="rules/already_moved")


def test_the_name_offered_for_a_new_army_does_not_count_the_armies_the_set_up_hid() -> None:
    """Given two games where blue's set-up holds one army named blue-1, or three (blue-1 to
    blue-3), when blue is offered a new army, then the name is the same in both: named by the
    round (the armies created this round are no secret), never by how many blue-<n> it has,
    which red would read in the name once it sights the army."""
    offered = []
    for count in (1, 3):
        armies = ARMIES + "".join(
            army_block(f"blue-{n}", "blue", "7,5", units=("trooper",)) for n in range(1, count + 1)
        )
        g = start_turns(game(armies=armies), first="blue")
        names = {
            c.army for c in RULESET.legal_commands(g.state, "blue") if isinstance(c, CreateArmy)
        }
        offered.append(names)
    assert offered[0] == offered[1] == {"blue-r1-1"}


def _joined(first: str, then: str, version: int | None = None) -> dict[str, object]:
    """Red's view of blue-a once it holds ``first``, then ``then`` transferred in from blue's
    garrison (out of red's sight), red sighting it afterwards."""
    g = start_turns(game())
    state = g.state if version is None else replace(g.state, rules_version=version)
    armies = dict(state.armies)
    armies["blue-a"] = replace(armies["blue-a"], units=(first,))
    armies["blue-hq-garrison"] = replace(armies["blue-hq-garrison"], units=(then,))
    g.state = replace(state, armies=armies)
    g.events(
        CardsTransferred(
            empire="blue", from_army="blue-hq-garrison", to_army="blue-a", cards=(then,), ap_cost=0
        )
    )
    sight(g, "red", "blue-a")
    seen: dict[str, object] = RULESET.view(g.state, "red")["armies"]["blue-a"]
    return seen


def test_a_sighted_army_does_not_tell_in_what_order_its_units_joined_it() -> None:
    """Given blue-a, which holds one trooper and takes another from blue's garrison out of
    red's sight, or the same two the other way round, when red sights it, then red sees the
    same army: since version 17 its units stand in the order of their ids (AE-63); version 16
    listed them as they joined, the one transferred last."""
    one, other = "blue.trooper.1", "blue.trooper.4"
    assert _joined(one, other) == _joined(other, one)
    assert list(_joined(one, other)["units"]) == [one, other]  # type: ignore[call-overload]
    assert list(_joined(other, one, version=16)["units"]) == [other, one]  # type: ignore[call-overload]


def test_autoplay_sends_a_spare_garrison_unit_not_picked_by_its_number() -> None:
    """Given red's garrison holding three spare troopers and red-c, a field army beside it that
    has not moved, when autoplay musters, then the trooper it sends is not the lowest-numbered
    one but the one a key unrelated to the numbers puts first: with numbers drawn at random
    (AE-62) the lowest of three is smaller than the lowest of one, so sending the lowest would
    tell the other empire, once it sees the trooper, how many stood in the garrison."""
    g = start_turns(game(armies=AT_HQ))
    spares = ("red.trooper.2", "red.trooper.3", "red.trooper.4")
    armies = {
        k: replace(a, units=tuple(u for u in a.units if u not in spares))
        for k, a in g.state.armies.items()
    }
    armies["red-hq-garrison"] = replace(armies["red-hq-garrison"], units=spares)
    state = replace(g.state, armies=armies)
    sent = autoplay._muster(state, RULESET.legal_commands(state, "red"))  # its mustering step
    assert isinstance(sent, TransferCards) and sent.to_army == "red-c"
    assert sent.cards == ("red.trooper.3",)  # the first by _unranked's key, not red.trooper.2


def test_an_army_of_seven_units_takes_an_eighth() -> None:
    # p.23: at most 8 units, so the eighth is still taken
    seven = army_block("red-c", "red", "0,0", units=("trooper",) * 7)
    g = start_turns(game(armies=ARMIES + seven))
    transfer = TransferCards(
        player="red", from_army="red-hq-garrison", to_army="red-c", cards=("red.trooper.1",)
    )
    assert transfer in RULESET.legal_commands(g.state, "red")
    g.when(transfer)
    assert len(g.state.armies["red-c"].units) == 8


def test_a_card_named_twice_in_one_transfer_is_refused() -> None:
    g = start_turns(game(armies=AT_HQ))
    err = g.when_rejected(
        TransferCards(
            player="red",
            from_army="red-c",
            to_army="red-hq-garrison",
            cards=("red.trooper.4", "red.trooper.4"),
        ),
        code="rules/duplicate_card",
    )
    assert "named twice" in str(err)
    assert g.state.armies["red-c"].units == ("red.trooper.4",)


def test_cards_that_moved_do_not_make_a_garrison_count_as_moved() -> None:
    # a garrison never moves (AE-8), so the cards that join it leave it as it was
    g = start_turns(game(armies=ARMIES))
    g.when(MoveArmy(player="red", army="red-a", to="0,0"))
    events = g.when(
        TransferCards(
            player="red", from_army="red-a", to_army="red-hq-garrison", cards=("red.trooper.2",)
        )
    )
    assert not only(events, CardsTransferred).receiver_moved
    assert "red-hq-garrison" not in g.state.empires["red"].moved


def test_legal_transfers_never_strand_an_army_away_from_a_base() -> None:
    # red-b holds one scout at 0,1 (no base); red-c beside it holds two troopers
    two = army_block("red-c", "red", "0,1", units=("trooper", "trooper"))
    g = start_turns(game(armies=ARMIES + two))
    offered = {
        (c.from_army, c.to_army)
        for c in RULESET.legal_commands(g.state, "red")
        if isinstance(c, TransferCards)
    }
    # AE-9: red-b's last card is not offered; either of red-c's two is
    assert offered == {("red-c", "red-b")}


def test_the_name_offered_for_a_new_army_skips_a_base_s_id() -> None:
    # a base and an army never share an id: a base named as the round's first army's name
    named = BASES.replace('id = "red-camp"', 'id = "red-r1-1"')
    g = start_turns(game(bases=named))
    created = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CreateArmy)]
    assert {c.army for c in created} == {"red-r1-2"}
    g.when(created[0])
    assert "red-r1-2" in g.state.armies

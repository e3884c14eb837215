"""Card creation (p.28, p.32, p.45; digest §8.5; AE-73, version 28): who may try which card and
where, the threshold challenge (no fate spent in it), the price paid whether it succeeds or not,
the new card's number, the refusals, what the other empire is shown, and the games begun before
version 28, in given-when-then form."""

from __future__ import annotations

import msgspec
import pytest

from tests.domain.armageddon_empires.helpers import (
    ARMIES,
    BASES,
    EMPIRES,
    army_block,
    only,
    standing_in,
    start_turns,
    toml,
    with_ap,
)
from tests.given_when_then import Given
from warlog.domain.armageddon_empires.cards import CardInstance
from warlog.domain.armageddon_empires.commands import CreateCard
from warlog.domain.armageddon_empires.invariants import violations
from warlog.domain.armageddon_empires.numbering import CREATED_PLACE, number
from warlog.domain.armageddon_empires.research_events import ResearchAttempted
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.views import notices
from warlog.domain.core.errors import InputError

#: the creators of these tests and what they create, each to be placed before the empires
CREATORS = """
[[cards]]
kind = "hero"
id = "sage"
name = "Test Sage"
fate = 2
wounds = 2
movement = 3
abilities = ["Tactician 3"]

[[cards]]
kind = "hero"
id = "tinker"
name = "Test Tinker"
fate = 0
wounds = 2
movement = 3
abilities = ["Technologist 2"]

[[cards]]
kind = "facility"
id = "school"
name = "Test School"
defense = 1
structure = 2
abilities = ["Academy"]

[[cards]]
kind = "facility"
id = "lab"
name = "Test Lab"
defense = 1
structure = 2
abilities = ["Laboratory"]

[[cards]]
kind = "tactic"
id = "feint"
name = "Test Feint"
effect = "dice_plus"
amount = 2

[[cards]]
kind = "tactic"
id = "nerve"
name = "Test Nerve"
effect = "fate_plus"
amount = 1

[[cards]]
kind = "munition"
id = "shell"
name = "Test Shell"
damage = 1
"""

#: what a Tactician and a Technologist may create, every entry at one price (AE-73)
RESEARCH = """
[[research.tactician]]
card = "feint"
threshold = 2
ap = 2
cost = { materials = 1 }

[[research.tactician]]
card = "nerve"
threshold = 3
ap = 2
cost = { materials = 1 }

[[research.technologist]]
card = "shell"
threshold = 1
ap = 2
cost = { materials = 1 }
"""

#: red's keep at 0,0 holds an academy and a laboratory, the sage in its garrison; the tinker
#: stands at red's camp (0,4), which holds neither
KEEP = BASES.replace(
    'card = "keep"\ngarrison = ["trooper"]',
    'card = "keep"\nfacilities = ["school", "lab"]\ngarrison = ["trooper", "sage"]',
    1,
)
SAGE = "red.sage.1"
FEINT = CreateCard(player="red", hero=SAGE, card="feint")
#: the faces of a created card's number, 2 d256 (``numbering.CREATED_NUMBER_DICE``)
NUMBER = [1, 1]


def workshop(armies: str = ARMIES, research: str = RESEARCH) -> Given:
    """The test scenario with the creators, in red's turn of round 1."""
    text = toml(extra=research, empires=CREATORS + EMPIRES, bases=KEEP, armies=armies)
    return start_turns(Given(RULESET, parse_scenario(text)))


def test_a_creation_whose_successes_pass_the_threshold_puts_a_new_card_in_the_hand() -> None:
    # given red's Sage (Tactician 3, fate 2) in his keep's garrison, its Academy beside him
    g = workshop()
    red = g.state.empires["red"]
    # when he tries the feint (threshold 2, 2 AP, 1 Materials): 3 successes
    attempt = only(g.when(FEINT, dice=[6, 5, 4, *NUMBER]), ResearchAttempted)
    # then the feint, a new card numbered from the hidden dice, goes to red's hand
    card = f"red.feint.{number(NUMBER, 'red', 'feint', CREATED_PLACE, 0)}"
    assert attempt.created == card == "red.feint.10"
    after = g.state.empires["red"]
    assert after.hand == (*red.hand, card) and g.state.instances[card].owner == "red"
    # and the price is paid: 2 AP and 1 Materials; no fate spent, the Sage's try of this turn
    assert after.ap == red.ap - 2 and after.resources.materials == red.resources.materials - 1
    assert attempt.paid.text() == "materials 1" and attempt.ap_cost == 2
    assert g.state.fate_spent == {} and after.researchers == (SAGE,)
    assert attempt.challenge.attacker.pool.text() == "3 = 3 (Tactician 3 of Test Sage, p.45; AE-73)"
    assert attempt.explain().splitlines()[-1] == (
        "3 successes ≥ threshold 2: created, red.feint.10 into red's hand (ties succeed, "
        "p.28; AE-73)"
    )
    assert violations(g.state) == []


def test_a_creation_that_falls_short_creates_nothing_and_still_costs_its_price() -> None:
    g = workshop()
    red = g.state.empires["red"]
    # when the Sage (fate 2) tries the nerve (threshold 3, 2 AP): 1 success
    nerve = CreateCard(player="red", hero=SAGE, card="nerve")
    attempt = only(g.when(nerve, dice=[6, 1, 1, *NUMBER]), ResearchAttempted)
    # then nothing is created, and the AP and the Materials are spent all the same
    assert attempt.created is None and g.state.empires["red"].hand == red.hand
    assert g.state.empires["red"].ap == red.ap - 2
    assert g.state.empires["red"].resources.materials == red.resources.materials - 1
    # and his fate is not: a hero spends none creating a card (AE-73)
    assert g.state.fate_spent == {} and attempt.challenge.attacker.fate_spent == 0
    assert attempt.explain().splitlines()[-1] == (
        "1 success < threshold 3: not created; its AP and resources are spent all the same "
        "(p.28; AE-73)"
    )
    assert [n.text for n in notices(g.state, g.state, attempt)] == [
        "Round 1: red.sage.1 at 0,0 fails to create a card (nerve; 1 success against a "
        "threshold of 3)"
    ]


def test_successes_equal_to_the_threshold_create_the_card() -> None:
    g = workshop()
    # when the Sage's dice show exactly the feint's threshold of 2, no fate needed
    attempt = only(g.when(FEINT, dice=[6, 6, 1, *NUMBER]), ResearchAttempted)
    # then the tie succeeds (p.28)
    assert attempt.outcome.attacker_successes == attempt.outcome.threshold == 2
    assert attempt.created is not None and attempt.created in g.state.empires["red"].hand
    assert g.state.fate_spent == {}


def test_the_hero_spends_no_fate_and_his_dice_are_his_ability_s_alone() -> None:
    g = workshop()
    # when the Sage (Tactician 3, fate 2) rolls 1 success against the feint's threshold of 2
    attempt = only(g.when(FEINT, dice=[6, 1, 1, *NUMBER]), ResearchAttempted)
    # then his 3 dice stand as rolled, no fate re-rolls one, and the card is not created
    assert attempt.challenge.story == (
        "rolled: researcher Test Sage [6, 1, 1] = 1 success",
        "red accepts: nobody else answers a threshold challenge (p.28)",
    )
    assert attempt.created is None and g.state.fate_spent == {}
    # and a command capping his fate is no command of these rules: no field "fate"
    with pytest.raises(msgspec.ValidationError, match="unknown field `fate`"):
        msgspec.convert(
            {"type": "create_card", "player": "red", "hero": SAGE, "card": "feint", "fate": 0},
            CreateCard,
        )


def test_a_technologist_creates_a_munition_at_a_laboratory() -> None:
    # given red's Tinker (Technologist 2, no fate) in an army at the keep
    g = workshop(ARMIES + army_block("red-tinker", "red", "0,0", hero="tinker"))
    red = g.state.empires["red"]
    shell = CreateCard(player="red", hero="red.tinker.1", card="shell")
    # then the legal commands offer him the shell, and the Sage the feint and the nerve
    offered = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CreateCard)]
    assert offered == [
        CreateCard(player="red", hero=SAGE, card="feint"),
        CreateCard(player="red", hero=SAGE, card="nerve"),
        CreateCard(player="red", hero="red.tinker.1", card="shell"),
    ]
    # when he tries it: 1 success against its threshold of 1
    attempt = only(g.when(shell, dice=[4, 1, *NUMBER]), ResearchAttempted)
    assert (attempt.ability, attempt.created) == ("Technologist", "red.shell.582")
    assert g.state.empires["red"].resources.materials == red.resources.materials - 1


def refusal(g: Given, command: CreateCard, code: str) -> str:
    """The one line ``command`` is refused with, asserted to be ``code``'s."""
    return g.when_rejected(command, code).message


def test_a_hero_without_the_ability_or_away_from_its_facility_is_refused() -> None:
    g = workshop(ARMIES + army_block("red-tinker", "red", "0,4", hero="tinker"))
    assert refusal(
        g, CreateCard(player="red", hero="red.captain.1", card="feint"), "rules/not_a_creator"
    ) == (
        "red.captain.1 has no Tactician X nor Technologist X; only a hero with one creates cards "
        "(p.45; AE-73)"
    )
    assert refusal(
        g, CreateCard(player="red", hero="blue.trooper.1", card="feint"), "rules/not_in_army"
    ) == ("red has no hero 'blue.trooper.1' in an army")
    tinker = CreateCard(player="red", hero="red.tinker.1", card="shell")
    assert refusal(g, tinker, "rules/no_facility") == (
        "no base of red at 0,4 holds a Laboratory: a Technologist creates cards only where one "
        "does (digest §8.5; AE-73)"
    )
    wrong = CreateCard(player="red", hero=SAGE, card="shell")
    assert refusal(g, wrong, "rules/not_offered") == (
        "'shell' is not on the research list of red.sage.1's Tactician (Tactician: feint, "
        "nerve; AE-73)"
    )


def test_a_full_hand_a_second_try_and_too_little_ap_or_resources_are_refused() -> None:
    g = workshop()
    only(g.when(FEINT, dice=[6, 6, 6, *NUMBER]), ResearchAttempted)
    # the hand holds its 6 cards now (AE-6), and the Sage has made his try of this turn
    assert refusal(g, FEINT, "rules/already_researched") == (
        "red.sage.1 has already tried to create a card this turn (AE-73)"
    )
    again = workshop()
    hand = again.state.empires["red"].hand
    full = msgspec.structs.replace(again.state.empires["red"], hand=(*hand, "red.captain.1"))
    again.state = msgspec.structs.replace(again.state, empires={**again.state.empires, "red": full})
    assert refusal(again, FEINT, "rules/hand_full") == (
        "red's hand is full (6 cards, AE-6): a card created needs room in it (p.21; AE-73)"
    )
    poor = with_ap(workshop(), "red", 1)
    assert refusal(poor, FEINT, "rules/not_enough_ap") == "creating feint costs 2 AP; red has 1"
    broke = workshop()
    red = broke.state.empires["red"]
    empty = msgspec.structs.replace(
        red, resources=msgspec.structs.replace(red.resources, materials=0)
    )
    broke.state = msgspec.structs.replace(
        broke.state, empires={**broke.state.empires, "red": empty}
    )
    assert refusal(broke, FEINT, "rules/not_enough_resources") == (
        "creating feint costs materials 1; red has humans 9, energy 5, technology 1"
    )


def test_a_besieged_base_and_a_hex_out_of_supply_create_nothing() -> None:
    # given blue's army standing in red's keep's hex, seen there: the keep is besieged (p.26)
    g = standing_in(workshop(), "blue-a", "0,0")
    # then, red's camp supplying the keep's hex, the siege refuses it
    assert refusal(g, FEINT, "rules/besieged") == (
        "red-hq at 0,0 is besieged: no card is created in a besieged base (digest §8.5; AE-73)"
    )
    # and with a supply range of 0, the camp supplying only its own hex, the hex is out of supply
    red = msgspec.structs.replace(g.state.empires["red"], supply_range=0)
    g.state = msgspec.structs.replace(g.state, empires={**g.state.empires, "red": red})
    assert refusal(g, FEINT, "rules/out_of_supply") == (
        "0,0 is out of red's supply: cards are created only in supply (digest §8.5; AE-73)"
    )
    assert not [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CreateCard)]


@pytest.mark.parametrize("version", ["27", "26"])
def test_a_game_begun_before_version_28_refuses_the_command(version: str) -> None:
    # given the same position in a game begun under an earlier version (its scenario accepted
    # there only as recorded: a new one of 27 refuses the abilities and the lists, AE-70, AE-73)
    g = workshop()
    old = RULESET.at_version(version)
    assert old is not None
    g.ruleset = old
    g.state = msgspec.structs.replace(g.state, rules_version=int(version))
    assert refusal(g, FEINT, "rules/not_in_this_version") == (
        f"create_card is not played under version {version} of these rules (since version 28, "
        "AE-73)"
    )
    assert not [c for c in old.legal_commands(g.state, "red") if isinstance(c, CreateCard)]


def test_the_other_empire_sees_no_researcher_and_no_fate_spent() -> None:
    # given blue has sighted the Sage's garrison, and the Sage fails the nerve
    g = workshop()
    from tests.domain.armageddon_empires.helpers import sight

    sight(g, "blue", "red-hq-garrison")
    attempt = only(
        g.when(CreateCard(player="red", hero=SAGE, card="nerve"), dice=[6, 1, 1, *NUMBER]),
        ResearchAttempted,
    )
    # then blue sees the Sage, none of his fate spent, and no researcher
    blue = RULESET.view(g.state, "blue")
    assert blue["fate_spent"] == {} == RULESET.view(g.state, "red")["fate_spent"]
    assert SAGE in blue["instances"] and "researched" not in blue["empires"]["red"]
    # and is told nothing in its Events view
    assert [n.empire for n in notices(g.state, g.state, attempt)] == ["red"]


def test_the_invariants_hold_an_empire_s_researchers_to_its_own_creators_once_a_turn() -> None:
    g = workshop()
    red = g.state.empires["red"]
    for listed in (("red.captain.1",), (SAGE, SAGE)):
        wrong = msgspec.structs.replace(red, researched=listed)
        state = msgspec.structs.replace(g.state, empires={**g.state.empires, "red": wrong})
        assert [v.name for v in violations(state)] == ["researchers_once_a_turn"]


def rejected(research: str) -> str:
    """The one line the test scenario with ``research`` lists is refused with."""
    with pytest.raises(InputError) as info:
        parse_scenario(toml(extra=research, empires=CREATORS + EMPIRES, bases=KEEP))
    assert info.value.code == "input/bad_scenario"
    return info.value.message


def entry(card: str, threshold: int = 1, ability: str = "tactician") -> str:
    return f'\n[[research.{ability}]]\ncard = "{card}"\nthreshold = {threshold}\nap = 1\n'


def test_a_research_list_is_refused_for_each_mistake_in_one_line() -> None:
    assert rejected(entry("ghost-card")) == (
        "bad scenario: $.research.tactician[0].card: unknown card 'ghost-card'"
    )
    assert rejected(entry("shell")) == (
        "bad scenario: $.research.tactician[0].card: 'shell' is a munition card; a Tactician "
        "creates tactic cards (digest §8.5; AE-73)"
    )
    assert rejected(entry("trooper")) == (
        "bad scenario: $.research.tactician[0].card: 'trooper' is a unit card; a Tactician "
        "creates tactic cards (digest §8.5; AE-73)"
    )
    assert rejected(entry("feint", ability="technologist")) == (
        "bad scenario: $.research.technologist[0].card: 'feint' is a tactic card; a "
        "Technologist creates attack cards and munition cards (digest §8.5; AE-73)"
    )
    assert rejected(entry("feint", threshold=0)) == (
        "bad scenario: $.research.tactician[0].threshold: threshold 0: at least 1, the "
        "successes the hero needs (p.28; AE-73)"
    )
    assert rejected(entry("feint") + entry("feint")) == (
        "bad scenario: $.research.tactician[1].card: 'feint' is listed twice"
    )
    seven = "".join(
        f'\n[[cards]]\nkind = "tactic"\nid = "t{i}"\nname = "T{i}"\neffect = "dice_plus"\namount = 1\n'
        for i in range(7)
    )
    with pytest.raises(InputError) as info:
        parse_scenario(
            toml(
                extra="".join(entry(f"t{i}") for i in range(7)),
                empires=seven + CREATORS + EMPIRES,
                bases=KEEP,
            )
        )
    assert info.value.message == (
        "bad scenario: $.research.tactician: 7 cards; a Tactician is offered at most 6 to pick "
        "from (digest §8.5; AE-73)"
    )


#: the Tinker's list, one munition he reaches, for a scenario whose Tinker would else be refused
SHELL = entry("shell", ability="technologist")


def played_here(research: str, creators: str = CREATORS) -> None:
    """The test scenario with ``research`` lists and ``creators``, as version 28 loads it (the
    checks of what it plays, ``scenario_checks.check_played``, too)."""
    RULESET.parse_scenario(toml(extra=research, empires=creators + EMPIRES, bases=KEEP).encode())


def test_a_threshold_no_creator_of_the_scenario_can_reach_is_refused() -> None:
    # given the Sage, Tactician 3, the scenario's only Tactician, and the Tinker, Technologist 2:
    # a hero rolls X dice and needs the threshold in successes, spending no fate
    # when a tactic card asks 4 successes, or a munition 3
    # then the scenario is refused in one line naming the entry and the best creator it holds
    with pytest.raises(InputError) as info:
        played_here(entry("feint", threshold=4) + SHELL)
    assert info.value.code == "input/bad_scenario"
    assert info.value.message == (
        "bad scenario: $.research.tactician[0].threshold: threshold 4 of 'feint': a Tactician "
        "rolls X dice and needs that many successes, spending no fate, and the scenario's best "
        "is Tactician 3 ('sage'), so nobody could create it (p.28; AE-73)"
    )
    with pytest.raises(InputError) as info:
        played_here(entry("feint") + entry("shell", threshold=3, ability="technologist"))
    assert info.value.message == (
        "bad scenario: $.research.technologist[0].threshold: threshold 3 of 'shell': a "
        "Technologist rolls X dice and needs that many successes, spending no fate, and the "
        "scenario's best is Technologist 2 ('tinker'), so nobody could create it (p.28; AE-73)"
    )
    # and a list whose ability no card prints is refused likewise
    with pytest.raises(InputError) as info:
        played_here(entry("feint") + SHELL, CREATORS.replace("Tactician 3", "Technologist 3"))
    assert info.value.message == (
        "bad scenario: $.research.tactician[0].threshold: threshold 1 of 'feint': a Tactician "
        "rolls X dice and needs that many successes, spending no fate, and no hero card of the "
        "scenario prints Tactician X, so nobody could create it (p.28; AE-73)"
    )
    # and a card other than a hero printing a higher Tactician X does not count: only a hero
    # creates cards (p.45)
    drill = (
        '\n[[cards]]\nkind = "unit"\nid = "drill"\nname = "Test Drill"\nattack = 1\n'
        'defense = 1\nhit_points = 1\nmovement = 1\nabilities = ["Tactician 5"]\n'
    )
    with pytest.raises(InputError) as info:
        played_here(entry("feint", threshold=4) + SHELL, drill + CREATORS)
    assert "the scenario's best is Tactician 3 ('sage')" in info.value.message
    # and thresholds the best creators reach, ties included, are accepted
    played_here(entry("feint", threshold=3) + entry("shell", threshold=2, ability="technologist"))


def test_research_entries_priced_apart_are_refused_naming_each_that_differs() -> None:
    # given a list whose nerve costs 1 AP more than the feint, and a shell that costs Technology
    # too: blue, seeing red's AP and stockpile, would tell which card, or which list, was tried
    nerve = entry("nerve").replace("ap = 1", "ap = 2")
    shell = entry("shell", ability="technologist") + "cost = { technology = 1 }\n"
    # then the scenario is refused in one line naming both against the first entry's price
    assert rejected(entry("feint") + nerve + shell) == (
        "bad scenario: $.research: tactician[1] 'nerve' costs 2 AP; technologist[0] 'shell' "
        "costs 1 AP and technology 1, where tactician[0] 'feint' costs 1 AP: every card of the "
        "research lists costs one price, since the AP and the stockpile the other empire sees "
        "would tell it which was tried (AE-73)"
    )
    # and entries at one price, across both lists, are accepted
    shared = "cost = { technology = 1 }\n"
    parse_scenario(
        toml(
            extra=entry("feint") + shared + entry("shell", ability="technologist") + shared,
            empires=CREATORS + EMPIRES,
            bases=KEEP,
        )
    )


def test_a_card_type_whose_numbers_the_other_empire_holds_all_is_refused() -> None:
    # given every id red numbers its feints under, red.feint.1 to red.feint.999, held by blue
    # (cards change hands: a captured base's), and red holding no feint of its own
    g = workshop()
    taken = {f"red.feint.{n}": CardInstance(card="feint", owner="blue") for n in range(1, 1000)}
    g.state = msgspec.structs.replace(g.state, instances={**g.state.instances, **taken})
    # then the Sage's feint is refused, since no number is free to create it under (AE-62)
    assert refusal(g, FEINT, "rules/too_many_cards") == (
        "every number of red's 'feint' cards, 1 to 999, is taken: no more are numbered (AE-62, "
        "AE-73)"
    )
    # and the legal commands offer him the nerve alone
    offered = [c for c in RULESET.legal_commands(g.state, "red") if isinstance(c, CreateCard)]
    assert offered == [CreateCard(player="red", hero=SAGE, card="nerve")]


def test_a_created_card_s_number_skips_one_already_taken() -> None:
    # given red already holds a feint numbered 10, the number the dice [1, 1] give first
    g = workshop()
    taken = CardInstance(card="feint", owner="red")
    g.state = msgspec.structs.replace(
        g.state, instances={**g.state.instances, "red.feint.10": taken}
    )
    # when the Sage creates a feint with those number dice
    attempt = only(g.when(FEINT, dice=[6, 6, 6, *NUMBER]), ResearchAttempted)
    # then it takes the number of the next attempt (AE-62's reading, AE-73)
    again = number(NUMBER, "red", "feint", CREATED_PLACE, 1)
    assert attempt.created == f"red.feint.{again}" != "red.feint.10"


def test_a_game_without_research_lists_reads_as_before_and_one_with_them_shows_them() -> None:
    # given a game whose scenario has no research lists, as every game begun before version 28
    plain = start_turns(Given(RULESET, parse_scenario(toml())))
    # then its state, whole, does not name the lists
    for reader in (None, "red", "blue"):
        assert "research" not in RULESET.view(plain.state, reader)
    # and a game with them shows every reader the lists
    g = workshop()
    only(g.when(FEINT, dice=[6, 1, 1, *NUMBER]), ResearchAttempted)
    assert RULESET.view(g.state, "blue")["research"]["tactician"][0]["card"] == "feint"

"""The Armageddon Empires ruleset: the value the application is handed (``RULESET``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from msgspec.structs import replace

from warlog.domain.armageddon_empires import decisions, ground_to_air, hand, minefields, numbering
from warlog.domain.armageddon_empires.air_events import AIR_EVENT_TYPES
from warlog.domain.armageddon_empires.assassination_events import ASSASSINATION_EVENT_TYPES
from warlog.domain.armageddon_empires.battle_events import BATTLE_EVENT_TYPES
from warlog.domain.armageddon_empires.challenge_events import CHALLENGE_EVENT_TYPES
from warlog.domain.armageddon_empires.commands import CARD_CREATION_SINCE, AnyCommand
from warlog.domain.armageddon_empires.decide import HANDLERS
from warlog.domain.armageddon_empires.events import EVENT_TYPES, RoundBegan
from warlog.domain.armageddon_empires.evolve import evolve, unapplied
from warlog.domain.armageddon_empires.fallout_events import FALLOUT_EVENT_TYPES
from warlog.domain.armageddon_empires.legal import COMPLETE, options
from warlog.domain.armageddon_empires.minefield_events import MINEFIELD_EVENT_TYPES
from warlog.domain.armageddon_empires.research_events import RESEARCH_EVENT_TYPES
from warlog.domain.armageddon_empires.sabotage_events import SABOTAGE_EVENT_TYPES
from warlog.domain.armageddon_empires.sighting_events import SIGHTING_EVENT_TYPES
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Handler, Rules, every_version
from warlog.domain.core.ruleset import Command, Notice, Ruleset
from warlog.domain.core.seal import Secret
from warlog.domain.core.summary import Summary

if TYPE_CHECKING:
    from warlog.domain.armageddon_empires.scenario import Scenario

# A command imports what it uses when it first uses it: the scenario reader and the initial
# set-up (a new game, an audit; a snapshot holds the rest), the views (state, view) and the
# policy (autoplay), so that a `warlog play` process starts faster. The legal commands' module
# is imported here for ``COMPLETE``: it imports nothing the rules have not already.


class ArmageddonEmpires(Rules[GameState, Command]):
    """Hexes, empires, cards, armies, bases, supply, the round of turns, challenges, observation
    and fog of war, stealth, Capture Kill, assassination, repairs, battles and retreats, sieges, the air war,
    collateral damage, weapons of mass destruction, minefields and victory."""

    name: ClassVar[str] = "armageddon-empires"
    #: 2: sealed hidden values, the opening deal (AE-15); 3: challenges, fog of war, stealth,
    #: Capture Kill, repairs, the HQ retaken until the end of the turn (AE-10, AE-16..AE-24);
    #: 4: battles, retreats, sieges, the fall of bases (AE-25 onward); 5: the air war, the draw
    #: (AE-39..AE-43); 6: munitions, collateral damage, WMD, minefields (AE-44 onward); 7: an air
    #: strike's unit targets judged by its empire's sightings alone (AE-42); 8: an army that drops
    #: stealth or takes units in an enemy base's hex is seen there, as every round,
    #: names ending '-garrison' kept for garrisons, a sniper's AP always owed (AE-56..AE-58); 9:
    #: a minefield's challenges the referee's hidden roll (AE-53); 10: an empty army counts for
    #: nothing in its hex to the other empire, and which ones the Empty Armies Rule destroys is
    #: sealed for it (AE-59); 11: a base's facilities are repaired by the empire that holds it
    #: (AE-60); 12: a captured base's own card is repaired by its holder too (AE-60), a helo
    #: flies from a base in range before an army (AE-39), a garrison falls with a lost battle
    #: only when its retreat was chosen, its hero left alone taken prisoner with the base
    #: (AE-32, AE-34); and three leaks an attacker's probe found closed: where an attack card
    #: flew from sealed for its empire (AE-39), a card's open damage not counting what hidden
    #: challenges dealt it nor a repair out of sight (AE-49), an empty army no side of a battle anywhere (AE-59), a
    #: foiled hunt's army, hex and hero sealed for the hunter (AE-38); a gunner's empire chooses
    #: whether it fires from the ground (AE-41); 13: the Ground-To-Air window asks every other
    #: empire, whatever the hex holds, which of its gunners it fires, so that a gunner that holds
    #: its fire is never named (AE-41); 14: a captured base's facility struck from the air is
    #: defended by its captor, and a stealthed army's Forward Air Controller neither counts nor
    #: shows (AE-42); 15: the recorded scenario holds each empire's armies and minefields under
    #: that empire, each list sealed whole for it, so that ``game_created`` tells neither empire
    #: how many the other has (AE-61); 16: unless the scenario declares its set-up public, the
    #: cards of each empire's hidden set-up are numbered at random from its sealed dice when the
    #: game opens, so that a card seen in play does not tell how many of its type came before
    #: it (AE-62); 17: an army holds its units in the order of their ids, so that what the other
    #: empire sees of it does not tell in what order they joined (AE-63); 18: unless the
    #: scenario declares its set-up public, the recorded scenario's catalogue holds in the clear
    #: only the card types of its public part, each empire's other types sealed whole for it
    #: under it, and every move is checked for minefields, so that ``game_created`` and the
    #: first move tell neither empire which card types the other's hidden set-up holds (AE-64);
    #: 19: a WMD strike's hidden radiation dice are the same 25 rolls in every game, one per
    #: prime of the largest power of it up to 99 sides, from which each card reads its random
    #: 1..resistance, so that their sides no longer tell the resistances of the other empire's
    #: hidden card types (AE-65); 20: an Air-To-Ground challenge's opening records the Forward
    #: Air Controllers of the striker's empire in the hex that its pool leaves out because their
    #: army is stealthed, sealed for the striker, so that it can read why they did not count and
    #: the defender learns nothing (AE-42); 21: each hidden roll of collateral damage or a WMD
    #: is made once per empire, in the scenario's order, each holding that empire's armies or
    #: cards alone (a roll of none recorded), so that with the same key an empire's results no
    #: longer hang on the other empire's cards in the hex (AE-66); ``battle_averted`` records
    #: what called the battle, an assault or a delayed attack, and cites its ruling alone
    #: (AE-35, AE-36); 22: a hunt foiled because its hero's army has engaged stealth shows the
    #: hunter nothing of that army, so that a hunt no longer shows what no check gave, and a hero
    #: seen in a stealthed army is no target (AE-38); 23: independent minefields, controlled by
    #: no empire, sealed for every player in ``game_created`` (``independent``, present even
    #: when empty), that stop and attack any empire's army and report to nobody, every checked
    #: move followed by a third ``minefields_reported``, of no empire (AE-67); 24: every hunt looks
    #: alike to the hunted empire until its outcome: its target is picked by a hidden roll of the
    #: hunter's, the same dice in every hunt, and its ``target`` is recorded, sealed, even when
    #: left out (AE-21, AE-38); an empire judges whether its base is besieged or its hex disputed
    #: by what it has seen there this round, and its base sees an army that ends a move in its
    #: hex, so that a besieger's stealth no longer shows in its supply (AE-35, AE-56); 25: an
    #: army a minefield destroys on its move is lost from the sight of every empire that had it
    #: in sight, as one that moves out of sight is (AE-17, AE-53, AE-67); 26: in a battle an
    #: army's units lose attack and defence dice for each unit card over its Command Rating
    #: (AE-68) and while it is out of supply (AE-69; ``penalties``), a battle is made to end only
    #: as a stalemate, after 12 rounds in a row in which no strike took a hit point, not after its
    #: 12th round whatever they dealt (AE-31), and a new scenario may give a card only the
    #: abilities these rules play, each on a kind of card they read it on (AE-70); 27: a card with
    #: Assassin X makes assassination attempts on the enemy heroes its empire has spotted in its
    #: hex, a Master Assassin naming his target and a Slayer killing with a single wound, the
    #: attempt showing the target's empire the assassin and never its army (AE-71); a saboteur
    #: sabotages a facility of an enemy base in its hex, a duel where Counter Intel stands
    #: (p.29, p.45, p.48; AE-72), and Saboteur X, Master Saboteur, Demolitionist and Counter
    #: Intel are played (AE-70); the hidden pick of a hunt's, an assassination's or a sabotage's
    #: target is the referee's roll, not the acting empire's (AE-21, ``targets``); 28: a hero
    #: with Tactician X or Technologist X creates a card of his ability's research list, the
    #: scenario's, at a base of his empire holding an Academy or a Laboratory, in a threshold
    #: challenge resolved at once out of the other empire's sight, and Tactician X,
    #: Technologist X, Academy and Laboratory are played (p.28, p.32, p.45; AE-70, AE-73)
    version: ClassVar[str] = "28"
    #: each played as a variant of this class (``every_version``); version 6's air strike's
    #: unit targets are the sighted units still standing in the hex (AE-42,
    #: ``air_targets._version_6_targets``)
    kept_versions: ClassVar[tuple[str, ...]] = (
        "27",
        "26",
        "25",
        "24",
        "23",
        "22",
        "21",
        "20",
        "19",
        "18",
        "17",
        "16",
        "15",
        "14",
        "13",
        "12",
        "11",
        "10",
        "9",
        "8",
        "7",
        "6",
    )
    event_types: ClassVar[tuple[type[Event], ...]] = (
        EVENT_TYPES
        + SIGHTING_EVENT_TYPES
        + CHALLENGE_EVENT_TYPES
        + BATTLE_EVENT_TYPES
        + AIR_EVENT_TYPES
        + FALLOUT_EVENT_TYPES
        + MINEFIELD_EVENT_TYPES
        + ASSASSINATION_EVENT_TYPES
        + SABOTAGE_EVENT_TYPES
        + RESEARCH_EVENT_TYPES
    )
    inert_events: ClassVar[frozenset[str]] = unapplied(event_types)
    command_type: ClassVar[Any] = AnyCommand
    state_type: ClassVar[type] = GameState
    scenario_package: ClassVar[str] = "warlog.domain.armageddon_empires.scenarios"
    default_scenario: ClassVar[str] = "cinder-and-glass"
    round_word: ClassVar[str] = "round"
    seat_word: ClassVar[str] = "empire"
    #: the view's "waiting", "active", "awaited" (``views.view``) and whose turn it is
    decision_keys: ClassVar[tuple[str, ...]] = ("waiting", "active", "awaited", "current")
    handlers: ClassVar[Mapping[type[Any], Handler]] = HANDLERS
    complete_legal: ClassVar[frozenset[str]] = COMPLETE
    retired_commands: ClassVar[Mapping[str, tuple[int, str]]] = ground_to_air.GROUND_TO_AIR_RETIRED
    from warlog.domain.armageddon_empires.invariants import invariants

    def parse_scenario(self, data: bytes) -> Scenario:
        from warlog.domain.armageddon_empires import scenario_checks

        return self._played_here(scenario_checks.parse_scenario(data))

    def scenario_from_builtins(self, obj: dict[str, Any]) -> Scenario:
        from warlog.domain.armageddon_empires import recorded_scenario as recorded

        return self._played_here(recorded.scenario_from_builtins(obj))

    def _played_here(self, scenario: Scenario) -> Scenario:
        """``scenario``, which this version plays; InputError ``input/bad_scenario`` naming the
        first independent minefield before version 23 (AE-67), research lists before version 28
        (AE-73), and since version 26 the first card ability these rules do not play (AE-70,
        ``scenario_checks.check_played``)."""
        from warlog.domain.armageddon_empires import scenario as scenarios
        from warlog.domain.armageddon_empires import scenario_checks
        from warlog.domain.core.scenario import bad_scenario

        since = minefields.INDEPENDENT_MINEFIELDS_SINCE
        independent = scenarios.independent_minefields(scenario)
        if independent and int(self.version) < since:
            i, _ = independent[0]
            raise bad_scenario(
                f"$.minefields[{i}].empire",
                f"none given: an independent minefield (of no empire) is played since "
                f"version {since} of these rules; this game's is {self.version} (AE-67)",
            )
        researched = not isinstance(scenario.research, msgspec.UnsetType)
        if researched and int(self.version) < CARD_CREATION_SINCE:
            raise bad_scenario(
                "$.research",
                f"research lists are played since version {CARD_CREATION_SINCE} of these "
                f"rules; this game's is {self.version} (AE-73)",
            )
        scenario_checks.check_played(scenario, int(self.version))
        return scenario

    def players(self, scenario: Scenario) -> list[str]:
        return [e.id for e in scenario.empires]

    def initial_state(self, scenario: Scenario) -> GameState:
        from warlog.domain.armageddon_empires import setup
        from warlog.domain.armageddon_empires.scenario import setup_is_public

        version = int(self.version)
        hidden = not setup_is_public(scenario)
        at_random = hidden and version >= numbering.CARDS_NUMBERED_UNSEEN_SINCE
        state = setup.initial_state(scenario)
        state = replace(
            state,
            rules_version=version,
            numbered_at_random=at_random,
            mined=state.mined or self._catalogue_by_empire(scenario),  # AE-64
        )
        armies = {k: replace(a, units=state.in_order(a.units)) for k, a in state.armies.items()}
        return replace(state, armies=armies)  # AE-63

    def next(self, state: GameState) -> Next:
        return decisions.NEXT(state)

    def seats(self, state: GameState) -> Sequence[str]:
        return state.seats

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def options(self, state: GameState, decision: Decision, player: str) -> list[Command]:
        return options(state, decision, player)

    def choose(self, state: GameState, player: str, legal: Sequence[Command]) -> Command:
        from warlog.domain.armageddon_empires import autoplay

        return autoplay.choose(state, player, list(legal))

    def set_up(self, batch: Batch[GameState]) -> None:
        """Since version 16 the hidden set-up's cards numbered at random (AE-62), unless the
        scenario's set-up is public; then the opening deal (AE-15), which names cards by
        those numbers."""
        numbering.number_cards(batch)
        hand.deal_starting_hands(batch)

    def recorded_scenario(self, scenario: Scenario) -> dict[str, Any]:
        """Since version 18, unless the set-up is public, the catalogue split: its public
        part at the top level, each empire's other types under it (AE-64,
        ``recorded_scenario.recorded_catalogue_by_empire``); since version 15 each empire's
        armies and minefields under it (AE-61, ``recorded_scenario.recorded_by_empire``), and
        since version 23 the independent minefields under ``independent`` (AE-67); before,
        the scenario's fields as they are."""
        from warlog.domain.armageddon_empires import recorded_scenario as recorded

        independent = self._independent()
        if self._catalogue_by_empire(scenario):
            return recorded.recorded_catalogue_by_empire(scenario, independent)
        if int(self.version) >= recorded.HIDDEN_SETUP_BY_EMPIRE_SINCE:
            return recorded.recorded_by_empire(scenario, independent)
        return super().recorded_scenario(scenario)

    def _independent(self) -> bool:
        """Whether this version records the independent minefields under ``independent``, each
        list sealed whole for every player: since version 23 (AE-67)."""
        return int(self.version) >= minefields.INDEPENDENT_MINEFIELDS_SINCE

    def _catalogue_by_empire(self, scenario: Scenario) -> bool:
        """Whether this version records ``scenario``'s catalogue by empire and checks every
        move for minefields: since version 18, unless its set-up is public (AE-64)."""
        from warlog.domain.armageddon_empires import recorded_scenario as recorded
        from warlog.domain.armageddon_empires import scenario as scenarios

        hidden = not scenarios.setup_is_public(scenario)
        return hidden and int(self.version) >= recorded.CATALOGUE_BY_EMPIRE_SINCE

    def hidden_setup(self, scenario: Scenario) -> list[Secret]:
        """AE-7: each empire's starting hand and deck are sealed for the other empire; AE-17:
        so are its armies in the field and its garrisons (bases themselves are public); AE-53:
        and its minefields, camouflaged. Since version 15 each empire's armies and its
        minefields are two lists under it, each sealed whole, empty or not (AE-61); before,
        each entry was sealed on its own, so that their number showed. Since version 18, unless
        the set-up is public, the card types only its hidden set-up uses are a third list under
        it, sealed whole, empty or not (AE-64). Since version 23 the independent minefields
        and, the set-up hidden, the card types they alone use are one or two lists under
        ``independent``, each sealed whole for every player, empty or not (AE-67)."""
        from warlog.domain.armageddon_empires import recorded_scenario as recorded
        from warlog.domain.armageddon_empires import scenario as scenarios

        out: list[Secret] = []
        for i, empire in enumerate(scenario.empires):
            out += [(f"empires.{i}.hand", empire.id), (f"empires.{i}.deck", empire.id)]
        for i, base in enumerate(scenario.bases):
            out.append((f"bases.{i}.garrison", base.empire))
        if int(self.version) >= recorded.HIDDEN_SETUP_BY_EMPIRE_SINCE:
            for i, empire in enumerate(scenario.empires):
                out += [(f"empires.{i}.{field}", empire.id) for field in recorded.BY_EMPIRE]
                if self._catalogue_by_empire(scenario):
                    out.append((f"empires.{i}.cards", empire.id))
            if self._independent():  # AE-67: nobody's, sealed for every player
                split = self._catalogue_by_empire(scenario)
                lists = recorded.INDEPENDENT_SEALED if split else recorded.INDEPENDENT_SEALED[:1]
                out += [(f"{recorded.INDEPENDENT_KEY}.{field}", None) for field in lists]
            return out
        for i, army in enumerate(scenario.armies):
            out.append((f"armies.{i}", army.empire))
        for i, mine in enumerate(scenarios.placed_minefields(scenario)):
            out.append((f"minefields.{i}", scenarios.controller(mine)))
        return out

    def result(self, state: GameState) -> str:
        return state.ended or "an HQ has fallen"

    def at_version(self, version: str) -> ArmageddonEmpires | None:
        """This version, or a kept one for the games begun under it (``VERSIONS``)."""
        return VERSIONS.get(version)

    def not_waiting_for(self, state: GameState, decision: Decision, command: Command) -> RulesError:
        if decision.kind == "initiative" and command.player in state.bids:
            return RulesError(
                f"{command.player} has already bought initiative dice this round",
                "rules/already_bought",
            )
        return super().not_waiting_for(state, decision, command)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        from warlog.domain.armageddon_empires import views

        return views.view(state, player)

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        from warlog.domain.armageddon_empires import summary

        return summary.summary(view, player)

    def notices(self, before: GameState, after: GameState, event: Event) -> list[Notice]:
        from warlog.domain.armageddon_empires import views

        return views.notices(before, after, event)

    def round_of(self, state: GameState) -> int:
        return state.round

    def is_round_start(self, event: Event) -> bool:
        """``round_began``, and ``game_created``, which begins round 1."""
        return isinstance(event, RoundBegan | GameCreated)


LATEST = ArmageddonEmpires()
#: every version this warlog plays, by version
VERSIONS: dict[str, ArmageddonEmpires] = every_version(LATEST)
RULESET: Ruleset[GameState, Command] = LATEST

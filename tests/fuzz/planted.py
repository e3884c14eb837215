"""Copies of Battle for Armageddon (and one each of Midgard: Heroic Battles and Armageddon
Empires) with a bug planted in each, registered under names of their own (the Armageddon Empires
one under its ruleset's, to fuzz a recorded source): what ``warlog fuzz`` must find and shrink
(issue 14, item 5)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from msgspec import UNSET
from msgspec.structs import replace

from warlog.domain import rulesets
from warlog.domain.armageddon_empires import commands as ae_cmd
from warlog.domain.armageddon_empires import engineers
from warlog.domain.armageddon_empires.costs import LAY_MINEFIELD_AP
from warlog.domain.armageddon_empires.decide import HANDLERS as AE_HANDLERS
from warlog.domain.armageddon_empires.minefield_events import MinefieldLaid
from warlog.domain.armageddon_empires.ruleset import ArmageddonEmpires
from warlog.domain.armageddon_empires.state import GameState as AeState
from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.decide import HANDLERS
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, PLAYERS, READY
from warlog.domain.battle_for_armageddon.ruleset import BattleForArmageddon
from warlog.domain.battle_for_armageddon.state import GameState
from warlog.domain.battle_for_armageddon.turn_events import CounterDeployed
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.events import Event
from warlog.domain.core.procedure import Decision, Next
from warlog.domain.core.rules import Handler
from warlog.domain.core.ruleset import Command
from warlog.domain.core.summary import Summary
from warlog.domain.heroic_battles import commands as hb_cmd
from warlog.domain.heroic_battles import movement
from warlog.domain.heroic_battles.decide import HANDLERS as HB_HANDLERS
from warlog.domain.heroic_battles.events import HeroJoined
from warlog.domain.heroic_battles.ruleset import HeroicBattles
from warlog.domain.heroic_battles.state import GameState as HbState

#: the rules version the planted bugs' games are recorded and fuzzed under, whatever the latest:
#: what a test's seed finds stays the same when a later version changes Battle for Armageddon's
#: events (version 6 added a reroll's leader, and the examples' draws moved with the log)
RECORDED_UNDER = "5"


class PinnedBattle(BattleForArmageddon):
    """Battle for Armageddon at ``RECORDED_UNDER``: the base of every planted ruleset and fix."""

    version: ClassVar[str] = RECORDED_UNDER


class CrashInCombat(PinnedBattle):
    """A rare crash in a combat path: an attack at long odds that rolls Attacker Eliminated
    (Combat Results Table, columns 1:4 and 1:3) raises instead of eliminating the attackers."""

    name: ClassVar[str] = "bfa-planted-crash"

    def next(self, state: GameState) -> Next:
        c = state.combat
        if c is not None and c.settled and c.result == "AE":
            return _crash
        return super().next(state)


def _crash(batch: Batch[GameState]) -> None:
    raise ZeroDivisionError("planted: no attacker left to count")


class MutatingEvolve(PinnedBattle):
    """An ``evolve`` that deploys a counter (the Orks' set-up) by changing the previous state's
    dict of counters in place."""

    name: ClassVar[str] = "bfa-planted-mutation"

    def evolve(self, state: GameState, event: Event) -> GameState:
        if isinstance(event, CounterDeployed):
            state.counters[event.counter] = replace(
                state.counters[event.counter], location=event.area
            )
            return replace(state)
        return super().evolve(state, event)


class LeakingView(PinnedBattle):
    """A view that shows each side the other's hand of special cards."""

    name: ClassVar[str] = "bfa-planted-leak"

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        out = super().view(state, player)
        for side in PLAYERS:
            out["hands"][side]["cards"] = list(state.hands[side])
        return out


class LeakingLegal(PinnedBattle):
    """Legal commands listed in an order that hangs on the other side's hand of special cards
    (its view, its feed and its refusals tell nothing): a leak through the legal commands
    alone, so the real game's view and the twin's are the same."""

    name: ClassVar[str] = "bfa-planted-legal-leak"

    def legal_commands(self, state: GameState, player: str) -> list[Command]:
        out = super().legal_commands(state, player)
        other = next(p for p in PLAYERS if p != player)
        if sum(map(ord, "".join(state.hands[other]))) % 2:
            out.reverse()
        return out


class LeakingRefusal(PinnedBattle):
    """A refusal that names the other side's hand of special cards (its view, its feed and
    its legal commands tell nothing): a leak to the refused player alone."""

    name: ClassVar[str] = "bfa-planted-refusal-leak"

    def decide(self, state: GameState, command: Command, dice: Any) -> list[Event]:
        try:
            return super().decide(state, command, dice)
        except RulesError as error:
            other = next(p for p in PLAYERS if p != command.player)
            told = f"{error.message} ({', '.join(state.hands[other])})"
            raise RulesError(told, error.code) from None


#: how many views were rendered, counted between calls (the planted dependency)
_RENDERED: list[int] = [0]


class UnsteadyView(PinnedBattle):
    """A view that is not deterministic: it numbers itself by how many views were rendered
    before it in the process, so that the same state on the same dice renders differently
    (a leak to nobody: what fuzz must not blame on the other side's draws)."""

    name: ClassVar[str] = "bfa-planted-unsteady"

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        out = super().view(state, player)
        _RENDERED[0] += 1
        out["rendering"] = _RENDERED[0]
        return out


#: the last deployment decided, remembered between calls (the planted dependency)
_LAST_DEPLOY: list[cmd.Deploy | None] = [None]


def _deploy_once(batch: Batch[GameState], command: cmd.Deploy) -> None:
    if command == _LAST_DEPLOY[0]:
        raise reject(f"{command.counter} was just deployed to {command.to}", "already_deployed")
    _LAST_DEPLOY[0] = command
    HANDLERS[cmd.Deploy](batch, command)


class OutsideArguments(PinnedBattle):
    """A ``decide`` that depends on something outside its arguments: it remembers the last
    deployment it decided and refuses the same one again, whatever the state says (a guard
    against a double click, in the wrong place)."""

    name: ClassVar[str] = "bfa-planted-global"
    handlers: ClassVar[Mapping[type[Any], Handler]] = {**HANDLERS, cmd.Deploy: _deploy_once}


class EndPhaseOutOfTurn(PinnedBattle):
    """An ``admit`` that lets a side the game does not wait for end the phase (a check of the
    player forgotten for one command)."""

    name: ClassVar[str] = "bfa-planted-turn"

    def admit(self, state: GameState, command: Command) -> Decision:
        decision = self.decision(state)
        if (
            isinstance(command, cmd.EndPhase)
            and decision is not None
            and "end_phase" in decision.answers
            and command.player in PLAYERS
        ):
            return decision
        return super().admit(state, command)


def _place_unstacked(batch: Batch[GameState], command: cmd.Place) -> None:
    """``build.place`` without its stacking check: any intact hive or factory the Orks do not
    hold will do, whatever ``build.placements`` (which ``legal`` lists) says."""
    state = batch.state
    counter = state.counters.get(command.counter)
    if counter is None or counter.side != IMPERIALS or counter.location != READY:
        raise reject(f"{command.counter} is not in the READY box", "not_ready")
    standing = {s.area for s in state.sites.values() if not s.ruined}
    if command.to not in standing or board.enemy_occupied(state, command.to, IMPERIALS):
        raise reject(f"{command.to} is not an intact hive or factory", "bad_place")
    stack = [*board.counters_in(state, command.to, IMPERIALS), counter]
    problem = board.stacking_problem(state, command.to, stack)
    batch.emit(
        CounterPlaced(
            counter=counter.id,
            area=command.to,
            reason="from the READY box",
            overstacking=UNSET if problem is None else problem,
        )
    )


class PlacementOverStacking(PinnedBattle):
    """The Imperial build phase's placement without its stacking check, its legal list intact
    (``build.placements``): a placement over the limits is accepted though ``legal`` never
    offers it, and nothing else breaks (the counter is remembered as overstacked, so the
    stacking invariant spares it)."""

    name: ClassVar[str] = "bfa-planted-overstack"
    handlers: ClassVar[Mapping[type[Any], Handler]] = {**HANDLERS, cmd.Place: _place_unstacked}


class RefereeSummaryCrashes(PinnedBattle):
    """A summary that raises as the referee reads it, and only then (rendered at the end of
    each example: no step of it fails)."""

    name: ClassVar[str] = "bfa-planted-referee-view"

    def summary(self, view: dict[str, Any], player: str | None) -> Summary:
        if player is None:
            raise KeyError("planted: the referee's summary")
        return super().summary(view, player)


#: the Midgard version its planted bug's game is recorded and fuzzed under, whatever the latest
HB_RECORDED_UNDER = "4"


class PinnedHeroic(HeroicBattles):
    """Midgard: Heroic Battles at ``HB_RECORDED_UNDER``: the base of its planted ruleset and fix."""

    version: ClassVar[str] = HB_RECORDED_UNDER


def _join_any_unit(batch: Batch[HbState], command: hb_cmd.JoinUnit) -> None:
    """``movement.join_unit`` judging the other side's unit as if it were the hero's own
    (``pieces.own`` skipped, every other check kept): ``legal`` (``movement.join_problem``)
    still lists own units only."""
    state = batch.state
    unit = state.units.get(command.unit)
    if unit is not None and unit.force != command.player:
        state = replace(state, units={**state.units, unit.id: replace(unit, force=command.player)})
    problem = movement.join_problem(state, command.player, command.hero, command.unit)
    if problem is not None:
        raise problem
    hero = state.heroes[command.hero]
    batch.emit(HeroJoined(hero=command.hero, unit=command.unit, action=hero.actions + 1))


class JoinEnemyUnit(PinnedHeroic):
    """A hero may join the other side's unit: ``decide`` skips a check that ``legal`` keeps, on
    a command type declared complete (``join_unit``) that no recorded game holds, so that only
    a mutated command naming a unit the legal list never offers finds it."""

    name: ClassVar[str] = "hb-planted-join"
    handlers: ClassVar[Mapping[type[Any], Handler]] = {
        **HB_HANDLERS,
        hb_cmd.JoinUnit: _join_any_unit,
    }


def _lay_with_any_army(batch: Batch[AeState], command: ae_cmd.LayMinefield) -> None:
    """``engineers.lay_minefield`` judging the other empire's army as if it were the player's
    own (``_engineer_army``'s ``army.empire != player`` dropped, every other check kept):
    ``legal`` (``legal_engineer_orders``) still lists own armies only."""
    state = batch.state
    army = state.armies.get(command.army)
    if army is not None and army.empire != command.player:
        army = replace(army, empire=command.player)
        state = replace(state, armies={**state.armies, army.id: army})
    problem = engineers.lay_problem(state, command.player, command.army, command.card)
    if problem is not None:
        raise problem
    assert army is not None  # lay_problem checked it
    batch.emit(
        MinefieldLaid(
            empire=command.player,
            army=army.id,
            engineer=engineers.engineer_of(state, army) or "",
            minefield=engineers.minefield_id(command.card),
            card=command.card,
            at=army.at,
            ap_cost=LAY_MINEFIELD_AP,
        )
    )


class LayWithEnemyEngineers(ArmageddonEmpires):
    """An empire may lay a minefield with the other empire's engineers: ``decide`` skips the
    army's owner, on a command type declared complete (``lay_minefield``), so that only a
    mutated command naming an army the legal list never offers finds it. Registered as
    ``armageddon-empires`` to fuzz the latest edges source (fixtures/edges/), recorded under
    the latest version: its name here is the case's, not the ruleset's."""

    handlers: ClassVar[Mapping[type[Any], Handler]] = {
        **AE_HANDLERS,
        ae_cmd.LayMinefield: _lay_with_any_army,
    }

    def at_version(self, version: str) -> ArmageddonEmpires | None:
        """Itself at the latest version (the source's), the kept versions as they are."""
        return self if version == self.version else super().at_version(version)


#: a planted ruleset fuzzed from a recorded source of the ruleset it copies -> that ruleset
PLANTED_AS = {"ae-planted-minefield": "armageddon-empires"}


PLANTED: dict[str, type[PinnedBattle] | type[PinnedHeroic] | type[ArmageddonEmpires]] = {
    cls.name: cls
    for cls in (
        CrashInCombat,
        MutatingEvolve,
        LeakingView,
        LeakingLegal,
        LeakingRefusal,
        UnsteadyView,
        OutsideArguments,
        EndPhaseOutOfTurn,
        PlacementOverStacking,
        RefereeSummaryCrashes,
        JoinEnemyUnit,
    )
} | {"ae-planted-minefield": LayWithEnemyEngineers}


def fixed(name: str) -> BattleForArmageddon | HeroicBattles | ArmageddonEmpires:
    """The ruleset as it should be, under the planted ruleset's name (the games a planted bug
    is fuzzed from were recorded before it was planted; and a fix); for one registered as the
    ruleset it copies, that ruleset."""
    planted = PLANTED[name]
    if issubclass(planted, ArmageddonEmpires):
        return ArmageddonEmpires()
    pinned = PinnedHeroic if issubclass(planted, PinnedHeroic) else PinnedBattle
    fix: BattleForArmageddon | HeroicBattles = type(
        f"Fixed_{planted.__name__}", (pinned,), {"name": name}
    )()
    return fix


@contextmanager
def registered(name: str, ruleset: Any) -> Iterator[Any]:
    """``ruleset`` registered as ``name`` while the block runs (the ruleset registered as
    ``name`` before, if any, registered again after it)."""
    before = rulesets.get(name) if name in rulesets.names() else None
    rulesets.register(name, ruleset)
    try:
        yield ruleset
    finally:
        if before is None:
            rulesets.unregister(name)
        else:
            rulesets.register(name, before)


def forget() -> None:
    """Clear what the planted outside-arguments bugs remember (so that a test starts afresh)."""
    _LAST_DEPLOY[0] = None
    _RENDERED[0] = 0

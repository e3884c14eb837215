"""A deterministic policy that plays a sensible game: ``choose(state, player, legal)``.

No randomness: the same state and legal list give the same command. The Orks march on the hives
and attack at good odds; the Imperials hold the hives, build, fill them up and strike back when
the odds are high. Used by the demo and the recorded fixture game.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board, combat, crt
from warlog.domain.battle_for_armageddon import commands as cmd
from warlog.domain.battle_for_armageddon.build import rebuildable
from warlog.domain.battle_for_armageddon.decisions import decision
from warlog.domain.battle_for_armageddon.legal import attacks
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, ORKS, opponent
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.procedure import Decision
from warlog.domain.core.ruleset import Command

#: how good each result is for the attacker (for judging odds)
RESULT_VALUE: dict[str, float] = {
    "AE": -3.0,
    "AR": -2.0,
    "AS": -1.0,
    "EX": 0.5,
    "DW": 1.0,
    "DR": 2.0,
    "DE": 3.0,
}
#: the least expected result worth attacking for; the Orks grow bolder as time runs out
ATTACK_THRESHOLD: dict[str, float] = {ORKS: 0.4, IMPERIALS: 1.0}
ORK_BOLDNESS_PER_TURN = 0.2
ORK_BOLDEST = -1.0
#: what the Imperials buy first
BUILD_PREFERENCE = (
    "titan_order",
    "tank_division",
    "hive_defence_force",
    "imperial_guard",
    "assault_corps",
    "fortifications",
    "hive_gangs",
    "rough_riders",
)
#: the strategy cards each side plays, by turn parity (odd, even)
STRATEGY: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    ORKS: (("movement-combat", "combat-build"), ("movement-combat", "combat-movement")),
    IMPERIALS: (("build-movement", "combat-build"), ("movement-build", "build-combat")),
}


def choose(state: GameState, player: str, legal: list[Command]) -> Command:
    """The command this policy plays from ``legal`` (which must not be empty)."""
    p = decision(state)
    if p is None or not legal:
        raise ValueError("nothing to choose from")
    by_type: dict[type[Command], list[Command]] = {}
    for c in legal:
        by_type.setdefault(type(c), []).append(c)
    if p.kind == "setup":
        return by_type.get(cmd.EndSetup, legal)[-1]
    if p.kind == "strategy":
        return _strategy(state, player, legal)
    if p.procedure:
        return _choice(state, player, p, legal)
    special = _special(state, player, by_type.get(cmd.PlaySpecial, []))
    if special is not None:
        return special
    if p.kind == "movement":
        best = _best_move(state, player, by_type.get(cmd.Move, []))
    elif p.kind == "combat":
        best = _best_attack(state, player, by_type.get(cmd.Attack, []))
    else:
        best = _build(state, player, by_type)
    if best is not None:
        return best
    return by_type.get(cmd.EndPhase, legal)[0]


def _strategy(state: GameState, player: str, legal: list[Command]) -> Command:
    wanted = list(STRATEGY[player][(state.turn + 1) % 2])
    for c in legal:
        if isinstance(c, cmd.ChooseStrategy) and list(c.cards) == wanted:
            return c
    return legal[0]


# -- choices during a combat ---------------------------------------------------------------------


def _expected(column: str, modifier: int) -> float:
    return sum(RESULT_VALUE[crt.result(column, die + modifier)] for die in range(1, 7)) / 6


def _choice(state: GameState, player: str, need: Decision, legal: list[Command]) -> Command:
    c = state.combat
    assert c is not None
    if need.kind == "reroll":
        mods = sum(m.value for m in combat.modifiers(state, c.attacker, c.target, list(c.sources)))
        now = RESULT_VALUE[c.result]
        average = _expected(c.column, mods)
        better = now < average if player == c.attacker else now > average
        wanted: type[Command] = cmd.Reroll if better else cmd.KeepResult
        return next(x for x in legal if isinstance(x, wanted))
    if need.kind == "loss":
        return min(
            legal,
            key=lambda x: (
                _worth(state, state.counters[x.counter]) if isinstance(x, cmd.TakeLoss) else 0
            ),
        )
    if need.kind == "retreat":
        return min(legal, key=lambda x: _retreat_score(state, player, x))
    # advance: the Orks take the ground; the Imperials retake hives and factories
    groups = [x for x in legal if isinstance(x, cmd.Advance)]
    if player == IMPERIALS and board.site_in(state, c.target) is None:
        return groups[0]
    return max(groups, key=lambda x: (len(x.counters), -groups.index(x)))


def _worth(state: GameState, x: Counter) -> tuple[int, int, str]:
    chapter = 1 if board.role(state, x) == "chapter" else 0
    return (chapter, board.attack_of(state, x) + board.defence_of(state, x), x.id)


def _retreat_score(state: GameState, player: str, c: Command) -> tuple[int, int]:
    assert isinstance(c, cmd.Retreat)
    to_supply = _distance_to(state, c.to, set(board.supply_areas(state, player)))
    friends = len(board.counters_in(state, c.to, player))
    return (to_supply, -friends)


# -- movement -----------------------------------------------------------------------------------


def _distance_to(state: GameState, start: str, goals: set[str]) -> int:
    if not goals:
        return 99
    dist = board.graph(state).distances(start, lambda a: board.passable(state, a))
    return min((dist[g] for g in goals if g in dist), default=99)


def _goals(state: GameState, player: str) -> set[str]:
    if player == ORKS:
        return {
            s.area
            for s in state.sites.values()
            if s.kind == "hive" and not (s.ruined and board.occupied_by(state, s.area, ORKS))
        }
    # Imperials: sites with room, and hives the Orks hold
    out: set[str] = set()
    for s in state.sites.values():
        normal = sum(
            1
            for x in board.counters_in(state, s.area, IMPERIALS)
            if board.counts_for_stacking(state, x)
        )
        if normal < 2 or (s.ruined and s.kind == "hive"):
            out.add(s.area)
    return out


def _best_move(state: GameState, player: str, moves: list[Command]) -> Command | None:
    goals = _goals(state, player)
    cache: dict[str, int] = {}

    def dist(area: str) -> int:
        if area not in cache:
            cache[area] = _distance_to(state, area, goals)
        return cache[area]

    best: tuple[float, int] | None = None
    choice: Command | None = None
    for i, m in enumerate(moves):
        assert isinstance(m, cmd.Move)
        x = state.counters[m.counter]
        if _holds_ground(state, player, x):
            continue
        gain = dist(x.location) - dist(m.to)
        if gain <= 0:
            continue
        score = (gain + board.attack_of(state, x) / 10, -i)
        if best is None or score > best:
            best, choice = score, m
    return choice


def _holds_ground(state: GameState, player: str, x: Counter) -> bool:
    """Garrisons stay: Orks on captured ruins, Imperials on hives and factories."""
    site = board.site_in(state, x.location)
    if site is None:
        return False
    if player == ORKS:
        return site.ruined
    return True


# -- combat -------------------------------------------------------------------------------------


def _attack_value(state: GameState, player: str, a: cmd.Attack) -> float:
    o = combat.odds(state, player, a.target, list(a.stacks))
    mods = sum(m.value for m in combat.modifiers(state, player, a.target, list(a.stacks)))
    value = 3.0 if o.alone else _expected(o.column, mods)
    site = board.intact_site_in(state, a.target)
    if player == ORKS and site is not None and site.kind == "hive":
        value += 0.5
    return value


def _best_attack(state: GameState, player: str, attacks: list[Command]) -> Command | None:
    best: tuple[float, int] | None = None
    choice: Command | None = None
    for i, a in enumerate(attacks):
        assert isinstance(a, cmd.Attack)
        value = _attack_value(state, player, a)
        if value < _threshold(state, player):
            continue
        score = (value, -i)
        if best is None or score > best:
            best, choice = score, a
    return choice


def _threshold(state: GameState, player: str) -> float:
    base = ATTACK_THRESHOLD[player]
    if player == ORKS:
        return max(ORK_BOLDEST, base - ORK_BOLDNESS_PER_TURN * (state.turn - 1))
    return base


# -- build and special cards ---------------------------------------------------------------------


def _build(
    state: GameState, player: str, by_type: dict[type[Command], list[Command]]
) -> Command | None:
    builds = by_type.get(cmd.Build, [])
    for kind in BUILD_PREFERENCE:
        for b in builds:
            assert isinstance(b, cmd.Build)
            if state.counters[b.counter].type == kind and (
                kind != "fortifications" or _fort_room(state)
            ):
                return b
    if cmd.FinishBuilding in by_type:
        return by_type[cmd.FinishBuilding][0]
    front = {
        x.location
        for x in state.counters.values()
        if x.side == opponent(player) and board.on_map(x)
    }
    # the Imperials hold their hives and factories (``_holds_ground``): a counter placed over the
    # stacking limits (BFA-12, since version 8) would be lost when their next movement phase
    # ends, so this policy places within them only, leaving the rest in the READY box
    placing = [
        c
        for c in by_type.get(cmd.Place, [])
        if isinstance(c, cmd.Place) and board.fits(state, c.to, [state.counters[c.counter]])
    ] + by_type.get(cmd.Rebuild, [])
    if placing:
        return min(placing, key=lambda c: _distance_to(state, _area(c), front))
    return None


def _fort_room(state: GameState) -> bool:
    return any(
        not s.ruined
        and not any(board.is_fortification(state, x) for x in board.counters_in(state, s.area))
        for s in state.sites.values()
    )


def _special(state: GameState, player: str, plays: list[Command]) -> Command | None:
    for c in plays:
        assert isinstance(c, cmd.PlaySpecial)
        effect = next(s.effect for s in state.scenario.special_cards if s.id == c.card)
        if (
            effect == "barrage"
            and _best_attack(state, player, list(attacks(state, player))) is None
        ):
            continue
        if effect == "drop_pod":
            front = {
                x.location for x in state.counters.values() if x.side == ORKS and board.on_map(x)
            }
            pods = [
                p
                for p in plays
                if isinstance(p, cmd.PlaySpecial)
                and p.card == c.card
                and board.intact_site_in(state, p.area) is not None
            ]
            if not pods:
                continue
            return min(pods, key=lambda p: _distance_to(state, _area(p), front))
        if effect == "extra_rebuild" and not rebuildable(state):
            continue
        return c
    return None


def _area(c: Command) -> str:
    """The area a placing command names."""
    if isinstance(c, cmd.PlaySpecial):
        return c.area
    assert isinstance(c, (cmd.Place, cmd.Rebuild))
    return c.to

"""Capture Kill (manual p.30; R2, R4; digest §2): hunting a spotted hero alone in an army.

- **Who**: a combat-capable army (≥ 1 unit card) in the hex of an enemy army that holds a hero
  and no unit, which the hunter's empire has spotted this round (p.30; AE-17). Hunt Enemy Hero
  costs ``HUNT_HERO_AP`` (R11) and an army hunts once a turn (AE-21).
- **Target**: the only candidate; among several, one picked by a die, unless the hunter has a
  Bounty Hunter card in the hex, who may name it (p.30). Since version 24 the die is a hidden
  roll, the same dice in every hunt, picked or named, foiled or not, so that it tells the hunted
  empire nothing of what the hunter saw (AE-21, AE-38; ``HUNTS_ALIKE_SINCE``): the hunter's in
  versions 24 to 26, the referee's since 27 (``targets.pick_target``).
- Every army of the hunter in the hex takes part: the stealthed ones lose stealth, and the
  target's empire sees them all (p.30; AE-21).
- **Pools**: hunter = ``CAPTURE_KILL_BASE_DICE`` + the hunter's unit cards in the hex // 2 +
  the highest observation strength into the hex (R2; R3; p.30); target = the hero's fate as
  printed (+ modifiers of abilities and attachments, none in this version; AE-21). The target
  re-rolls with its hero's unspent fate; the hunter has fate only with a Bounty Hunter in the
  hex, its army's hero's (p.46; digest 11.8; AE-21).
- **Outcome** (R4): hunter successes > target successes kills the hero, unless they are also
  > the capture threshold (the target's pool as built − the single largest Bounty Hunter X in
  the hex), which captures him: he is taken to the captor's nearest stronghold or outpost that
  is not besieged (p.24; AE-21) and earns it +3 AP a round while held (p.24, p.30). An army
  left empty is disbanded (AE-24).
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.abilities import BOUNTY_HUNTER, level
from warlog.domain.armageddon_empires.awaiting import may_roll
from warlog.domain.armageddon_empires.cards import HeroCard
from warlog.domain.armageddon_empires.challenge import CAPTURE_KILL, Pool, Side, Term, divided
from warlog.domain.armageddon_empires.challenge_events import (
    CaptureKillBegan,
    ChosenBy,
    HeroCaptured,
    HeroEscaped,
    HeroKilled,
    HuntFoiled,
)
from warlog.domain.armageddon_empires.challenge_moves import open_challenge
from warlog.domain.armageddon_empires.commands import HuntHero
from warlog.domain.armageddon_empires.costs import HUNT_HERO_AP
from warlog.domain.armageddon_empires.fog import Sighting
from warlog.domain.armageddon_empires.frames import CaptureKill
from warlog.domain.armageddon_empires.guards import BASE_KINDS, own_army
from warlog.domain.armageddon_empires.observation import observation_into, sighting
from warlog.domain.armageddon_empires.state import Army, Base, GameState
from warlog.domain.armageddon_empires.supply import is_besieged
from warlog.domain.armageddon_empires.targets import named_target, pick_target
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, reject
from warlog.domain.core.hexgrid import Hex
from warlog.domain.core.procedure import Step

#: R2: the first term of the hunter's dice (its digit is lost in the manual's text, p.30)
CAPTURE_KILL_BASE_DICE = 1
#: p.30 (R3): the hunter's unit cards in the hex are halved, rounding down
UNITS_PER_HUNTER_DIE = 2
#: AE-38: since version 22 a hunt foiled because the army it sought has engaged stealth shows
#: the hunter nothing of it (``seen`` None: its sighting of that army dropped), whatever the army
#: holds: a stealthed army is seen only through an observation check (p.27). Version 21 and
#: before gave the hunter a contact sighting of it, stealthed, with every unit that had joined
#: it, which no check had won. And since 22 a hero the hunter saw in a stealthed army is no
#: target (``candidates``): the hunt of a stealthed army is always foiled, so it is not offered,
#: where 21 took its AP and left the sighting as it was
STEALTHED_PREY_UNSEEN_SINCE = 22
PURPOSE = CAPTURE_KILL


def _hunters(state: GameState, empire: str, at: str) -> list[Army]:
    return sorted(state.armies_at(empire, at), key=lambda a: a.id)


def bounty_hunter(state: GameState, armies: list[Army]) -> int:
    """The single largest Bounty Hunter X among the cards of ``armies`` (p.30; R4)."""
    return max(
        (level(state.card(c).abilities, BOUNTY_HUNTER) for a in armies for c in a.cards()),
        default=0,
    )


def stealth_hides_prey(state: GameState) -> bool:
    """Whether this game's rules keep a stealthed army from the hunt and from what a foiled
    hunt shows (AE-38, ``STEALTHED_PREY_UNSEEN_SINCE``)."""
    return state.rules_version >= STEALTHED_PREY_UNSEEN_SINCE


def candidates(state: GameState, empire: str, at: str) -> list[Sighting]:
    """The enemy armies in hex ``at`` that ``empire`` has sighted this round as a hero alone
    (p.30), by army id; since version 22 not one it sighted stealthed, whose hunt would only be
    foiled (``STEALTHED_PREY_UNSEEN_SINCE``). Judged by its sightings alone (AE-38): what it may
    do never tells it of a change it has not seen (units that secretly joined the hero)."""
    seen = state.sightings.get(empire, {})
    stealth_counts = stealth_hides_prey(state)
    return sorted(
        (
            s
            for s in seen.values()
            if s.at == at and s.hero is not None and not s.units
            if not (s.stealthed and stealth_counts)
        ),
        key=lambda s: s.army,
    )


def hunt_problem(state: GameState, player: str, army: Army) -> RulesError | None:
    """Why ``army`` cannot hunt now (before its target is known), or None."""
    if not army.combat_capable:
        return reject(
            f"{army.id} holds no unit card; only a combat-capable army hunts (p.30)",
            "not_combat_capable",
        )
    if army.id in state.empires[player].hunted:
        return reject(f"{army.id} has already hunted this turn (AE-21)", "already_hunted")
    if not candidates(state, player, army.at):
        where = (
            " outside a stealthed army (p.30; AE-38)" if stealth_hides_prey(state) else " (p.30)"
        )
        return reject(
            f"{player} has spotted no enemy hero alone in an army at {army.at} this round{where}",
            "no_target",
        )
    ap = state.empires[player].ap
    if ap < HUNT_HERO_AP:
        return reject(
            f"Hunt Enemy Hero costs {HUNT_HERO_AP} AP; {player} has {ap}", "not_enough_ap"
        )
    return None


def foiled_sight(state: GameState, prey: Army | None, at: str) -> Sighting | None:
    """What a foiled hunt at ``at`` shows the hunter of the army it sought (AE-38): the army as
    it now stands; None when it has left the hex or, since version 22, engaged stealth
    (``STEALTHED_PREY_UNSEEN_SINCE``)."""
    if prey is None or prey.at != at:
        return None
    if prey.stealthed and stealth_hides_prey(state):
        return None
    return sighting(state, prey, "contact", "the hunt found it no longer alone (p.30; AE-38)")


def hunt_hero(batch: Batch[GameState], cmd: HuntHero) -> None:
    """``capture_kill_began`` (after a die for a random target among several; since version 24
    after the hidden pick rolled in every hunt, ``targets.pick_target``), its challenge
    opening next; or ``hunt_foiled`` when the hero it saw alone is alone no more, gone or, since
    version 22, hidden by stealth, which the hunter is then not shown (AE-38,
    ``STEALTHED_PREY_UNSEEN_SINCE``). RulesError for an army that may not hunt or a bad target."""
    state = batch.state
    army = own_army(state, cmd.player, cmd.army)
    problem = hunt_problem(state, cmd.player, army)
    if problem:
        raise problem
    found = candidates(state, cmd.player, army.at)
    bounty = bounty_hunter(state, _hunters(state, cmd.player, army.at))
    named = named_target(
        found,
        cmd.target,
        lambda s: s.hero,
        None
        if bounty
        else reject(
            "only a hunter with a Bounty Hunter card in the hex names the target; leave "
            "'target' out and it is picked at random (p.30)",
            "no_bounty_hunter",
        ),
        f"not a spotted hero alone at {army.at}",
    )
    target, how = pick_target(batch, found, named, PURPOSE, cmd.player)
    chosen_by: ChosenBy = "bounty hunter" if how == "named" else how
    actual = batch.state.armies.get(target.army)
    if (
        actual is None
        or actual.at != army.at
        or actual.hero != target.hero
        or actual.units
        or actual.stealthed
    ):
        batch.emit(
            HuntFoiled(
                hunter=cmd.player,
                army=army.id,
                at=army.at,
                target=str(target.hero),
                target_army=target.army,
                ap_cost=HUNT_HERO_AP,
                seen=foiled_sight(state, actual, army.at),
            )
        )
        return
    begin_capture_kill(
        batch,
        cmd.player,
        army.id,
        actual,
        ap_cost=HUNT_HERO_AP,
        candidates=tuple(str(s.hero) for s in found),
        chosen_by=chosen_by,
    )


def begin_capture_kill(
    batch: Batch[GameState],
    hunter: str,
    army_id: str,
    target: Army,
    *,
    ap_cost: int = 0,
    candidates: tuple[str, ...] = (),
    chosen_by: ChosenBy = "only",
    battle: int = 0,
) -> None:
    """``capture_kill_began``: ``army_id`` of ``hunter`` hunts the hero alone in ``target``
    (a hunt, or a battle's end, AE-33); its challenge opens next (``capture_next``)."""
    state = batch.state
    assert target.hero is not None
    hunters = _hunters(state, hunter, target.at)
    hero_spec = state.card(target.hero).spec
    assert isinstance(hero_spec, HeroCard)
    frame = CaptureKill(
        hunter=hunter,
        army=army_id,
        at=target.at,
        target=target.hero,
        target_army=target.id,
        target_empire=target.empire,
        target_pool=hero_spec.fate,
        bounty_hunter=bounty_hunter(state, hunters),
        battle=battle,
    )
    batch.emit(
        CaptureKillBegan(
            frame=frame,
            ap_cost=ap_cost,
            candidates=candidates or (target.hero,),
            chosen_by=chosen_by,
            hunting_armies=tuple(a.id for a in hunters),
            destealthed=tuple(a.id for a in hunters if a.stealthed),
        )
    )


def _open(batch: Batch[GameState]) -> None:
    """The Capture Kill's challenge (R2, R4): the hunter's pool against the target's fate."""
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, CaptureKill)
    units = sum(len(a.units) for a in _hunters(state, frame.hunter, frame.at))
    eye = observation_into(state, frame.hunter, frame.at, stealthed=False)
    hunter_pool = Pool(
        (
            Term(CAPTURE_KILL_BASE_DICE, "base, R2"),
            Term(
                units // UNITS_PER_HUNTER_DIE,
                divided(state.rules_version, f"{units} units", UNITS_PER_HUNTER_DIE),
            ),
            eye or Term(0, f"no observation reaches {frame.at}"),
        )
    )
    hero = state.card(frame.target)
    target_pool = Pool((Term(frame.target_pool, f"fate of {hero.name}, p.30"),))
    what = f"the Capture Kill of {hero.name} ({frame.target})"
    if not may_roll(batch, frame.hunter, what, hunter_pool.size + target_pool.size):
        return
    army = state.armies.get(frame.army)
    hunter_hero = army.hero if army is not None and frame.bounty_hunter else None
    open_challenge(
        batch,
        kind="opposed",
        purpose=PURPOSE,
        attacker=Side(
            empire=frame.hunter,
            name=f"hunter {frame.army}",
            pool=hunter_pool,
            fate_hero=hunter_hero,
        ),
        defender=Side(
            empire=frame.target_empire,
            name=f"target {hero.name}",
            pool=target_pool,
            fate_hero=frame.target,
        ),
    )


def nearest_base(state: GameState, empire: str, at: str) -> tuple[Base, int] | None:
    """The empire's stronghold or outpost nearest to hex ``at`` that is not besieged (p.24),
    by hex distance; ties go to the stronghold, then by id (AE-21). None if it has none."""
    here = Hex.parse(at)
    bases = [
        (here.distance(Hex.parse(b.at)), b.kind != "stronghold", b.id, b)
        for b in state.bases_of(empire)
        if b.kind in BASE_KINDS and not is_besieged(state, b)
    ]
    if not bases:
        return None
    distance, _, _, base = min(bases)
    return base, distance


def capture_next(state: GameState, frame: CaptureKill) -> Step:
    """The Capture Kill's next step: its challenge opens (``_open``; it may wait for the
    hunter's roll, AE-37), and once resolved, the outcome of R4."""
    return _open if frame.outcome is None else _finish


def _finish(batch: Batch[GameState]) -> None:
    state = batch.state
    frame = state.frames[-1]
    assert isinstance(frame, CaptureKill)
    assert frame.outcome is not None, "the step runs once its challenge is resolved"
    a, d = frame.outcome.attacker_successes, frame.outcome.defender_successes
    if a <= d:
        batch.emit(HeroEscaped(frame=frame))
        return
    army = state.armies[frame.target_army]
    emptied = not army.units and army.garrison_of is None
    if a > frame.threshold:
        found = nearest_base(state, frame.hunter, frame.at)
        if found is not None:
            base, distance = found
            batch.emit(
                HeroCaptured(
                    frame=frame,
                    base=base.id,
                    base_at=base.at,
                    distance=distance,
                    army_removed=emptied,
                )
            )
            return
        batch.emit(HeroKilled(frame=frame, army_removed=emptied, no_base=True))
        return
    batch.emit(HeroKilled(frame=frame, army_removed=emptied))


def legal_hunts(state: GameState, player: str) -> list[HuntHero]:
    """Every hunt of every army of ``player`` that may hunt now: a random target, and with a
    Bounty Hunter in the hex each target named."""
    out: list[HuntHero] = []
    for army in sorted(state.armies.values(), key=lambda a: a.id):
        if army.empire != player or hunt_problem(state, player, army) is not None:
            continue
        out.append(HuntHero(player=player, army=army.id))
        if bounty_hunter(state, _hunters(state, player, army.at)):
            out += [
                HuntHero(player=player, army=army.id, target=a.hero)
                for a in candidates(state, player, army.at)
            ]
    return out

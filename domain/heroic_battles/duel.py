"""Single Combat (3 & 5 on the sheet) as a procedure, fought before any melee of the phase:

the phasing force may issue one challenge; the challenged hero accepts or refuses (a token,
unless Non-Combatant; never a Proud hero); each round both heroes roll dice equal to their level
plus traits plus Mighty Deeds, 5–6 to hit (4–6 Brutal), 1s re-rolled in the first round, each
Legendary Weapon hit counting 2. A difference of hits reaching the loser's Armour kills it
outright (+2 tokens); otherwise the round's winner takes 1 stamina (+1 token); a draw gives both
a token and, in the third round, costs both a stamina point. HB-17 settles the rest.
"""

from __future__ import annotations

from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject
from warlog.domain.core.procedure import Decision, Step
from warlog.domain.heroic_battles import casualties, pieces, pools, rolls, rulings, tables
from warlog.domain.heroic_battles import commands as cmd
from warlog.domain.heroic_battles import events as ev
from warlog.domain.heroic_battles.state import DuelFrame, GameState, Hero
from warlog.domain.heroic_battles.values import Pool

# -- the challenge ------------------------------------------------------------------------------------


def challengers(state: GameState, force: str) -> list[tuple[str, str]]:
    """Every (challenger, challenged) pair: heroes of ``force`` and of the enemy in the same
    melee, neither having fought a single combat this phase (HB-17)."""
    out: list[tuple[str, str]] = []
    enemy = pieces.opponent(state, force)
    for c in state.combats:
        mine = [h for h in pieces.heroes_in(state, c, force) if not h.dueled]
        theirs = [h for h in pieces.heroes_in(state, c, enemy) if not h.dueled]
        out.extend((a.id, b.id) for a in mine for b in theirs)
    return out


def challenge_problem(state: GameState, player: str, hero: str, opponent: str) -> RulesError | None:
    if hero not in state.heroes:
        return reject(f"there is no hero {quoted(hero)} in this battle", "unknown_hero")
    if opponent not in state.heroes:
        return reject(f"there is no hero {quoted(opponent)} in this battle", "unknown_hero")
    problem = pieces.own(state.heroes[hero], player, "challenge with")
    if problem is not None:
        return problem
    if state.heroes[opponent].force == state.heroes[hero].force:
        return reject(
            f"{opponent} is a {state.heroes[opponent].force} hero: challenge an enemy hero in "
            f"{hero}'s melee (HB-17)",
            "bad_challenge",
        )
    if (hero, opponent) not in challengers(state, player):
        return reject(
            f"{hero} cannot challenge {opponent}: both must be in the same melee and not have "
            f"fought a single combat this phase (HB-17)",
            "bad_challenge",
        )
    return None


def challenge(batch: Batch[GameState], c: cmd.Challenge) -> None:
    problem = challenge_problem(batch.state, c.player, c.hero, c.opponent)
    if problem is not None:
        raise problem
    batch.emit(ev.ChallengeIssued(challenger=c.hero, challenged=c.opponent))


def forgo(batch: Batch[GameState], c: cmd.NoChallenge) -> None:
    batch.emit(ev.ChallengeForgone(force=c.player))


def _frame(state: GameState) -> DuelFrame:
    frame = state.frames[-1]
    assert isinstance(frame, DuelFrame)
    return frame


def may_refuse(hero: Hero) -> bool:
    """A Proud hero may never refuse a challenge (trait, p.74)."""
    return not pieces.has(hero, "proud")


def _answer_problem(state: GameState, hero: str) -> RulesError | None:
    frame = _frame(state)
    if hero != frame.challenged:
        return reject(f"the challenge is to {frame.challenged}, not {hero}", "bad_choice")
    return None


def accept(batch: Batch[GameState], c: cmd.AcceptChallenge) -> None:
    """Accepted: the lower-level hero's force gains a token for taking on a higher-level hero
    (p.23; HB-17)."""
    problem = _answer_problem(batch.state, c.hero)
    if problem is not None:
        raise problem
    frame = _frame(batch.state)
    batch.emit(ev.ChallengeAccepted(hero=c.hero))
    a, b = batch.state.heroes[frame.challenger], batch.state.heroes[frame.challenged]
    if a.level != b.level:
        lower = a if a.level < b.level else b
        casualties.gain(
            batch,
            lower.force,
            tables.GAIN_TAKES_ON_HIGHER_LEVEL,
            "a hero takes on a higher-level hero in single combat",
            lower.id,
        )


def refuse(batch: Batch[GameState], c: cmd.RefuseChallenge) -> None:
    problem = _answer_problem(batch.state, c.hero)
    if problem is not None:
        raise problem
    hero = batch.state.heroes[c.hero]
    if not may_refuse(hero):
        raise reject(f"{c.hero} is Proud and may never refuse a challenge (p.74)", "proud")
    batch.emit(ev.ChallengeRefused(hero=c.hero))
    if not pieces.has(hero, "non_combatant"):
        casualties.lose(
            batch,
            hero.force,
            tables.LOSE_REFUSES_CHALLENGE,
            "a hero refuses a challenge to single combat",
            hero.id,
        )


# -- the rounds ------------------------------------------------------------------------------------------


def wants_deeds(state: GameState, frame: DuelFrame, hero_id: str) -> bool:
    """The hero is asked for Mighty Deeds this round: it has some, may use them for combat
    dice (not a Non-Combatant) and has not committed yet."""
    hero = state.heroes.get(hero_id)
    if hero is None or hero_id not in (frame.challenger, frame.challenged):
        return False
    return hero_id not in frame.deeds and hero.deeds > 0 and not pieces.has(hero, "non_combatant")


def duel_next(state: GameState, frame: DuelFrame) -> Decision | Step:
    if frame.stage == "answer":
        hero = state.heroes[frame.challenged]
        return Decision(
            players=(hero.force,),
            kind="challenge_answer",
            answers=("accept_challenge", "refuse_challenge"),
            waiting=f"{hero.force} to answer the challenge of {frame.challenger} to {hero.id}",
            procedure="single_combat",
            options=(hero.id,),
            about={"hero": hero.id, "challenger": frame.challenger},
        )
    if frame.stage == "rerolls":
        return _reroll if frame.ones else _result
    for hero_id in (frame.challenger, frame.challenged):  # the deeds stage
        if wants_deeds(state, frame, hero_id):
            hero = state.heroes[hero_id]
            return Decision(
                players=(hero.force,),
                kind="single_combat_deeds",
                answers=("spend_deeds",),
                waiting=f"{hero.force} to commit Mighty Deeds of {hero_id} to round {frame.round}",
                procedure="single_combat",
                options=(hero_id,),
                about={"hero": hero_id, "round": str(frame.round)},
            )
    return _roll_round


def spend(batch: Batch[GameState], c: cmd.SpendDeeds) -> None:
    state = batch.state
    frame = _frame(state)
    if frame.stage != "deeds" or not wants_deeds(state, frame, c.hero):
        raise reject(f"{c.hero} is not asked for Mighty Deeds now", "bad_choice")
    for hero_id in (frame.challenger, frame.challenged):
        if wants_deeds(state, frame, hero_id):
            if hero_id != c.hero:
                raise reject(f"{hero_id} commits its Mighty Deeds first", "bad_choice")
            break
    hero = state.heroes[c.hero]
    if c.deeds > hero.deeds:
        raise reject(f"{c.hero} has {hero.deeds} Mighty Deeds left, not {c.deeds}", "no_deeds")
    batch.emit(ev.DeedsCommitted(hero=c.hero, deeds=c.deeds))


def _bonuses(hero: Hero, deeds: int) -> list[tuple[str, int]]:
    """Traits and Mighty Deeds: 1D6 each (Single Combat)."""
    bonuses: list[tuple[str, int]] = []
    if pieces.has(hero, "battle_smiter"):
        bonuses.append(("Battle Smiter", tables.BATTLE_SMITER_DICE))
    if pieces.has(hero, "big"):
        bonuses.append(("Big", tables.BIG_DICE))
    bonuses.append((f"Mighty Deed{'s' if deeds != 1 else ''}", deeds))
    return bonuses


def _pool(batch: Batch[GameState], hero: Hero, deeds: int, first_round: bool) -> Pool:
    legendary = pieces.has(hero, "legendary_weapon")
    return pools.roll_hero(
        batch,
        hero,
        _bonuses(hero, deeds),
        purpose=f"single combat {hero.id}",
        reroll_reason="first round: both count as charging" if first_round else "",
        hit_value=rulings.LEGENDARY_WEAPON_SINGLE_COMBAT_HITS if legendary else 1,
    )


def _roll_round(batch: Batch[GameState]) -> None:
    """Both heroes' dice for the round (the challenger's first), Mighty Deeds spent."""
    state = batch.state
    frame = _frame(state)
    a, b = state.heroes[frame.challenger], state.heroes[frame.challenged]
    dice = sum(pools.build(h.level, [], _bonuses(h, frame.deeds.get(h.id, 0)))[1] for h in (a, b))
    what = f"round {frame.round} of the single combat of {a.id} and {b.id}"
    if not rolls.may_roll(batch, a.force, dice, what):
        return
    for hero in (a, b):
        n = frame.deeds.get(hero.id, 0)
        if n:
            batch.emit(
                ev.DeedsSpent(hero=hero.id, deeds=n, purpose=f"single combat round {frame.round}")
            )
    first = frame.round == 1
    for hero in (a, b):
        pool = _pool(batch, hero, frame.deeds.get(hero.id, 0), first)
        batch.emit(ev.SingleCombatDiceRolled(round=frame.round, pool=pool))


def _reroll(batch: Batch[GameState]) -> None:
    """First round: the heroes count as charging and roll their 1s again."""
    frame = _frame(batch.state)
    ones = frame.ones[0]
    if not rolls.may_roll(batch, ones.force, ones.count, f"re-rolling {ones.owner}'s 1s"):
        return
    batch.emit(pools.reroll(batch, ones))


def _result(batch: Batch[GameState]) -> None:
    state = batch.state
    frame = _frame(state)
    a, b = state.heroes[frame.challenger], state.heroes[frame.challenged]
    hits = {a.id: frame.hits.get(a.id, 0), b.id: frame.hits.get(b.id, 0)}
    if hits[a.id] == hits[b.id]:
        last = frame.round >= tables.SINGLE_COMBAT_ROUNDS
        batch.emit(
            ev.SingleCombatRound(
                round=frame.round, hits=hits, result="final_draw" if last else "draw"
            )
        )
        for hero in (a, b):
            casualties.gain(
                batch,
                hero.force,
                tables.GAIN_SINGLE_COMBAT_ROUND,
                "a hero draws a round of single combat",
                hero.id,
            )
        if last:
            for hero in (a, b):
                enemy = b if hero is a else a
                casualties.lose_stamina(
                    batch,
                    hero.id,
                    1,
                    f"third round of single combat drawn ({tables.SINGLE_COMBAT})",
                    "single_combat",
                    enemy.id,
                )
        return
    winner, loser = (a, b) if hits[a.id] > hits[b.id] else (b, a)
    kill = hits[winner.id] - hits[loser.id] >= loser.armour
    batch.emit(
        ev.SingleCombatRound(
            round=frame.round,
            hits=hits,
            result="kill" if kill else "win",
            winner=winner.id,
            loser=loser.id,
            loser_armour=loser.armour,
        )
    )
    if kill:
        casualties.gain(
            batch,
            winner.force,
            tables.GAIN_SINGLE_COMBAT_KILL,
            "a hero kills its opponent outright in single combat",
            winner.id,
        )
        casualties.kill_hero(batch, loser.id, "single_combat", winner.id)
    else:
        casualties.gain(
            batch,
            winner.force,
            tables.GAIN_SINGLE_COMBAT_ROUND,
            "a hero wins a round of single combat",
            winner.id,
        )
        casualties.lose_stamina(
            batch,
            loser.id,
            1,
            f"lost a round of single combat to {winner.id}",
            "single_combat",
            winner.id,
        )
    if batch.state.heroes[loser.id].gone and pieces.has(winner, "proud"):
        casualties.gain(
            batch,
            winner.force,
            tables.GAIN_PROUD_KILL,
            "a Proud hero kills an enemy hero in single combat (p.74)",
            winner.id,
        )

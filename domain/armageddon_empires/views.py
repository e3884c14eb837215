"""What each empire may see: the state view, redacted events, and Events-view notices (R9).

Hidden from an empire (AE-7): the other empire's hand (its size is shown) and deck (its size),
every deck's order (an empire sees its own deck's contents, sorted), the other empire's initiative
bid until the dice roll, its draws and its starting hand (the card and the die that picked it,
sealed in the log), and the cards of the catalogue it has not seen.

Fog of war (AE-17): of the enemy's armies an empire sees only those it has sighted this round,
as it saw them (where, with which cards, how and when); of the enemy's cards only those in
view (its bases, sighted armies, prisoners, discards, an open challenge), and of its turn
nothing that names an army (which moved, hunted, or is out of supply) nor its AP left (it
would tell what its sealed moves cost). Since version 26 an empire sees its own armies' Command
Rating and how many unit cards each holds over it (AE-68); an enemy army is seen as sighted.
Bases are public. Minefields (AE-53): an empire sees its own, and of the enemy's and the
independent ones (AE-67) only those its armies walked into,
without their damage, and an independent one as it knew it, though the other empire has spent
or lifted it since.

Hidden challenges (collateral damage, WMD; AE-49): an empire sees its own cards' results alone;
another empire's cards they destroy lie in its discard pile face down, unseen.

Card creation (AE-73): of the other empire's attempts an empire sees the resources paid (its
stockpile) and its hand's size, nothing more: which heroes tried is left out (they spend no
fate in them).
"""

from __future__ import annotations

from typing import Any

import msgspec

from warlog.domain.armageddon_empires.assassination_events import (
    AssassinationBegan,
    AssassinationEnded,
    AssassinationFoiled,
)
from warlog.domain.armageddon_empires.battle_events import BaseCaptured, BaseRazed, BattleEnded
from warlog.domain.armageddon_empires.cards import INDEPENDENT
from warlog.domain.armageddon_empires.challenge import Challenge, counted
from warlog.domain.armageddon_empires.challenge_events import (
    CaptureKillBegan,
    CardDamaged,
    ChallengeResolved,
    HeroCaptured,
    HeroEscaped,
    HeroKilled,
)
from warlog.domain.armageddon_empires.decisions import decision
from warlog.domain.armageddon_empires.events import (
    GameEnded,
    InitiativeDetermined,
    ResourcesCollected,
    SupplyTraced,
)
from warlog.domain.armageddon_empires.fallout_events import FalloutSuffered, WmdDetonated
from warlog.domain.armageddon_empires.frames import (
    AirStrike,
    Assassination,
    CaptureKill,
    SabotageMission,
)
from warlog.domain.armageddon_empires.minefield_events import (
    MinefieldLifted,
    MinefieldsChecked,
    MinefieldsReported,
    attack_summary,
    lifted_notice,
)
from warlog.domain.armageddon_empires.penalties import (
    OUT_OF_SUPPLY_ATTACK,
    OUT_OF_SUPPLY_DEFENSE,
    command_rating,
    over_command,
    penalized,
)
from warlog.domain.armageddon_empires.research_events import ResearchAttempted
from warlog.domain.armageddon_empires.sabotage_events import (
    SabotageBegan,
    SabotageEnded,
    saboteur_hurt,
)
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted
from warlog.domain.armageddon_empires.state import GameState
from warlog.domain.armageddon_empires.turns import AP_BY_PLACE
from warlog.domain.core.errors import InputError
from warlog.domain.core.events import Event
from warlog.domain.core.ruleset import Notice
from warlog.domain.core.summary import plural

#: R9 durations of Events-view entries, in rounds (AE-7): each is news for the round it happens
RESOURCES_NOTICE_ROUNDS = 1
INITIATIVE_NOTICE_ROUNDS = 1
OUT_OF_SUPPLY_NOTICE_ROUNDS = 1
GAME_ENDED_NOTICE_ROUNDS = 1
#: AE-17: what an empire sighted is news for the round it lasts
SIGHTED_NOTICE_ROUNDS = 1
#: a hunt and a challenge's result are news for the round (AE-7)
HUNT_NOTICE_ROUNDS = 1
CHALLENGE_NOTICE_ROUNDS = 1
#: a hero captured or killed, and a card destroyed, stay news for 2 rounds (AE-7)
CAPTURE_NOTICE_ROUNDS = 2
DESTROYED_NOTICE_ROUNDS = 2
#: AE-53, AE-55: a minefield walked into or lifted is news for 2 rounds, to each side for its
#: own report
MINEFIELD_NOTICE_ROUNDS = 2
#: a battle's end is news for the round to both its sides; a base captured or razed (public,
#: AE-17) stays news for 2 rounds to every empire, as a card destroyed does (AE-7)
BATTLE_NOTICE_ROUNDS = 1
BASE_NOTICE_ROUNDS = 2
#: AE-71: an assassination attempt, and a hero it wounds or misses, are news for the round to
#: both sides, a hero it kills for 2 rounds, as a hunt's; a foiled attempt is news to the
#: assassin's empire alone, for the round
ASSASSINATION_NOTICE_ROUNDS = 1
ASSASSINATION_KILL_NOTICE_ROUNDS = 2
#: a sabotage and its result are news for the round to both sides, as a hunt (AE-72)
SABOTAGE_NOTICE_ROUNDS = 1
#: AE-73: a card's creation, or its failure, is news to the researcher's empire alone, for the
#: round (the other empire is told nothing of it: its resources paid show in the stockpile)
RESEARCH_NOTICE_ROUNDS = 1
#: collateral damage or a WMD that destroys nothing is news for the round; what it destroys stays
#: 2 rounds, as any card destroyed (AE-7)
FALLOUT_NOTICE_ROUNDS = 1

HIDDEN = "hidden"


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as JSON builtins; for an empire, without what it may not see (module doc).

    Raises InputError ``input/unknown_player`` for a name that is not an empire of the game.
    """
    # through JSON so that every tuple is a list: plain JSON builtins
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(state))
    waiting = decision(state)
    data["active"] = [] if waiting is None else [p for p in waiting.players if p]
    # what the game waits for, as a refusal says it to any player (rules/not_your_turn)
    data["waiting"] = "" if waiting is None else waiting.waiting
    data["awaited"] = "" if waiting is None else waiting.kind
    # AE-73: left out while unused, so that a game without research lists, every one begun
    # before version 28 among them, reads as it did
    if data["research"] is None:
        del data["research"]
    if penalized(state):  # AE-68: each army's Command Rating and the unit cards over it
        for army_id, army in data["armies"].items():
            held = state.armies[army_id]
            army["command_rating"] = command_rating(state, held)
            army["over_command"] = over_command(state, held)
    if player is None:
        return data
    if player not in state.empires:
        raise InputError(
            f"{player!r} is not an empire of this game; empires: {', '.join(state.seats)}",
            "input/unknown_player",
        )
    sighted = state.sightings.get(player, {})
    armies: dict[str, Any] = {}
    for army_id, army in data["armies"].items():
        if army["empire"] == player:
            armies[army_id] = army
        elif army_id in sighted:
            armies[army_id] = msgspec.to_builtins(sighted[army_id])
    data["armies"] = armies
    data["sightings"] = {player: {a: armies[a] for a in sorted(sighted)}}
    visible = _visible_cards(state, player)
    data["instances"] = {c: v for c, v in data["instances"].items() if c in visible}
    data["fate_spent"] = {c: n for c, n in data["fate_spent"].items() if c in visible}
    # AE-53: of the enemy's minefields only those it walked into, and never their damage; of
    # the independent ones too, and never whether the other empire has since spent or lifted
    # one it walked into, nor whether the other's armies walked into it (AE-67: it stays as
    # this empire knew it); of its own, which of the others' armies walked in (AE-53: told)
    mines = {
        k: {
            f: v if f != "known_to" or m["empire"] == player else [player]
            for f, v in m.items()
            if f != "removed"
        }
        for k, m in data["minefields"].items()
        if m["empire"] == player or player in m["known_to"]
    }
    data["minefields"] = mines
    unseen_damage = {m["card"] for m in mines.values() if m["empire"] != player}
    # AE-49, AE-53: what hidden challenges did to another empire's cards is its own
    # a base's card and facilities are their holder's (AE-34): a captured base's repair too
    holders = {c: b.empire for b in state.bases.values() for c in (b.card, *b.facilities)}
    secret = {
        c: n
        for c, n in data.pop("hidden_damage").items()
        if holders.get(c, state.instances[c].owner) != player
    }
    # a card repaired out of this empire's sight (its hidden damage below 0) keeps the damage
    # it saw dealt (AE-49, since version 12)
    damage = data["damage"]
    damage.update({c: 0 for c, n in secret.items() if n < 0 and c not in damage})
    data["damage"] = {
        c: n - secret.get(c, 0)
        for c, n in damage.items()
        if c in visible and c not in unseen_damage and n > secret.get(c, 0)
    }
    # AE-7: the catalogue holds only the cards this empire has seen
    seen = set(state.empires[player].seen)
    data["catalogue"] = {c: v for c, v in data["catalogue"].items() if c in seen}
    for eid, emp in data["empires"].items():
        own = eid == player
        deck = emp.pop("deck")
        emp["deck_size"] = len(deck)
        face_down = emp.pop("face_down")
        if own:
            emp["deck_contents"] = sorted(deck)
            emp["face_down"] = face_down
        else:
            emp["hand_size"] = len(emp.pop("hand"))
            emp["discard"] = [c for c in emp["discard"] if c not in face_down]
            for name in (
                "moved",
                "out_of_supply",
                "unsupplied",
                "hunted",
                "seen",
                "ap",
            ):
                emp.pop(name)
            emp.pop("assassins", None)  # AE-71: which cards made attempts (left out while none)
            emp.pop("sabotaged", None)  # AE-72: which saboteurs acted, as which armies hunted
            emp.pop("researched", None)  # AE-73: which heroes tried to create a card
    data["bids"] = {e: (n if e == player else HIDDEN) for e, n in data["bids"].items()}
    del data["collateral"]  # the referee's (AE-46)
    for name in BY_ID:
        data[name] = dict(sorted(data[name].items()))
    return data


#: what an empire's view lists by id, sorted by id: in the state they stand in the order they
#: came to be (cards dealt in set-up order, armies as created), which would tell where a card
#: or army of another empire came from (a set-up army or one created in play; a garrison's card);
#: the catalogue stands in the order its recorded lists merge, which since version 18 hangs on
#: the other empire's sealed list (AE-64)
BY_ID = ("armies", "instances", "fate_spent", "minefields", "damage", "catalogue")


def _visible_cards(state: GameState, player: str) -> set[str]:
    """The card instances ``player`` may see now (module doc)."""
    out = {c for c, inst in state.instances.items() if inst.owner == player}
    for base in state.bases.values():
        out.update((base.card, *base.facilities, *base.prisoners))
    for seen in state.sightings.get(player, {}).values():
        out.update(seen.cards())
    for emp in state.empires.values():  # a card lost in a hidden challenge lies face down (AE-49)
        out.update(c for c in emp.discard if emp.id == player or c not in emp.face_down)
    out.update(m.card for m in state.minefields.values() if player in m.known_to)
    for frame in state.frames:
        if isinstance(frame, Challenge):
            for side in (frame.attacker, frame.defender):
                if side is not None:
                    out.update(c for c in (side.fate_hero, side.card) if c is not None)
        elif isinstance(frame, CaptureKill):
            out.add(frame.target)
        elif isinstance(frame, Assassination):  # the attempt shows the assassin (AE-71)
            out.update((frame.assassin, frame.target))
        elif isinstance(frame, SabotageMission):  # the saboteur faces the facility (AE-72)
            out.update((frame.saboteur, frame.target))
        elif isinstance(frame, AirStrike):  # played face up; its target and gunners fire openly
            out.update(c for c in (frame.card, frame.target, frame.challenger) if c)
            out.update(frame.gunners)  # before version 13: every gunner in the hex (AE-41)
            out.update(frame.fired_gunners)
    return out


def notices(before: GameState, after: GameState, event: Event) -> list[Notice]:
    """The Events-view entries ``event`` posts (R9; durations above)."""
    if isinstance(event, ResourcesCollected):
        text = f"Round {after.round}: collected {event.gained.text()}"
        return [Notice(event.empire, text, RESOURCES_NOTICE_ROUNDS)]
    if isinstance(event, InitiativeDetermined):
        aps = AP_BY_PLACE[len(event.order)]

        def rolled(e: str) -> str:
            if event.rerolls and not event.dice[e]:
                return "0 dice bought (1 die when re-rolled, AE-3)"
            return plural(event.dice[e], "die", "dice")

        ranking = "; ".join(
            f"{i + 1}. {e}, {counted(event.successes[e])} on {rolled(e)}, "
            f"{aps[i]} AP before bonuses"
            for i, e in enumerate(event.order)
        )
        text = f"Round {after.round} initiative: {ranking}"
        if event.rerolls:
            text += f" (after {plural(event.rerolls, 'tied roll')} re-rolled, AE-3)"
        if event.fallback:
            text += "; the tie outlasted the re-rolls: AE-3's fallback order decided"
        return [Notice(e, text, INITIATIVE_NOTICE_ROUNDS) for e in event.order]
    if isinstance(event, SupplyTraced) and event.out_of_supply:
        text = (
            f"Out of supply: {', '.join(event.out_of_supply)}; armies with units may move only "
            "one hex this turn, unless every unit has Commando"
        )
        if penalized(after):
            text += (
                f"; until your next turn their units fight with {OUT_OF_SUPPLY_ATTACK} attack "
                f"and {OUT_OF_SUPPLY_DEFENSE} defence dice fewer, Commando ones excepted (AE-69)"
            )
        return [Notice(event.empire, text, OUT_OF_SUPPLY_NOTICE_ROUNDS)]
    if isinstance(event, GameEnded):
        text = f"Game over: {event.reason}; winner: {event.winner or 'none (a draw)'}"
        return [Notice(e, text, GAME_ENDED_NOTICE_ROUNDS) for e in after.seats]
    return _challenge_notices(after, event)


def _challenge_notices(after: GameState, event: Event) -> list[Notice]:
    """Entries for sightings (the observer's alone) and for the open outcomes of hunts and
    challenges (both sides', AE-7)."""
    r = after.round
    if isinstance(event, ArmiesSighted) and event.seen:
        where = ", ".join(f"{s.army} at {s.at} ({s.how})" for s in event.seen)
        return [Notice(event.observer, f"Round {r}: sighted {where}", SIGHTED_NOTICE_ROUNDS)]
    if isinstance(event, CaptureKillBegan):
        f = event.frame
        text = (
            f"Round {r}: {f.hunter}'s {f.army} hunts {f.target_empire}'s hero {f.target} at {f.at}"
        )
        return [Notice(e, text, HUNT_NOTICE_ROUNDS) for e in (f.hunter, f.target_empire)]
    if isinstance(event, ChallengeResolved):
        c, o = event.challenge, event.outcome
        if c.deals_damage or o.kind == "threshold":
            result = o.text(c.purpose)
            if o.damage_to_defender or o.damage_to_attacker:
                result += ", before the card's damage modifiers"
        else:  # a Capture Kill: its verdict is the hero's own entry
            result = f"attacker {o.attacker_successes} − defender {o.defender_successes} successes"
        text = f"Round {r}: challenge {c.number} ({c.purpose}): {result}"
        sides = {c.attacker.empire, *(() if c.defender is None else (c.defender.empire,))}
        return [Notice(e, text, CHALLENGE_NOTICE_ROUNDS) for e in sorted(sides)]
    if isinstance(event, HeroCaptured | HeroKilled | HeroEscaped):
        f = event.frame
        if isinstance(event, HeroCaptured):
            text = f"Round {r}: {f.target} captured by {f.hunter}, held at {event.base}"
            rounds = CAPTURE_NOTICE_ROUNDS
        elif isinstance(event, HeroKilled):
            text, rounds = (
                f"Round {r}: {f.target} killed by {f.hunter}'s hunters",
                CAPTURE_NOTICE_ROUNDS,
            )
        else:
            text, rounds = f"Round {r}: {f.target} escaped {f.hunter}'s hunters", HUNT_NOTICE_ROUNDS
        return [Notice(e, text, rounds) for e in (f.hunter, f.target_empire)]
    if isinstance(event, AssassinationBegan | AssassinationEnded | AssassinationFoiled):
        return _assassination_notices(r, event)
    if isinstance(event, ResearchAttempted):
        made = f"creates {event.created}" if event.created else "fails to create a card"
        text = (
            f"Round {r}: {event.hero} at {event.at} {made} ({event.card}; "
            f"{counted(event.outcome.attacker_successes)} against a threshold of "
            f"{event.outcome.threshold})"
        )
        return [Notice(event.empire, text, RESEARCH_NOTICE_ROUNDS)]
    if isinstance(event, SabotageBegan | SabotageEnded):
        m = event.frame
        if isinstance(event, SabotageBegan):
            text = f"Round {r}: {m.empire}'s saboteur {m.saboteur} sabotages {m.target} at {m.at}"
        else:
            hurt = [f"{m.target} takes {event.dealt}"] if event.dealt else []
            hurt += [f"{m.saboteur} takes {saboteur_hurt(m, event.wounds)}"] if event.wounds else []
            text = f"Round {r}: the sabotage of {m.target}: {'; '.join(hurt) or 'no damage'}"
        return [Notice(e, text, SABOTAGE_NOTICE_ROUNDS) for e in (m.empire, m.target_empire)]
    if isinstance(event, WmdDetonated):
        text = f"Round {r}: {event.weapon} on {event.strike.at}"
        return [Notice(e, text, DESTROYED_NOTICE_ROUNDS) for e in after.seats]
    if isinstance(event, FalloutSuffered) and event.hits:
        what = "collateral damage" if event.kind == "collateral" else "WMD"
        lost = [h.card for h in event.hits if h.destroyed]
        text = f"Round {r}: {what} of air strike {event.strike}: " + ", ".join(
            f"{h.card} takes {h.taken}" for h in event.hits
        )
        if lost:
            text += f"; destroyed: {', '.join(lost)}"
        rounds = DESTROYED_NOTICE_ROUNDS if lost else FALLOUT_NOTICE_ROUNDS
        return [Notice(event.empire, text, rounds)]
    if isinstance(event, MinefieldsChecked) and event.attack is not None:
        text = f"Round {r}: {attack_summary(event.attack)}"
        return [Notice(event.empire, text, MINEFIELD_NOTICE_ROUNDS)]
    # AE-67: an independent minefield's loss or lift is news to no empire
    if isinstance(event, MinefieldsReported) and event.loss is not None:
        if event.controller == INDEPENDENT:
            return []
        text = f"Round {r}: {event.loss.text()}"
        return [Notice(event.controller, text, MINEFIELD_NOTICE_ROUNDS)]
    if isinstance(event, MinefieldLifted):  # AE-55: news to the minefield's empire alone
        if event.controller == INDEPENDENT:
            return []
        text = f"Round {r}: {lifted_notice(event)}"
        return [Notice(event.controller, text, MINEFIELD_NOTICE_ROUNDS)]
    if isinstance(event, CardDamaged) and event.destroyed:
        where = f" in challenge {event.challenge}" if event.challenge else ""
        text = f"Round {r}: {event.card} destroyed{where}"
        return [Notice(e, text, DESTROYED_NOTICE_ROUNDS) for e in after.seats]
    if isinstance(event, BattleEnded):
        b = event.battle
        text = f"Round {r}: {b.name} at {b.at}: {event.winner} wins; {event.why}"
        return [Notice(e, text, BATTLE_NOTICE_ROUNDS) for e in (event.winner, event.loser)]
    if isinstance(event, BaseCaptured):
        text = f"Round {r}: {event.empire} captures {event.previous}'s {event.base} at {event.at}"
        return [Notice(e, text, BASE_NOTICE_ROUNDS) for e in after.seats]
    if isinstance(event, BaseRazed):
        text = f"Round {r}: {event.empire}'s {event.base} at {event.at} is razed"
        return [Notice(e, text, BASE_NOTICE_ROUNDS) for e in after.seats]
    return []


def _assassination_notices(
    r: int, event: AssassinationBegan | AssassinationEnded | AssassinationFoiled
) -> list[Notice]:
    """AE-71: the attempt and its outcome, to both sides; a foiled one, to the assassin's."""
    if isinstance(event, AssassinationFoiled):
        text = (
            f"Round {r}: {event.card}'s assassination attempt on {event.target} at {event.at} "
            "is foiled: he is not found there"
        )
        return [Notice(event.empire, text, ASSASSINATION_NOTICE_ROUNDS)]
    f = event.frame
    rounds = ASSASSINATION_NOTICE_ROUNDS
    if isinstance(event, AssassinationBegan):
        text = (
            f"Round {r}: {f.empire}'s {f.assassin} attempts to assassinate "
            f"{f.target_empire}'s hero {f.target} at {f.at}"
        )
    elif event.killed:
        text = f"Round {r}: {f.target} killed by {f.empire}'s assassin {f.assassin}"
        rounds = ASSASSINATION_KILL_NOTICE_ROUNDS
    elif event.wounds:
        text = (
            f"Round {r}: {f.target} takes {plural(event.wounds, 'wound')} from {f.empire}'s "
            f"assassin {f.assassin}"
        )
    else:
        text = f"Round {r}: {f.target} escapes {f.empire}'s assassin {f.assassin}"
    return [Notice(e, text, rounds) for e in (f.empire, f.target_empire)]

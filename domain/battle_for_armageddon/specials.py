"""Special cards: drawing them (BFA-10) and playing them, one per action segment (seed 003).

BFA-11: the phasing player plays a card during his own action segment, in the phase its effect
names, when no combat is being resolved. Effects:

- ``reconstruction`` (build): a smoking ruins with no Ork counter flips back; the track rises,
  the points already counted for this phase do not (BFA-19);
- ``drop_pod`` (movement): a READY Marine counter lands in any area open to it (it has moved);
- ``forced_march`` (movement): +value Move for counters that move after it this phase;
- ``barrage`` (combat): +value to the player's CRT rolls for the rest of the phase;
- ``extra_build_points`` (build, before the track moves): +value build points this phase;
- ``extra_rebuild`` (Ork build): +value rebuilds this phase.
"""

from __future__ import annotations

from warlog.domain.battle_for_armageddon import board
from warlog.domain.battle_for_armageddon.build_events import CounterPlaced
from warlog.domain.battle_for_armageddon.commands import PlaySpecial
from warlog.domain.battle_for_armageddon.rules import IMPERIALS, ORKS, READY
from warlog.domain.battle_for_armageddon.scenario import START_LATER, SpecialCardSpec
from warlog.domain.battle_for_armageddon.special_card_events import (
    SiteRebuilt,
    SpecialCardDrawn,
    SpecialCardPlayed,
)
from warlog.domain.battle_for_armageddon.state import Counter, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.errors import RulesError, quoted, reject

#: the phase in which each effect is played (BFA-11)
EFFECT_PHASE: dict[str, str] = {
    "reconstruction": "build",
    "drop_pod": "movement",
    "forced_march": "movement",
    "barrage": "combat",
    "extra_build_points": "build",
    "extra_rebuild": "build",
}


#: the purpose of the die that picks a drawn card (its faces are sealed for the opponent)
DRAW_PURPOSE = "special card draw"


def card_spec(state: GameState, card_id: str) -> SpecialCardSpec:
    for c in state.scenario.special_cards:
        if c.id == card_id:
            return c
    raise KeyError(card_id)


#: BFA-28, since this rules version: a special card is played, and named in the log, as the
#: first copy of its kind (the same card: side, name, effect and value) that has not been played
#: yet, whichever copy the hidden draw gave: the copy's id would tell the other side which of
#: the identical copies the draw picked, and so where in the deck it fell. Which copies have been
#: played is public, so the name tells nothing more than that a card of that kind was held
PLAYED_BY_KIND_SINCE = 4


def kind(spec: SpecialCardSpec) -> tuple[str, str, str, int]:
    """What makes two special cards copies of one card (BFA-28)."""
    return (spec.side, spec.name, spec.effect, spec.value)


def copies(state: GameState, spec: SpecialCardSpec) -> list[str]:
    """The ids of every copy of ``spec``'s kind, in the scenario's order."""
    return [c.id for c in state.scenario.special_cards if kind(c) == kind(spec)]


def first_unplayed(state: GameState, player: str, spec: SpecialCardSpec) -> str:
    """BFA-28: the first copy of ``spec``'s kind not in ``player``'s discards (public), or
    ``spec`` itself when every copy has been played (then none can be held)."""
    played = set(state.discards[player])
    return next((x for x in copies(state, spec) if x not in played), spec.id)


def by_kind(state: GameState) -> bool:
    """BFA-28 holds in this game's rules version."""
    return state.rules_version >= PLAYED_BY_KIND_SINCE


def draw(batch: Batch[GameState], player: str) -> None:
    """BFA-10: the top card of a shuffled deck is a uniformly random remaining card: one
    d(cards left) picks it (no roll when one card is left; an empty deck draws nothing)."""
    deck = batch.state.decks[player]
    if not deck:
        return
    n = len(deck)
    face = batch.roll(1, n, purpose=DRAW_PURPOSE, roller=player, hidden=True)[0] if n > 1 else 1
    batch.emit(SpecialCardDrawn(player=player, card=deck[face - 1], face=face, deck_size=n))


def reconstruction_areas(state: GameState) -> list[str]:
    return [
        s.area
        for s in state.sites.values()
        if s.ruined and not board.occupied_by(state, s.area, ORKS)
    ]


def drop_pod_counters(state: GameState) -> list[Counter]:
    """READY counters that arrived as reinforcements (Dante and the Marine Chapters); BFA-22: the
    Drop Pod lands one of them in any open area, within stacking, and it counts as moved."""
    later = {c.id for c in state.scenario.counters if c.start == START_LATER}
    return [x for x in state.counters.values() if x.location == READY and x.id in later]


def drop_pod_areas(state: GameState, counter: Counter) -> list[str]:
    return [
        a.id
        for a in state.scenario.areas
        if board.open_to(state, a.id, IMPERIALS) and board.fits(state, a.id, [counter])
    ]


def timing_problem(state: GameState, player: str, spec: SpecialCardSpec) -> RulesError | None:
    """Why the card cannot be played now, apart from its target (``rules/special_limit`` or
    ``rules/wrong_timing``), or None."""
    if state.special_played:
        return reject(
            "a special card was already played this action segment (rules: Sequence of Play)",
            "special_limit",
        )
    phase = EFFECT_PHASE[spec.effect]
    if state.phase != phase:
        return reject(f"{spec.name} is played in the {phase} phase (BFA-11)", "wrong_timing")
    if spec.effect == "extra_build_points" and state.build_step != "buy":
        return reject(f"{spec.name} is played before the production track moves", "wrong_timing")
    if spec.effect == "extra_rebuild" and player != ORKS:  # pragma: no cover - scenario check
        return reject(f"{spec.name} is an Ork card", "wrong_timing")
    return None


def play(batch: Batch[GameState], cmd: PlaySpecial) -> None:
    """``special_card_played`` and its effect (BFA-11); Reconstruction flips ruins free of Orks
    back, the track rising at once, this phase's counted points unchanged (BFA-19)."""
    state = batch.state
    if by_kind(state):
        spec = _played_kind(state, cmd)
    elif cmd.card not in state.hands[cmd.player]:
        raise reject(f"{quoted(cmd.card)} is not in the {cmd.player}' hand", "not_in_hand")
    else:
        spec = card_spec(state, cmd.card)
    problem = timing_problem(state, cmd.player, spec)
    if problem is not None:
        raise problem
    played = SpecialCardPlayed(
        player=cmd.player,
        card=spec.id,
        name=spec.name,
        effect=spec.effect,
        value=spec.value,
        area=cmd.area,
        counter=cmd.counter,
    )
    if spec.effect == "reconstruction":
        if cmd.area not in reconstruction_areas(state):
            raise reject(
                f"{board.area_named(state, cmd.area) if cmd.area else '(no area)'} holds no "
                "smoking ruins free of Orks to reconstruct",
                "bad_target",
            )
        site = board.site_in(state, cmd.area)
        assert site is not None
        batch.emit(played)
        track = board.build_track(batch.state) + site.defence
        batch.emit(SiteRebuilt(site=site.id, area=site.area, defence=site.defence, track=track))
        return
    if spec.effect == "drop_pod":
        counter = state.counters.get(cmd.counter)
        if counter is None or counter not in drop_pod_counters(state):
            raise reject(
                f"{board.counter_named(state, cmd.counter) if cmd.counter else '(no counter)'} is not a READY Marine counter",
                "bad_target",
            )
        if cmd.area not in drop_pod_areas(state, counter):
            raise reject(
                f"{cmd.counter} cannot land in {board.area_named(state, cmd.area) if cmd.area else '(no area)'} (terrain, enemy or stacking)",
                "bad_target",
            )
        batch.emit(played)
        batch.emit(
            CounterPlaced(counter=counter.id, area=cmd.area, reason="Imperial Drop Pod", moved=True)
        )
        return
    if cmd.area or cmd.counter:
        raise reject(f"{spec.name} takes no area or counter", "bad_target")
    batch.emit(played)


def _played_kind(state: GameState, cmd: PlaySpecial) -> SpecialCardSpec:
    """BFA-28: the card named must be the first unplayed copy of its kind (a fact of the
    public discards, checked first), and the player must hold a copy of that kind."""
    spec = next((c for c in state.scenario.special_cards if c.id == cmd.card), None)
    if spec is None or spec.side != cmd.player:
        raise reject(
            f"{quoted(cmd.card)} is not one of the {cmd.player}' special cards", "not_in_hand"
        )
    first = first_unplayed(state, cmd.player, spec)
    if cmd.card != first:
        raise reject(
            f"a {spec.name} is played as {first}, the first copy not played yet, whichever copy "
            "is held (BFA-28)",
            "bad_choice",
        )
    held = set(copies(state, spec)) & set(state.hands[cmd.player])
    if not held:
        raise reject(f"the {cmd.player} hold no {spec.name}", "not_in_hand")
    return spec


def playable(state: GameState, player: str) -> list[PlaySpecial]:
    """Every special-card play ``player`` may make now (for ``legal``)."""
    out: list[PlaySpecial] = []
    if state.stage != "action" or state.phasing != player or state.combat is not None:
        return out
    seen: set[tuple[str, str, str, int]] = set()
    for card in state.hands[player]:
        spec = card_spec(state, card)
        if timing_problem(state, player, spec) is not None or kind(spec) in seen:
            continue
        seen.add(kind(spec))
        if by_kind(state):
            card = first_unplayed(state, player, spec)
        if spec.effect == "reconstruction":
            out.extend(
                PlaySpecial(player=player, card=card, area=a) for a in reconstruction_areas(state)
            )
        elif spec.effect == "drop_pod":
            for x in drop_pod_counters(state):
                out.extend(
                    PlaySpecial(player=player, card=card, area=a, counter=x.id)
                    for a in drop_pod_areas(state, x)
                )
        else:
            out.append(PlaySpecial(player=player, card=card))
    return out

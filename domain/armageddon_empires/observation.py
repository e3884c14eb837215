"""Observation and detection (R7; manual p.27, p.30, p.46, p.48; digest §3), and the check windows.

- **Observation dice into a hex** = strength − range to the hex − the hex's terrain modifier
  (R12), for every Recce within range; halved (floor, R3) against a stealthed army (p.27). The
  best single observer counts ("highest observation strength", p.30; AE-18). Unit cards print
  ``Recce S<strength>, R<range>``, heroes and facilities ``Recce <range> <strength>`` (digest
  11.3; ``abilities.py`` reads both). ``Sniffer X`` gives X dice in its own hex, never reduced
  nor halved (p.48; AE-18). At 0 dice or fewer there is no check (R7).
- **Detection dice** of an army (R7): stealthed, the lowest Stealth X among its cards (p.27);
  a hero alone, 3; otherwise max(1, 3 − unit cards // 3). A garrison behind a base with
  ``Camouflage X`` rolls X dice if that is more (p.27, p.48; AE-18).
- **Windows** (digest 3.1; AE-17): at the start of each round (after initiative), every empire
  checks every enemy army; when an army moves, each enemy empire checks it where it stops, and
  its own empire checks, with the moved army's own Recce, the enemy armies it does not see yet.
  Each window gives every empire one hidden roll (all the dice of its checks, sealed for every
  player), ``observation_checked`` and ``armies_sighted``, whatever was checked (AE-17).
- **A base sees its own hex** (AE-56): since version 8 in every round window and when an enemy
  army drops stealth or takes units there; since version 24 when one ends a move there too.
- **An army a minefield destroys on its move** is lost from the sight of every empire that had
  it in sight, as one that moves out of sight is, since version 25 (AE-17, AE-53, AE-67;
  ``LOST_WHEN_DESTROYED_SINCE``).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable

from warlog.domain.armageddon_empires.abilities import (
    CAMOUFLAGE,
    SNIFFER,
    STEALTH,
    level,
    recces,
)
from warlog.domain.armageddon_empires.challenge import Pool, Term, counted, divided, successes
from warlog.domain.armageddon_empires.control import sieges_as_seen
from warlog.domain.armageddon_empires.fog import Check, SeenBy, Sighting
from warlog.domain.armageddon_empires.sighting_events import (
    ArmiesSighted,
    ObservationChecked,
    Window,
)
from warlog.domain.armageddon_empires.state import Army, GameState
from warlog.domain.core.batch import Batch
from warlog.domain.core.hexgrid import Hex

#: R7: detection dice of an army that is not stealthed = max(1, BASE − unit cards // PER_DIE)
DETECTION_BASE_DICE = 3
DETECTION_CARDS_PER_DIE = 3
DETECTION_MIN_DICE = 1
#: R7: a hero alone in an army rolls 3 detection dice
HERO_ALONE_DETECTION_DICE = 3
#: p.27 (R3): observation dice against a stealthed army are divided by this, rounding down
STEALTH_DIVISOR = 2


def observation_purpose(observer: str) -> str:
    """The ``purpose`` of an empire's hidden observation roll (the same in every window)."""
    return f"observation by {observer}"


def observation_into(
    state: GameState,
    empire: str,
    at: str,
    stealthed: bool,
    armies: Iterable[Army] | None = None,
    bases: bool = True,
) -> Term | None:
    """The best observation of ``empire`` into hex ``at`` (module doc), as a labelled term, or
    None when no observer reaches it with a die. ``armies``: only these observe (a moving army's
    fresh checks, AE-17); ``bases``: whether the empire's bases observe too."""
    return Observers(state, empire, armies, bases).into(at, stealthed)


#: an observer's Recce: its hex (q, r), strength, range and the start of its label
_Eye = tuple[int, int, int, int, str]
#: a base's Sniffer: its hex, its level and its label
_Nose = tuple[str, int, str]


class Observers:
    """The observers of ``empire`` in ``state`` (``observation_into``'s ``armies`` and
    ``bases``), read once for a window's many checks: each Recce and Sniffer in the order
    ``into`` offers them (the first of equal dice counts)."""

    def __init__(
        self,
        state: GameState,
        empire: str,
        armies: Iterable[Army] | None = None,
        bases: bool = True,
    ) -> None:
        self._state = state
        self._empire = empire
        self._armies = None if armies is None else list(armies)
        self._bases = bases
        self._found: list[_Eye | _Nose] | None = None  # read at the first hex on the map

    def _read(self) -> list[_Eye | _Nose]:
        state = self._state
        found: list[_Eye | _Nose] = []

        def eyes(where: str, card: str, holder: str) -> None:
            entry = state.card(card)
            for r in recces(entry.abilities):
                place = _hex(where)
                label = f"{r.printed()} of {entry.name} in {holder}: {r.strength} − range "
                found.append((place.q, place.r, r.strength, r.range, label))

        pool = (
            sorted(
                (a for a in state.armies.values() if a.empire == self._empire), key=lambda a: a.id
            )
            if self._armies is None
            else self._armies
        )
        for army in pool:
            for card in army.cards():
                eyes(army.at, card, army.id)
        if self._bases:
            for base in sorted(state.bases_of(self._empire), key=lambda b: b.id):
                for card in (base.card, *base.facilities):
                    eyes(base.at, card, base.id)
                    sniff = level(state.card(card).abilities, SNIFFER)
                    if sniff:
                        label = (
                            f"Sniffer {sniff} of {state.card(card).name} in its own hex, not "
                            "halved (p.48; AE-18)"
                        )
                        found.append((base.at, sniff, label))
        return found

    def into(self, at: str, stealthed: bool) -> Term | None:
        """The best observation into hex ``at`` (``observation_into``)."""
        state = self._state
        terrain = state.board.terrain.get(at)
        if terrain is None:
            return None  # off the map: only a forged log's state puts an army there
        mod = state.board.table[terrain].defense
        target = _hex(at)
        if self._found is None:
            self._found = self._read()
        best_dice, best_label = 0, ""
        for found in self._found:
            if len(found) == 3:  # a Sniffer: in its own hex only
                where, dice, label = found
                if where == at and dice > best_dice:
                    best_dice, best_label = dice, label
                continue
            q, r, strength, reach, start = found
            dq, dr = q - target.q, r - target.r
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if d > reach:
                continue
            raw = strength - d - mod
            dice = raw // STEALTH_DIVISOR if stealthed else raw
            if dice > best_dice:
                best_dice, best_label = dice, f"{start}{d} − {terrain} {mod}"
                if stealthed:
                    best_label += f" = {raw}, halved against stealth (p.27)"
        return Term(best_dice, best_label) if best_dice > 0 else None


@functools.lru_cache(maxsize=4096)
def _hex(text: str) -> Hex:
    """``Hex.parse``, once per hex text (a map has few)."""
    return Hex.parse(text)


def detection_pool(state: GameState, army: Army) -> Pool:
    """The army's detection dice (R7; module doc)."""
    if army.stealthed and army.cards():
        x = min(level(state.card(c).abilities, STEALTH) for c in army.cards())
        return Pool((Term(x, f"Stealth {x}, the lowest in the army (p.27; R7)"),))
    if not army.units:
        pool = Pool((Term(HERO_ALONE_DETECTION_DICE, "a hero alone (R7)"),))
    else:
        n = len(army.units)
        terms = [
            Term(DETECTION_BASE_DICE, "R7"),
            Term(
                -(n // DETECTION_CARDS_PER_DIE),
                divided(state.rules_version, f"{n} units", DETECTION_CARDS_PER_DIE),
            ),
        ]
        raw = DETECTION_BASE_DICE - n // DETECTION_CARDS_PER_DIE
        if raw < DETECTION_MIN_DICE:
            terms.append(Term(DETECTION_MIN_DICE - raw, "at least 1 die (R7)"))
        pool = Pool(tuple(terms))
    if army.garrison_of is not None:
        base = state.bases[army.garrison_of]
        for card in (base.card, *base.facilities):
            x = level(state.card(card).abilities, CAMOUFLAGE)
            if x > pool.size:
                pool = Pool(
                    (Term(x, f"Camouflage {x} of {state.card(card).name} (p.27, p.48; AE-18)"),)
                )
    return pool


def sighting(state: GameState, army: Army, how: SeenBy, detail: str = "") -> Sighting:
    """How ``army`` looks to the enemy that sees it now."""
    return Sighting(
        army=army.id,
        empire=army.empire,
        at=army.at,
        hero=army.hero,
        units=army.units,
        stealthed=army.stealthed,
        round=state.round,
        how=how,
        detail=detail,
    )


class Plan:
    """The checks of one empire in one window, then what it sees."""

    def __init__(self, observer: str, window: Window) -> None:
        self.observer = observer
        self.window = window
        self.checks: list[tuple[Army, Term, Pool]] = []
        self.extra: list[Sighting] = []
        self.lost: list[str] = []

    def check(self, army: Army, eye: Term | None, hider: Pool) -> None:
        if eye is not None:
            self.checks.append((army, eye, hider))

    def emit(self, batch: Batch[GameState]) -> None:
        """One hidden roll of every die of the checks (sealed for every player), then
        ``observation_checked`` and ``armies_sighted`` (module doc)."""
        total = sum(eye.value + hider.size for _, eye, hider in self.checks)
        faces = batch.roll(
            total, 6, purpose=observation_purpose(self.observer), roller="", hidden=True
        )
        state = batch.state
        done: list[Check] = []
        seen: list[Sighting] = []
        i = 0
        for army, eye, hider in self.checks:
            mine = tuple(faces[i : i + eye.value])
            i += eye.value
            theirs = tuple(faces[i : i + hider.size])
            i += hider.size
            check = Check(
                army=army.id,
                at=army.at,
                observer=Pool((eye,)),
                hider=hider,
                observer_faces=mine,
                hider_faces=theirs,
            )
            done.append(check)
            if check.detected:
                detail = (
                    f"{eye.value} observation dice ({eye.label}): {counted(successes(mine))} "
                    f"against {successes(theirs)} on {hider.size} detection dice (R7)"
                )
                seen.append(sighting(state, army, "observation", detail))
        found = {s.army for s in seen}
        seen += [s for s in self.extra if s.army not in found]
        lost = tuple(a for a in self.lost if a not in {s.army for s in seen})
        batch.emit(
            ObservationChecked(observer=self.observer, window=self.window, checks=tuple(done))
        )
        batch.emit(
            ArmiesSighted(observer=self.observer, window=self.window, seen=tuple(seen), lost=lost)
        )


#: AE-56: the rules version since which a base sees the enemy armies that are not stealthed in
#: its own hex (contact): in every round window, and when one drops stealth or takes units there
SEEN_AT_A_BASE_SINCE = 8


def at_our_bases(state: GameState, observer: str, armies: Iterable[Army]) -> list[Sighting]:
    """AE-56: those of ``armies`` (enemy armies) that stand, not stealthed and holding cards, in
    the hex of a base of ``observer``'s, as contact sightings; none before version 8."""
    if state.rules_version < SEEN_AT_A_BASE_SINCE:
        return []
    ours = {b.at: b.id for b in state.bases.values() if b.empire == observer}
    return [
        sighting(
            state, a, "contact", f"it stands in the hex of {observer}'s base {ours[a.at]} (AE-56)"
        )
        for a in armies
        if a.empire != observer and a.at in ours and not a.stealthed and a.cards()
    ]


def seen_at_a_base(batch: Batch[GameState], army_id: str) -> None:
    """AE-56: after army ``army_id`` drops stealth or takes units, the empire whose base stands
    in its hex sees it there as it now stands (``armies_sighted``, sealed for that empire)."""
    state = batch.state
    army = state.armies.get(army_id)
    if army is None:
        return
    for observer in state.seats:
        seen = at_our_bases(state, observer, [army])
        if seen:
            batch.emit(ArmiesSighted(observer=observer, window="move", seen=tuple(seen), lost=()))


#: AE-17, AE-53, AE-67: the rules version since which an army that a minefield destroys on its
#: move is listed in ``armies_sighted``'s ``lost`` for every empire that had it in sight before
#: it moved, as one that moves out of its checks is: what the minefield did is the mover's (and
#: an independent one's, nobody's), so the observer's own record must not tell the one from
#: the other. Before, it was listed for none: since version 23 an independent minefield's kill
#: showed, to an empire that had the army in sight, as no loss of sight at all
LOST_WHEN_DESTROYED_SINCE = 25


def _enemies(state: GameState, empire: str) -> list[Army]:
    """The enemy armies there is something to see of (an empty army shows nothing), by id."""
    return sorted(
        (a for a in state.armies.values() if a.empire != empire and a.cards()),
        key=lambda a: a.id,
    )


def round_window(batch: Batch[GameState]) -> None:
    """The round's checks (module doc): every empire checks every enemy army; what it sees
    replaces last round's sightings."""
    for observer in batch.state.seats:
        state = batch.state
        plan = Plan(observer, "round")
        eyes = Observers(state, observer)
        enemies = _enemies(state, observer)
        for army in enemies:
            eye = eyes.into(army.at, army.stealthed)
            plan.check(army, eye, detection_pool(state, army))
        plan.extra = at_our_bases(state, observer, enemies)
        plan.emit(batch)


def move_window(
    batch: Batch[GameState], moved: str, contact: list[str], sighted_by: Collection[str]
) -> None:
    """The checks after army ``moved`` stops (module doc). ``contact``: the enemy armies it
    walked into (they and it are seen by each other's empire, digest 3.1); ``sighted_by``: the
    empires that had it in sight before a minefield could destroy it."""
    for observer in batch.state.seats:
        state = batch.state
        army = state.armies.get(moved)
        plan = Plan(observer, "move")
        if army is None:  # a minefield destroyed it where it stopped (AE-52): nothing to check
            if observer in sighted_by and state.rules_version >= LOST_WHEN_DESTROYED_SINCE:
                plan.lost = [moved]  # as if it had moved out of sight (AE-53, AE-67)
        elif observer == army.empire:
            known = state.sightings.get(observer, {})
            eyes = Observers(state, observer, armies=[army], bases=False)
            for enemy in _enemies(state, observer):
                if enemy.id in known or enemy.id in contact:
                    continue
                eye = eyes.into(enemy.at, enemy.stealthed)
                plan.check(enemy, eye, detection_pool(state, enemy))
            plan.extra = [
                sighting(state, state.armies[c], "contact", "walked into it (AE-17)")
                for c in contact
            ]
        else:  # an army that moves has cards
            eye = observation_into(state, observer, army.at, army.stealthed)
            plan.check(army, eye, detection_pool(state, army))
            if any(state.armies[c].empire == observer for c in contact):
                plan.extra = [sighting(state, army, "contact", "it walked into our army (AE-17)")]
            elif sieges_as_seen(state):  # AE-56: and a base sees the army that comes to it
                plan.extra = at_our_bases(state, observer, [army])
            if army.id in state.sightings.get(observer, {}):
                plan.lost = [army.id]
        plan.emit(batch)

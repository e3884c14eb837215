"""The game state: counters and where they are, hives and factories, the turn and phase machine.

Frozen msgspec Structs that round-trip through msgpack (dict keys are str). ``evolve`` builds new
states with ``msgspec.structs.replace``; nothing here decides anything.
"""

from typing import Literal

import msgspec

from warlog.domain.battle_for_armageddon.combat_events import Step
from warlog.domain.battle_for_armageddon.scenario import Scenario
from warlog.domain.core.procedure import Frame

Stage = Literal["setup", "strategy", "action", "over"]


class Counter(msgspec.Struct, frozen=True):
    """One counter. ``location`` is an area id or one of the off-map boxes of ``rules``."""

    id: str
    type: str
    side: str
    location: str
    tribe: str = ""
    #: spaces left to READY while on the production track
    track: int = 0
    #: a Marine Chapter flipped to its detachment side
    reduced: bool = False


class Site(msgspec.Struct, frozen=True):
    """A hive or factory; ``ruined`` once flipped to smoking ruins."""

    id: str
    kind: str
    area: str
    defence: int
    ruined: bool = False


class Combat(Frame, frozen=True):
    """An attack being resolved: who takes part, the odds, the roll, the steps still to apply."""

    attacker: str
    defender: str
    target: str
    sources: tuple[str, ...]
    #: attacking counter -> the area it attacks from
    attackers: dict[str, str]
    #: the defending counters that count (not already retreated this phase)
    defenders: tuple[str, ...]
    #: counters in the target that already retreated this phase (they do not defend)
    passive: tuple[str, ...] = ()
    attack_total: int = 0
    defence_total: int = 0
    column: str = ""
    roll: int = 0
    result: str = ""
    rerolled: bool = False
    #: players who kept the result rather than reroll it
    kept: tuple[str, ...] = ()
    #: True once the result stands and its steps are set
    settled: bool = False
    steps: tuple[Step, ...] = ()
    #: counters that retreated in this combat
    retreated: tuple[str, ...] = ()
    #: the Marine Chapters already reduced, and whether the target's site was already in ruins,
    #: when the attack was declared (what ``combat_ended``'s summary must not count again)
    reduced_before: tuple[str, ...] = ()
    ruined_before: bool = False


class GameState(msgspec.Struct, frozen=True):
    scenario: Scenario
    #: the version of the rules the game began under (its ``game_created``); 2 for the games
    #: begun before version 3 recorded it
    counters: dict[str, Counter]
    sites: dict[str, Site]
    hands: dict[str, tuple[str, ...]]
    decks: dict[str, tuple[str, ...]]
    discards: dict[str, tuple[str, ...]]
    stage: Stage = "setup"
    turn: int = 1
    #: strategy cards chosen this turn, in order of play (secret until revealed)
    choices: dict[str, tuple[str, ...]] = {}
    revealed: dict[str, tuple[str, ...]] = {}
    initiative: str = ""
    segment: int = 0
    phasing: str = ""
    card: str = ""
    phase_index: int = 0
    #: "" between phases
    phase: str = ""
    special_played: bool = False
    #: counters moved this movement phase, in the order they moved
    moved: tuple[str, ...] = ()
    move_bonus: int = 0
    crt_bonus: int = 0
    attacked_areas: tuple[str, ...] = ()
    #: counters that attacked this combat phase
    attacked: tuple[str, ...] = ()
    #: counters that retreated this combat phase
    retreated: tuple[str, ...] = ()
    combat: Combat | None = None
    #: Imperial build phase: "buy" then "place"
    build_step: str = ""
    build_points: int = 0
    rebuilds: int = 0
    result: str = ""
    rules_version: int = 2
    #: since version 8 (BFA-12): the counters placed over the stacking limits in a build phase,
    #: in the order placed, until the end of the Imperials' next movement phase (BFA-2)
    overstacked: tuple[str, ...] = ()

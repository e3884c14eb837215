"""The events of Battle for Armageddon: every area's, joined in the order their tags are pinned in.

Each area keeps its own module (``turn_events``, ``movement_events``, ``combat_events``,
``build_events``, ``special_card_events``); this one only lists them for the ruleset. Events
carrying arithmetic explain it (``explain()``): the odds from the totals, the die and its
modifiers, the build points from the sites, the supply rolls.
"""

from warlog.domain.battle_for_armageddon.build_events import (
    BuildPointsCounted,
    CounterBuilt,
    CounterPlaced,
    CounterRebuilt,
    ProductionAdvanced,
    RebuildsCounted,
)
from warlog.domain.battle_for_armageddon.combat_events import (
    Advanced,
    AttackDeclared,
    CombatEnded,
    CombatRolled,
    CounterRetreated,
    LossTaken,
    ResultKept,
    ResultStood,
    RetreatCompleted,
    RetreatIgnored,
    SiteRuined,
    StackEliminated,
)
from warlog.domain.battle_for_armageddon.movement_events import (
    ChapterReduced,
    CounterEliminated,
    CounterMoved,
)
from warlog.domain.battle_for_armageddon.special_card_events import (
    SiteRebuilt,
    SpecialCardDrawn,
    SpecialCardPlayed,
)
from warlog.domain.battle_for_armageddon.turn_events import (
    ActionSegmentBegan,
    CounterDeployed,
    GameEnded,
    InitiativeDecided,
    PhaseBegan,
    PhaseEnded,
    ReinforcementsArrived,
    SetupEnded,
    StackOutOfSupply,
    StrategyChosen,
    SupplyChecked,
    TurnBegan,
    VictoryChecked,
)
from warlog.domain.core.events import Event

#: the ruleset's events in the order its test pins their tags in, the game's turn: the areas
#: interleave there (the build phase's counts open that phase, a special card is drawn in the
#: strategy segment), so this names each event rather than joining a tuple per area
EVENT_TYPES: tuple[type[Event], ...] = (
    CounterDeployed,
    SetupEnded,
    TurnBegan,
    ReinforcementsArrived,
    StrategyChosen,
    InitiativeDecided,
    SpecialCardDrawn,
    ActionSegmentBegan,
    PhaseBegan,
    BuildPointsCounted,
    RebuildsCounted,
    PhaseEnded,
    StackOutOfSupply,
    SupplyChecked,
    VictoryChecked,
    GameEnded,
    CounterMoved,
    CounterEliminated,
    ChapterReduced,
    AttackDeclared,
    CombatRolled,
    ResultKept,
    ResultStood,
    LossTaken,
    StackEliminated,
    SiteRuined,
    RetreatIgnored,
    CounterRetreated,
    RetreatCompleted,
    Advanced,
    CombatEnded,
    CounterBuilt,
    ProductionAdvanced,
    CounterPlaced,
    CounterRebuilt,
    SpecialCardPlayed,
    SiteRebuilt,
)

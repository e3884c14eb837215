"""Events: everything that happens in a battle of Midgard: Heroic Battles, past tense, no floats.

Every event that carries arithmetic explains it (``explain()``) with the rule's name and page on the
quick-reference sheet and our ruling (HB-n) where one applies: each pool with its halvings and
bonuses in order, each command test, each table looked up. Distances are in half ST.
"""

from warlog.domain.core.events import Event
from warlog.domain.core.summary import plural as _plural
from warlog.domain.heroic_battles import rulings
from warlog.domain.heroic_battles import tables as t
from warlog.domain.heroic_battles.casualty_events import (
    FinalBlowStruck,
    HeroDeathRolled,
    HeroKilled,
    HeroUnattached,
    StaminaLost,
    UnitDestroyed,
)
from warlog.domain.heroic_battles.charge_events import (
    ChargeContacted,
    ChargeDeclared,
    ChargeFailed,
    ChargePressed,
    ChargeReceived,
    CounterCharged,
    CounterChargeDeclared,
    Evaded,
    EvadeDeclared,
    EvadeFailed,
)
from warlog.domain.heroic_battles.hero_events import (
    ChallengeAccepted,
    ChallengeForgone,
    ChallengeIssued,
    ChallengeRefused,
    DeedsCommitted,
    HeroesAtRisk,
    RiskRerolled,
    RiskResolved,
    RiskRolled,
    SingleCombatDiceRolled,
    SingleCombatRound,
)
from warlog.domain.heroic_battles.melee_events import (
    CombatDiceRolled,
    Disengaged,
    DisengageDeclared,
    HeldGround,
    MeleeBegan,
    MeleeDamage,
    MeleeDecided,
    MeleeDeclared,
    MeleeEnded,
    MeleeHitsCounted,
    Pursued,
    StayedEngaged,
    SupportSavesRolled,
)
from warlog.domain.heroic_battles.retreat_events import (
    RetreatBegan,
    RetreatCancelled,
    RetreatsOrdered,
    UnitRetreated,
)
from warlog.domain.heroic_battles.shooting_events import (
    HitsTaken,
    ShootingEnded,
    ShootingPassed,
    ShotsFired,
    TargetInRoughTerrain,
)
from warlog.domain.heroic_battles.values import (
    PendingTest,
    TestPurpose,
    hit_range,
)
from warlog.domain.heroic_battles.values import faces_text as _faces

# -- the turn --------------------------------------------------------------------------------------


class TurnBegan(Event, frozen=True, tag="turn_began"):
    """The first event of a turn (the clock of the Events view)."""

    turn: int

    def explain(self) -> str:
        return f"turn {self.turn} begins ({t.TURN_SEQUENCE})"


class DeedsRefreshed(Event, frozen=True, tag="deeds_refreshed"):
    """Phase 1: every hero on the table has Mighty Deeds equal to its level; unused ones are lost."""

    turn: int
    deeds: dict[str, int]
    lost: dict[str, int] = {}

    def explain(self) -> str:
        parts = [
            f"{h} {n}" + (f" ({self.lost[h]} unused lost)" if self.lost.get(h) else "")
            for h, n in self.deeds.items()
        ]
        return f"turn {self.turn}, Mighty Deeds equal to each hero's level ({t.MIGHTY_DEEDS}): " + (
            ", ".join(parts) or "no hero on the table"
        )


class PhaseBegan(Event, frozen=True, tag="phase_began"):
    """A phase of the turn sequence begins (``force`` is the phasing force, "" for shooting)."""

    phase: str
    force: str = ""

    def explain(self) -> str:
        who = f" of {self.force}" if self.force else ""
        return f"the {self.phase} phase{who} begins ({t.TURN_SEQUENCE})"


class PhaseEnded(Event, frozen=True, tag="phase_ended"):
    phase: str
    force: str = ""

    def explain(self) -> str:
        who = f" of {self.force}" if self.force else ""
        return f"the {self.phase} phase{who} is over ({t.TURN_SEQUENCE})"


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    """End of turn: Shot markers are removed (HB-9)."""

    turn: int

    def explain(self) -> str:
        return f"end of turn {self.turn}: Shot markers are removed (HB-9)"


class VictoryChecked(Event, frozen=True, tag="victory_checked"):
    """End of turn: victory conditions and Reputation Tokens (p.27; HB-20)."""

    turn: int
    tokens: dict[str, int]
    on_table: dict[str, int]
    last_turn: bool
    result: str

    def explain(self) -> str:
        state = "; ".join(
            f"{f}: {_plural(n, 'token')}, {self.on_table[f]} on the table"
            for f, n in self.tokens.items()
        )
        verdict = {"": "the battle goes on", "draw": "a draw"}.get(
            self.result, f"{self.result} win"
        )
        last = " (the scenario's last turn)" if self.last_turn else ""
        return f"end of turn {self.turn}{last}: {state} → {verdict} ({t.TURN_SEQUENCE}; HB-20)"


class GameEnded(Event, frozen=True, tag="game_ended"):
    result: str
    reason: str

    def explain(self) -> str:
        return self.reason


# -- reputation and Mighty Deeds -------------------------------------------------------------------


class ReputationGained(Event, frozen=True, tag="reputation_gained"):
    """A force gains Reputation Tokens (p.23); ``who`` earned them."""

    force: str
    tokens: int
    reason: str
    who: str = ""

    def explain(self) -> str:
        by = f"{self.who}: " if self.who else ""
        rule = t.REPUTATION
        if self.reason in rulings.CHARGE_REASONS:
            rule += "; HB-6: one hero per charging unit, the Army Commander, else the highest level"
        if self.reason == rulings.FIRST_COMBAT_REASON:
            rule += "; HB-38: once per game, to the first hero to charge into it"
        return (
            f"{self.force} gain {_plural(self.tokens, 'Reputation Token')}: {by}{self.reason} "
            f"({rule})"
        )


class ReputationLost(Event, frozen=True, tag="reputation_lost"):
    """A force loses Reputation Tokens (p.23): ``tokens`` of the ``due`` (HB-21: never below 0)."""

    force: str
    tokens: int
    due: int
    reason: str
    who: str = ""

    def explain(self) -> str:
        by = f"{self.who}: " if self.who else ""
        short = "" if self.tokens == self.due else f" ({self.due} due; no fewer than 0, HB-21)"
        return (
            f"{self.force} lose {_plural(self.tokens, 'Reputation Token')}{short}: {by}"
            f"{self.reason} ({t.REPUTATION})"
        )


class DeedsSpent(Event, frozen=True, tag="deeds_spent"):
    """A hero spends Mighty Deeds (p.28)."""

    hero: str
    deeds: int
    purpose: str

    def explain(self) -> str:
        return f"{self.hero} spends {_plural(self.deeds, 'Mighty Deed')}: {self.purpose} ({t.MIGHTY_DEEDS})"


# -- rolls that wait for their dice -------------------------------------------------------------------


class DiceAwaited(Event, frozen=True, tag="dice_awaited"):
    """The game waits for a roll: its count depends on faces this command already rolled, so it
    is a command of its own (``roll``), and a referee typing manual dice always knows how many a
    command needs before rolling any."""

    roller: str
    dice: int
    what: str

    def explain(self) -> str:
        return (
            f"{self.roller} to roll {self.dice}D6: {self.what} (HB-34: a roll that depends on "
            "dice just rolled waits for its own roll command)"
        )


class DiceCast(Event, frozen=True, tag="dice_cast"):
    """The awaited roll is made (its dice follow)."""

    roller: str
    what: str

    def explain(self) -> str:
        return f"{self.roller} rolls: {self.what} (HB-34)"


class OnesRerolled(Event, frozen=True, tag="ones_rerolled"):
    """A pool's 1s rolled again (Melee: a Charging or Winning marker; Single Combat: the first
    round)."""

    force: str
    owner: str
    reason: str
    faces: list[int]
    hit_on: int
    hits: int
    legendary: bool = False

    def explain(self) -> str:
        rule = t.MELEE if "marker" in self.reason else t.SINGLE_COMBAT
        legendary = " (Legendary Weapon dice, HB-12)" if self.legendary and self.hits else ""
        return (
            f"{self.owner} re-rolls {len(self.faces)} × 1 ({self.reason}; {rule}): "
            f"{_faces(self.faces)} on {hit_range(self.hit_on)} → "
            f"{_plural(self.hits, 'more hit')}{legendary}"
        )


# -- command tests ---------------------------------------------------------------------------------


class CommandTestsCalled(Event, frozen=True, tag="command_tests_called"):
    """Command tests to take, one after the other (p.26)."""

    tests: list[PendingTest]

    def explain(self) -> str:
        return (
            "; ".join(
                f"{x.unit} must take a command test ({', '.join(x.reasons)})" for x in self.tests
            )
            + f" ({t.COMMAND_TESTS})"
        )


def _test_roll(dice: int, faces: list[int], score: int) -> str:
    if dice == 1:
        return f"1D6 {_faces(faces)}"
    return f"{dice}D6, the lowest counts: {_faces(faces)} → {score}"


class CommandTestTaken(Event, frozen=True, tag="command_test_taken"):
    """A command test rolled: pass on 3+ with 1D6 or the lowest of several dice."""

    unit: str
    purpose: TestPurpose
    dice: int
    faces: list[int]
    score: int
    passed: bool
    reasons: list[str] = []
    rerollable: bool = False

    def explain(self) -> str:
        why = f" ({', '.join(self.reasons)})" if self.reasons else ""
        result = "passes" if self.passed else "fails"
        more = (
            "; a hero within 2 ST may re-roll it with a Mighty Deed (HB-28)"
            if self.rerollable and not self.passed
            else ""
        )
        fewer = (
            " (one die fewer: a Drilled unit's first test of its own movement, HB-25)"
            if self.dice < t.HARD_COMMAND_TEST_DICE
            and {t.CROSSING_A_BARRIER, t.IN_ROUGH_TERRAIN} & set(self.reasons)
            else ""
        )
        return (
            f"{self.unit} command test{why}: {_test_roll(self.dice, self.faces, self.score)}"
            f"{fewer}: {result} ({t.COMMAND_TEST_PASS}+ passes, {t.COMMAND_TESTS}){more}"
        )


class CommandTestRerolled(Event, frozen=True, tag="command_test_rerolled"):
    """A failed command test re-rolled with a hero's Mighty Deed (p.28; HB-28)."""

    unit: str
    purpose: TestPurpose
    hero: str
    dice: int
    faces: list[int]
    score: int
    passed: bool
    rerollable: bool = False

    def explain(self) -> str:
        return (
            f"{self.hero} spends a Mighty Deed to re-roll {self.unit}'s failed command test "
            f"({t.MIGHTY_DEEDS}; HB-28): {_test_roll(self.dice, self.faces, self.score)}: "
            f"{'passes' if self.passed else 'fails'}"
        )


class CommandTestResolved(Event, frozen=True, tag="command_test_resolved"):
    """A command test's result stands (``void``: the unit was no longer on the table)."""

    unit: str
    purpose: TestPurpose
    passed: bool
    void: bool = False

    def explain(self) -> str:
        if self.void:
            return f"{self.unit} is no longer on the table: no test ({t.COMMAND_TESTS})"
        return (
            f"{self.unit}'s command test {'passed' if self.passed else 'failed'} "
            f"({t.COMMAND_TESTS})"
        )


# -- movement ----------------------------------------------------------------------------------------


class UnitMoved(Event, frozen=True, tag="unit_moved"):
    """A movement action (pp.30–40); the players moved the figures as declared."""

    unit: str
    action: int
    half_st: int
    direction: str
    rough: bool = False
    barrier: bool = False

    def explain(self) -> str:
        way = "straight ahead" if self.direction == "ahead" else "in any direction"
        over = " across a barrier" if self.barrier else ""
        rough = " in rough terrain" if self.rough else ""
        return (
            f"{self.unit}'s movement action {self.action}: up to {t.half_st(self.half_st)} "
            f"{way}{over}{rough} ({t.MOVEMENT})"
        )


class MovementFailed(Event, frozen=True, tag="movement_failed"):
    """A unit failed the command test of a movement action: it does not move (HB-3)."""

    unit: str
    action: int
    purpose: str

    def explain(self) -> str:
        rule = t.CHANGING_FACING if self.purpose == "change of facing" else t.MOVEMENT
        return (
            f"{self.unit} failed the command test for its {self.purpose}: it does not move and its "
            f"movement is over this phase ({rule}; HB-3)"
        )


class FacingChanged(Event, frozen=True, tag="facing_changed"):
    unit: str

    def explain(self) -> str:
        return f"{self.unit} turns to face any direction ({t.CHANGING_FACING})"


class HeroJoined(Event, frozen=True, tag="hero_joined"):
    hero: str
    unit: str
    action: int

    def explain(self) -> str:
        return f"{self.hero} joins {self.unit} (movement action {self.action}; HB-5)"


class HeroLeft(Event, frozen=True, tag="hero_left"):
    """A hero leaves its unit (HB-5); from a unit in melee it leaves the melee too."""

    hero: str
    unit: str
    in_melee: bool = False

    def explain(self) -> str:
        melee = " while it is in melee" if self.in_melee else ""
        return f"{self.hero} leaves {self.unit}{melee} (HB-5)"


EVENT_TYPES: tuple[type[Event], ...] = (
    TurnBegan,
    DeedsRefreshed,
    PhaseBegan,
    PhaseEnded,
    TurnEnded,
    VictoryChecked,
    GameEnded,
    ReputationGained,
    ReputationLost,
    DeedsSpent,
    DiceAwaited,
    DiceCast,
    OnesRerolled,
    CommandTestsCalled,
    CommandTestTaken,
    CommandTestRerolled,
    CommandTestResolved,
    UnitMoved,
    MovementFailed,
    FacingChanged,
    HeroJoined,
    HeroLeft,
    ChargeDeclared,
    ChargeFailed,
    EvadeDeclared,
    Evaded,
    EvadeFailed,
    CounterChargeDeclared,
    CounterCharged,
    ChargeReceived,
    ChargePressed,
    ChargeContacted,
    ShotsFired,
    TargetInRoughTerrain,
    HeroesAtRisk,
    RiskRolled,
    RiskRerolled,
    RiskResolved,
    HitsTaken,
    ShootingEnded,
    ShootingPassed,
    MeleeBegan,
    MeleeDeclared,
    CombatDiceRolled,
    SupportSavesRolled,
    MeleeHitsCounted,
    MeleeDamage,
    MeleeDecided,
    RetreatsOrdered,
    Pursued,
    HeldGround,
    DisengageDeclared,
    Disengaged,
    StayedEngaged,
    MeleeEnded,
    ChallengeIssued,
    ChallengeForgone,
    ChallengeRefused,
    ChallengeAccepted,
    DeedsCommitted,
    SingleCombatDiceRolled,
    SingleCombatRound,
    StaminaLost,
    UnitDestroyed,
    HeroKilled,
    HeroDeathRolled,
    HeroUnattached,
    FinalBlowStruck,
    RetreatBegan,
    UnitRetreated,
    RetreatCancelled,
)

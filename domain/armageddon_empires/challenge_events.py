"""The events of challenges, Capture Kill, damage and repair (past tense; stable tags).

Every challenge event carries the whole challenge as it stands after it (its pools with their
terms, every roll, fate and tactic so far), so that ``explain`` on any of them prints all of it
(STYLE: every derived number explains itself). Never imports ``state.py``.
"""

from typing import Annotated, Any, Literal

import msgspec

from warlog.domain.armageddon_empires.challenge import Challenge, Outcome, Role
from warlog.domain.armageddon_empires.fog import Sighting
from warlog.domain.armageddon_empires.frames import CaptureKill
from warlog.domain.armageddon_empires.resources import Resources
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural


def in_challenge(event: Any) -> str:
    """``part_of`` for the events that carry their challenge (a Challenge, or its number)."""
    challenge = event.challenge
    return f"challenge {challenge if isinstance(challenge, int) else challenge.number}"


class StealthedController(msgspec.Struct, frozen=True):
    """A Forward Air Controller of the striker's empire in the hex that an Air-To-Ground pool
    leaves out because its army is stealthed (p.46; AE-42)."""

    card: str
    army: str

    def text(self) -> str:
        return (
            f"Forward Air Controller {self.card} in the stealthed army {self.army} does not "
            "count: a stealthed army does not give itself away (p.46; AE-42)"
        )


class ChallengeOpened(Event, frozen=True, tag="challenge_opened", omit_defaults=True):
    """Both pools are built and rolled (digest 1.4 step 1); the challenge goes on the stack.

    An Air-To-Ground challenge since version 20 records ``stealthed_controllers``, sealed for the
    striker (the attacker's empire) and present even when empty, so that its presence tells the
    defender nothing; before, and in every other challenge, it is left out (UNSET)."""

    challenge: Challenge
    stealthed_controllers: Annotated[
        tuple[StealthedController, ...] | msgspec.UnsetType,
        Hidden(owner="attacker_empire", since=20),
    ] = msgspec.UNSET

    part_of = in_challenge

    @property
    def attacker_empire(self) -> str:
        """The attacker's empire: an Air-To-Ground strike's, whose ``stealthed_controllers``
        are."""
        return self.challenge.attacker.empire

    def begins(self) -> bool:
        return True

    def explain(self) -> str:
        c = self.challenge
        first = "the defender acts first (R5)" if c.defender is not None else "one side (p.28)"
        out = f"challenge {c.number} opens; {first}\n{c.describe()}"
        if isinstance(self.stealthed_controllers, tuple):
            out += "".join(f"\n{s.text()}" for s in self.stealthed_controllers)
        return out

    def explain_sealed(self, closed: frozenset[str]) -> str | None:
        """The challenge as it opens, to the striker's opponents: ``stealthed_controllers`` is
        the striker's, and the rest never depends on it."""
        if closed != {"stealthed_controllers"}:
            return None
        return msgspec.structs.replace(self, stealthed_controllers=msgspec.UNSET).explain()


class PrerogativeTaken(Event, frozen=True, tag="prerogative_taken"):
    """The defender takes the Defender's Prerogative: the dice stand, the challenge ends (R5)."""

    empire: str
    challenge: Challenge

    part_of = in_challenge

    def explain(self) -> str:
        c = self.challenge
        assert c.defender is not None
        return (
            f"{self.empire} takes the Defender's Prerogative: the dice deal the defender no damage "
            f"({c.attacker.successes} ≤ {c.defender.successes} successes) and it has not acted, "
            f"so the challenge ends at once (p.28; R5)\n{c.describe()}"
        )


class FateSpent(Event, frozen=True, tag="fate_spent"):
    """A side spends fate, 1 point a die, to re-roll failed dice (p.16; R5, R6): first fate a
    tactic gave it in this challenge, then its hero's (spent until the next round, R6)."""

    empire: str
    role: Role
    count: int
    hero: str | None
    from_hero: int
    positions: tuple[int, ...]
    rolled: tuple[int, ...]
    challenge: Challenge

    part_of = in_challenge

    def explain(self) -> str:
        source = f"{self.from_hero} of {self.hero}'s fate" if self.from_hero else ""
        bonus = self.count - self.from_hero
        if bonus:
            source = " and ".join(x for x in (f"{bonus} granted in this challenge", source) if x)
        return (
            f"{self.empire} ({self.role}) spends {self.count} fate ({source}) to re-roll its "
            f"failed dice {list(self.positions)} → {list(self.rolled)} (R5, R6; AE-16)\n"
            f"{self.challenge.describe()}"
        )


class TacticPlayed(Event, frozen=True, tag="tactic_played"):
    """A tactic card played from the hand in a challenge (p.20, p.51), then discarded. Outside
    its own turn an empire owes the AP until its next turn begins (AE-19)."""

    empire: str
    role: Role
    card: str
    printed: str
    ap_cost: int
    owed: bool
    #: the opponent's hero's fate points the card burnt (R6: spent until the next round)
    burnt_hero: str | None
    burnt: int
    rolled: tuple[int, ...]
    line: str
    challenge: Challenge

    part_of = in_challenge

    def explain(self) -> str:
        pay = (
            f"{self.ap_cost} AP owed until its next turn (AE-19)"
            if self.owed
            else f"{self.ap_cost} AP (R11)"
        )
        return (
            f"{self.empire} ({self.role}) plays {self.card} '{self.printed}' for {pay}: "
            f"{self.line} (p.51; AE-16)\n{self.challenge.describe()}"
        )


class ChallengeAccepted(Event, frozen=True, tag="challenge_accepted"):
    """A side accepts the dice as they stand (R5). ``automatic``: it had no move but accepting,
    as both sides can tell, so the rules accepted for it (AE-20)."""

    empire: str
    role: Role
    automatic: bool
    challenge: Challenge

    part_of = in_challenge

    def explain(self) -> str:
        c = self.challenge
        how = (
            "accepts automatically: no prerogative, no fate to re-roll a failed die, and no "
            "card in hand or AP to play a tactic (AE-20)"
            if self.automatic
            else "accepts"
        )
        return (
            f"{self.empire} ({self.role}) {how}; {plural(c.accepts, 'accept')} in a row of "
            f"{c.accepts_needed} that end the challenge (R5)\n{c.describe()}"
        )


class ChallengeResolved(Event, frozen=True, tag="challenge_resolved"):
    """The challenge ends (prerogative or accepts in a row, R5) and leaves the stack; the
    procedure under it reads ``outcome``."""

    challenge: Challenge
    outcome: Outcome

    part_of = in_challenge

    def explain(self) -> str:
        how = (
            "the Defender's Prerogative"
            if self.outcome.ended_by == "prerogative"
            else f"{plural(self.challenge.accepts_needed, 'accept')} in a row"
        )
        return (
            f"challenge {self.challenge.number} ends by {how} (R5): {self.outcome.text(self.challenge.purpose)}\n"
            f"{self.challenge.describe()}"
        )


#: when damage destroys a card, with where a player reads it (the rules digest, §1.3)
_DESTROYED_AT = (
    "a card is destroyed and discarded when its damage reaches its hit, wound or structure "
    "points: p.17–19, p.31, p.34; AE-24"
)


class CardDamaged(Event, frozen=True, tag="card_damaged"):
    """A card takes a challenge's damage; at its hit, wound or structure points it is destroyed
    and discarded (p.17–19, p.31, p.34; AE-24)."""

    card: str
    owner: str
    amount: int
    #: the damage the card has taken in the open, this included (since version 12: what hidden
    #: challenges dealt it is its owner's, AE-49; before, every damage it had taken)
    total: int
    limit: int
    destroyed: bool
    challenge: int
    #: how the amount was reached: the challenge's damage and its modifiers (p.34)
    note: str = ""

    part_of = in_challenge

    def explain(self) -> str:
        how = f" ({self.note})" if self.note else ""
        out = (
            f"{self.card} takes {self.amount} damage{how}"
            f"{f' in challenge {self.challenge}' if self.challenge else ''}: "
            f"{self.total} of {self.limit}"
        )
        if self.destroyed:
            return out + f" — destroyed and discarded ({_DESTROYED_AT})"
        return out + f" ({_DESTROYED_AT})"


ChosenBy = Literal["only", "die", "bounty hunter"]


class CaptureKillBegan(Event, frozen=True, tag="capture_kill_began"):
    """Hunt Enemy Hero (p.30): the hunter's armies in the hex join (stealthed ones destealth,
    and every one is seen by the target's empire), the target is picked, the frame goes on the
    stack; its challenge opens next."""

    frame: CaptureKill
    ap_cost: int
    candidates: tuple[str, ...]
    chosen_by: ChosenBy
    hunting_armies: tuple[str, ...]
    destealthed: tuple[str, ...]

    def explain(self) -> str:
        f = self.frame
        how = {
            "only": "the only spotted hero-only army's hero",
            "die": f"picked at random among {', '.join(self.candidates)} (p.30)",
            "bounty hunter": "chosen by the hunter, who has a Bounty Hunter in the hex (p.30)",
        }[self.chosen_by]
        if f.battle:
            out = (
                f"{f.target} of {f.target_empire} is left alone after battle {f.battle}: "
                f"{f.hunter}'s {f.army} attempts a Capture Kill at {f.at} (p.34; AE-33); "
                f"taking part: {', '.join(self.hunting_armies)} (p.30)"
            )
        else:
            out = (
                f"{f.hunter}'s {f.army} hunts {f.target_empire}'s hero {f.target} at {f.at} for "
                f"{self.ap_cost} AP (R11; AE-21); target: {how}; taking part: "
                f"{', '.join(self.hunting_armies)} (p.30)"
            )
        if self.destealthed:
            out += f"; destealthed: {', '.join(self.destealthed)} (p.30)"
        return out


def capture_verdict(frame: CaptureKill) -> str:
    """The arithmetic of R4 on a resolved Capture Kill."""
    o = frame.outcome
    if o is None:
        return "the challenge is not resolved yet"
    a, d = o.attacker_successes, o.defender_successes
    if a <= d:
        return f"hunter {a} successes do not exceed the target's {d}: the hero escapes (R4)"
    th = frame.threshold
    out = (
        f"hunter {a} > target {d} successes: the hero is caught (R4); capture threshold = "
        f"target pool {frame.target_pool} − largest Bounty Hunter {frame.bounty_hunter} = {th} "
        "(R4, p.30)"
    )
    if a > th:
        return out + f"; {a} > {th}: captured"
    return out + f"; {a} ≤ {th}: killed while escaping"


class HeroCaptured(Event, frozen=True, tag="hero_captured"):
    """The target is captured and taken to the captor's nearest base (p.24, p.30; AE-21)."""

    frame: CaptureKill
    base: str
    base_at: str
    distance: int
    army_removed: bool

    def explain(self) -> str:
        f = self.frame
        out = (
            f"{capture_verdict(f)}; {f.target} is taken to {f.hunter}'s nearest base {self.base} "
            f"at {self.base_at} ({self.distance} hex{'' if self.distance == 1 else 'es'} away; "
            "AE-21), which earns +3 AP a round while it holds him and is not besieged "
            "(p.24, p.30; AE-35)"
        )
        if self.army_removed:
            out += f"; {f.target_army} is left empty and disbanded (AE-24)"
        return out


class HeroKilled(Event, frozen=True, tag="hero_killed"):
    """The target is killed while escaping and discarded for good (p.30)."""

    frame: CaptureKill
    army_removed: bool
    #: a capture with no base of the captor to take him to kills him (AE-21)
    no_base: bool = False

    def explain(self) -> str:
        f = self.frame
        out = capture_verdict(f)
        if self.no_base:
            out += f"; but {f.hunter} has no base to take him to, so he is killed (AE-21)"
        out += f"; {f.target} is discarded (p.30)"
        if self.army_removed:
            out += f"; {f.target_army} is left empty and disbanded (AE-24)"
        return out


class HeroEscaped(Event, frozen=True, tag="hero_escaped"):
    """The hunter did not get more successes than the target: nothing happens (R4)."""

    frame: CaptureKill

    def explain(self) -> str:
        return capture_verdict(self.frame)


class HuntFoiled(Event, frozen=True, tag="hunt_foiled"):
    """Hunt Enemy Hero (p.30) finds the hero its empire saw alone no longer alone (units joined
    him unseen), gone, or hidden by stealth: no Capture Kill; the AP is spent, and the hunters
    see the army as it now stands (AE-38). Since version 12 all but the hunter and the AP are
    sealed for the hunter: the other empire learns only that a hunt of the hunter's was foiled,
    not by which army, where, nor of which hero (``Hidden.since``). Since version 22 an army
    that has engaged stealth is not seen (``seen`` None), whatever it holds
    (``capture.STEALTHED_PREY_UNSEEN_SINCE``); the hunter may infer that it hid, since a hero
    alone does not leave his army unseen, but not what it holds."""

    hunter: str
    army: Annotated[str, Hidden(owner="hunter", since=12)]
    at: Annotated[str, Hidden(owner="hunter", since=12)]
    target: Annotated[str, Hidden(owner="hunter", since=12)]
    target_army: Annotated[str, Hidden(owner="hunter", since=12)]
    ap_cost: int
    seen: Annotated[Sighting | None, Hidden(owner="hunter", since=12)] = None

    def explain(self) -> str:
        if self.seen is None:  # since version 22 an army that engaged stealth, too
            found = f"{self.target} is not found there alone (gone, or hidden by stealth)"
        elif self.seen.units:
            found = f"{self.target_army} now holds units ({', '.join(self.seen.units)})"
        elif self.seen.stealthed:  # version 21 and before: seen as it stands, stealthed
            found = f"{self.target_army} has engaged stealth"
        else:
            found = f"{self.target} is not found there alone"
        return (
            f"{self.army} of {self.hunter} hunts {self.target} at {self.at} for {self.ap_cost} AP "
            f"(R11; AE-21), but {found}: only a hero alone is hunted (p.30; AE-38)"
        )


class CardRepaired(Event, frozen=True, tag="card_repaired"):
    """A damaged card repaired or healed to full strength (p.34; AE-22); which card, and how
    much, is sealed for the other empire."""

    empire: str
    card: Annotated[str, Hidden(owner="empire")]
    repaired: Annotated[int, Hidden(owner="empire")]
    ap_cost: int
    paid: Resources

    def explain(self) -> str:
        return (
            f"{self.empire} repairs {self.card} ({self.repaired} damage) to full strength for "
            f"{self.ap_cost} AP and {self.paid.text()} (p.34; R11; AE-22)"
        )


CHALLENGE_EVENT_TYPES: tuple[type[Event], ...] = (
    ChallengeOpened,
    PrerogativeTaken,
    FateSpent,
    TacticPlayed,
    ChallengeAccepted,
    ChallengeResolved,
    CardDamaged,
    CaptureKillBegan,
    HeroCaptured,
    HeroKilled,
    HeroEscaped,
    CardRepaired,
    HuntFoiled,
)

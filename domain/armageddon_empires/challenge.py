"""A challenge: dice pools that explain themselves, counted successes, and the outcome (R1, R3, R5).

Every die is a d6 whose faces 4, 5 and 6 are successes (R1). A pool is built from labelled
terms (``hunter 6 = 1 base (R2) + 1 (3 units ÷ 2, rounded down) + 4 (Recce S5, R1: ...)``) and never has
fewer than 0 dice (R3). The three kinds of challenge (digest 1.2):

- **opposed**: the attacker's successes minus the defender's is the damage to the defender, when
  positive (p.15, p.31, p.34);
- **duel**: as opposed, and the defender's surplus is dealt to the attacker (p.31);
- **threshold**: one side rolls against a fixed number and succeeds with at least that many
  successes (p.28).

Hidden challenges (observation, p.27) use the same pools and are resolved on the spot by the
rules that call them, with no interaction (``observation.py``).

This module holds values only (no game state), so that events can carry a whole challenge and
explain it: its pools with their terms, every roll, fate and tactic used, and the result.
"""

from typing import Literal

import msgspec

from warlog.domain.core.procedure import Frame
from warlog.domain.core.summary import plural

#: R1: d6 faces 4, 5, 6 are successes
SUCCESS_FROM_FACE = 4
#: a die placed or turned to show a success by a tactic card (p.51) shows this face
SUCCESS_FACE = 6
#: a die turned to show a failure by a tactic card (p.51) shows this face
FAILURE_FACE = 1
#: since version 27 a term that halves a count reads as a player reads it ("3 units ÷ 2, rounded
#: down"); earlier versions recorded the programmer's "3 units // 2" in their events, and keep it
PLAIN_DIVISION_SINCE = 27

ChallengeKind = Literal["opposed", "duel", "threshold"]
Role = Literal["attacker", "defender"]
EndedBy = Literal["prerogative", "accepts"]


def is_success(face: int) -> bool:
    """R1: a face of 4, 5 or 6."""
    return face >= SUCCESS_FROM_FACE


def successes(faces: tuple[int, ...] | list[int]) -> int:
    """The successes among d6 faces (R1)."""
    return sum(1 for f in faces if is_success(f))


def counted(n: int) -> str:
    """``"1 success"``, ``"3 successes"``."""
    return plural(n, "success", "successes")


def failed_positions(faces: tuple[int, ...]) -> list[int]:
    return [i for i, f in enumerate(faces) if not is_success(f)]


def success_positions(faces: tuple[int, ...]) -> list[int]:
    return [i for i, f in enumerate(faces) if is_success(f)]


def divided(version: int, count: str, by: int) -> str:
    """A term's label for ``count`` divided by ``by`` and rounded down, in the words of the
    rules' ``version`` (``PLAIN_DIVISION_SINCE``): a label is recorded in the events."""
    if version >= PLAIN_DIVISION_SINCE:
        return f"{count} ÷ {by}, rounded down"
    return f"{count} // {by}"


class Term(msgspec.Struct, frozen=True):
    """One part of a dice pool: its dice and where they come from."""

    value: int
    label: str

    def text(self) -> str:
        return f"{self.value} ({self.label})" if self.label else str(self.value)


class Pool(msgspec.Struct, frozen=True):
    """A dice pool as built: the sum of its terms, never below 0 (R3)."""

    terms: tuple[Term, ...]

    @property
    def size(self) -> int:
        return max(0, sum(t.value for t in self.terms))

    def text(self) -> str:
        """``6 = 1 (base, R2) + 1 (3 units ÷ 2, rounded down) + 4 (...)``."""
        total = sum(t.value for t in self.terms)
        parts = (
            "".join(
                t.text()
                if i == 0
                else (f" − {Term(-t.value, t.label).text()}" if t.value < 0 else f" + {t.text()}")
                for i, t in enumerate(self.terms)
            )
            or "nothing"
        )
        floor = " (a pool never goes below 0, R3)" if total < 0 else ""
        return f"{self.size} = {parts}{floor}"


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One side of a challenge: who rolls, the pool as built, the dice as they stand now, and
    the fate it may spend (R6): its hero's unspent fate (``fate_hero``) and fate granted in this
    challenge by tactic cards (``fate_bonus``)."""

    empire: str
    name: str
    pool: Pool
    faces: tuple[int, ...] = ()
    fate_hero: str | None = None
    fate_bonus: int = 0
    #: fate this side has spent in this challenge (for the explanation)
    fate_spent: int = 0
    #: the card that takes this side's damage when the challenge deals damage (None: the
    #: procedure that opened the challenge reads the outcome itself)
    card: str | None = None

    @property
    def successes(self) -> int:
        return successes(self.faces)

    @property
    def has_fate(self) -> bool:
        """A side "has fate" when a hero lends it his fate or a tactic card gave it some
        (p.51: fate tactics work only where fate is already available)."""
        return self.fate_hero is not None or self.fate_bonus > 0

    def dice_text(self) -> str:
        return f"{list(self.faces)} = {counted(self.successes)}"


#: where the manual makes a challenge of each purpose a duel: air combat's (Air To Air, HARM:
#: p.31) unless listed; a sabotage against Counter Intel is one by p.29 and p.48 (AE-72)
DUEL_PAGES: dict[str, str] = {"sabotage": "p.29, p.48"}
DUEL_PAGE = "p.31"
#: where the manual deals an opposed challenge's damage, the attacker's surplus (digest §1.3), by
#: the last words of the challenge's purpose: air combat's on p.31, a retreat's and a Sniper
#: Attack's on p.34, a sabotage's on p.29; any other's in the damage assessment of p.28
DAMAGE_PAGES: dict[str, str] = {
    "air to air": "p.31",
    "ground to air": "p.31",
    "air to ground": "p.31",
    "retreat": "p.34",
    "sniper": "p.34",
    "sabotage": "p.29",
}
DAMAGE_PAGE = "p.28"
#: a Capture Kill's purpose: its challenge deals no damage; its verdict compares the successes
#: (p.30; R4)
CAPTURE_KILL = "capture kill"


def damage_page(purpose: str) -> str:
    """The page of the manual that deals the damage of a challenge of ``purpose``."""
    for words, page in DAMAGE_PAGES.items():
        if purpose == words or purpose.endswith(f" {words}"):
            return page
    return DAMAGE_PAGE


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a challenge ended (R5) and what it dealt."""

    kind: ChallengeKind
    ended_by: EndedBy
    attacker_successes: int
    defender_successes: int = 0
    threshold: int = 0
    #: R5: attacker successes − defender successes, when positive
    damage_to_defender: int = 0
    #: a duel: defender successes − attacker successes, when positive (p.31)
    damage_to_attacker: int = 0
    #: a threshold challenge: successes ≥ threshold (p.28)
    succeeded: bool = False

    def text(self, purpose: str = "") -> str:
        """The outcome's arithmetic with the page of the manual that deals a challenge of
        ``purpose`` its damage (``damage_page``; a duel's ``DUEL_PAGES``), or a Capture Kill's
        successes, which deal none."""
        a = self.attacker_successes
        if self.kind == "threshold":
            verdict = "succeeds" if self.succeeded else "fails"
            return (
                f"{counted(a)} against a threshold of {self.threshold}: {verdict} "
                "(ties succeed, p.28)"
            )
        d = self.defender_successes
        if purpose == CAPTURE_KILL:
            return (
                f"attacker {counted(a)}, defender {counted(d)}: a Capture Kill deals no damage; "
                "its verdict, the next event, compares the successes (p.30; R4)"
            )
        out = f"attacker {a} − defender {d} successes"
        page = damage_page(purpose)
        if self.damage_to_defender:
            out += f" = {self.damage_to_defender} damage to the defender ({page}; R5)"
        elif self.damage_to_attacker:
            out += (
                f": the defender's surplus {d} − {a} = {self.damage_to_attacker} damage to the "
                f"attacker (a duel, {DUEL_PAGES.get(purpose, DUEL_PAGE)})"
            )
        else:
            out += f": no damage (the attacker must have more, {page}; R5)"
        return out


class Challenge(Frame, frozen=True, kw_only=True, tag="challenge", tag_field="frame"):
    """A challenge in progress, on top of the procedure stack (R5).

    ``to_act`` is the side whose move it is; ``ceded``: the defender acted, giving up the
    Defender's Prerogative for the rest of the challenge; ``accepts``: accepts in a row (the
    challenge ends at 2, or at 1 in a threshold challenge with its single side). ``story``
    holds every roll, fate and tactic so far, in order, as a referee reads them.
    """

    number: int
    kind: ChallengeKind
    purpose: str
    round: int
    attacker: Side
    defender: Side | None = None
    threshold: int = 0
    to_act: Role = "defender"
    ceded: bool = False
    accepts: int = 0
    deals_damage: bool = False
    story: tuple[str, ...] = ()
    #: how it ended, once it has (it then leaves the stack with ``challenge_resolved``)
    ended: EndedBy | None = None

    def side(self, role: Role) -> Side:
        side = self.attacker if role == "attacker" else self.defender
        assert side is not None, "a threshold challenge has no defender"
        return side

    def with_side(self, role: Role, side: Side) -> "Challenge":
        if role == "attacker":
            return msgspec.structs.replace(self, attacker=side)
        return msgspec.structs.replace(self, defender=side)

    def other(self, role: Role) -> Role | None:
        """The opposing role, None in a threshold challenge."""
        if self.defender is None:
            return None
        return "defender" if role == "attacker" else "attacker"

    @property
    def accepts_needed(self) -> int:
        """R5: both sides accept in a row; a threshold challenge's single side accepts once."""
        return 1 if self.defender is None else 2

    def no_damage_to_defender(self) -> bool:
        """The dice as they stand deal the defender no damage (R5's prerogative condition)."""
        return self.defender is not None and self.attacker.successes <= self.defender.successes

    def prerogative_open(self) -> bool:
        """R5: the defender may take the prerogative now."""
        return (
            self.kind in ("opposed", "duel")
            and self.to_act == "defender"
            and not self.ceded
            and self.no_damage_to_defender()
        )

    def outcome(self, ended_by: EndedBy) -> Outcome:
        """The result of the dice as they stand (R5; a duel p.31; a threshold p.28)."""
        a = self.attacker.successes
        if self.defender is None:
            return Outcome(
                kind=self.kind,
                ended_by=ended_by,
                attacker_successes=a,
                threshold=self.threshold,
                succeeded=a >= self.threshold,
            )
        d = self.defender.successes
        return Outcome(
            kind=self.kind,
            ended_by=ended_by,
            attacker_successes=a,
            defender_successes=d,
            damage_to_defender=max(0, a - d),
            damage_to_attacker=max(0, d - a) if self.kind == "duel" else 0,
        )

    def describe(self) -> str:
        """The whole challenge, as ``explain`` prints it: pools, story, the dice now."""
        lines = [
            f"challenge {self.number} ({self.purpose}, {self.kind}; round {self.round})",
            f"{self.attacker.name} ({self.attacker.empire}) pool {self.attacker.pool.text()}",
        ]
        if self.defender is not None:
            lines.append(
                f"{self.defender.name} ({self.defender.empire}) pool {self.defender.pool.text()}"
            )
        else:
            lines.append(f"threshold {self.threshold} (p.28)")
        lines += [f"- {line}" for line in self.story]
        now = f"dice now: {self.attacker.name} {self.attacker.dice_text()}"
        if self.defender is not None:
            now += f"; {self.defender.name} {self.defender.dice_text()}"
        lines.append(now)
        return "\n".join(lines)

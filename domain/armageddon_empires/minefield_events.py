"""The events of minefields (p.32, p.46; AE-50..AE-55): what the army that walked into one
learns, what the minefield's empire learns, and the minefields Engineers lay and lift (past
tense; stable tags).

After every move in a game whose scenario placed minefields, both events follow the move,
whether or not the army entered one (AE-53): ``minefields_checked``, sealed for the moving
empire alone, and ``minefields_reported``, sealed for the other empire alone; since version 23
also ``minefields_reported`` for no empire, sealed for every player (AE-67). Their shape is
the same whatever was hidden. Never imports ``state.py``.
"""

from typing import Annotated

import msgspec

from warlog.domain.armageddon_empires.cards import INDEPENDENT
from warlog.domain.armageddon_empires.challenge import Pool, counted, successes
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden
from warlog.domain.core.summary import plural


class MineChallenge(msgspec.Struct, frozen=True, kw_only=True):
    """One Minefield Attack Challenge (p.32; AE-52): the minefield's dice against one card."""

    card: str
    attack: Pool
    defense: Pool
    attack_faces: tuple[int, ...]
    defense_faces: tuple[int, ...]
    #: attack successes − defence successes, when positive: what the minefield loses (p.32)
    base_damage: int
    #: the card's damage modifiers (AE-29) and the damage it takes
    modifier: int
    modifier_label: str
    damage: int
    #: the card's damage after this challenge, and its points (AE-24)
    total: int
    limit: int
    destroyed: bool

    def text(self) -> str:
        a, d = successes(self.attack_faces), successes(self.defense_faces)
        out = (
            f"{self.card}: minefield {self.attack.text()} rolled {list(self.attack_faces)} = "
            f"{counted(a)}; {self.card} {self.defense.text()} rolled "
            f"{list(self.defense_faces)} = {counted(d)}"
        )
        if not self.base_damage:
            return out + ": no damage (the minefield must have more, R5)"
        out += f": {a} − {d} = {self.base_damage} damage"
        if self.modifier:
            out += f" {self.modifier:+d} ({self.modifier_label}, AE-29) = {self.damage}"
            if self.base_damage + self.modifier != self.damage:
                out += ", never below 0"
        out += f"; {self.total} of {self.limit}"
        if self.destroyed:
            out += " — destroyed and discarded (AE-24)"
        return out


class MinefieldAttack(msgspec.Struct, frozen=True, kw_only=True):
    """What an army that walked into an enemy minefield met (p.32; AE-52, AE-53)."""

    minefield: str
    card: str
    at: str
    army: str
    #: the attack dice printed on the minefield's card (Minefield X, AE-50)
    dice: int
    #: the largest Engineer X of the mover's units in the hex, and its card (p.46)
    engineer: int
    engineer_card: str
    #: the army's Engineer X units: never attacked (p.46)
    immune: tuple[str, ...]
    challenges: tuple[MineChallenge, ...]
    #: the army's cards not attacked: the minefield was removed before their turn (p.32)
    spared: tuple[str, ...]
    removed: bool
    #: every card of the army was destroyed: the army is disbanded (AE-24)
    disbanded: bool
    #: True: the minefield is independent, controlled by no empire (AE-67); left out (UNSET)
    #: for an empire's, as every attack was recorded before version 23
    independent: bool | msgspec.UnsetType = msgspec.UNSET

    def lines(self) -> list[str]:
        whose = "independent minefield" if self.independent is True else "minefield"
        head = (
            f"{self.army} walks into {whose} {self.minefield} ({self.card}, Minefield "
            f"{self.dice}) at {self.at} and stops there at once (p.32; AE-51): a hidden "
            "Minefield Attack Challenge per card, no fate on either side (p.32; AE-52)"
        )
        if self.independent is True:
            head += "; no empire controls it (AE-67)"
        out = [head]
        if self.immune:
            out.append(f"- immune, Engineer X (p.46): {', '.join(self.immune)}")
        if self.engineer:
            out.append(
                f"- Engineer {self.engineer} of {self.engineer_card} in the hex takes "
                f"{self.engineer} dice off the minefield's attack (p.46; AE-52)"
            )
        out += [f"- {c.text()}" for c in self.challenges]
        if self.removed:
            spared = f"; spared: {', '.join(self.spared)}" if self.spared else ""
            gone = " from play (AE-67)" if self.independent is True else " (p.32)"
            out.append(f"- the minefield is spent and removed{gone}{spared}")
        if self.disbanded:
            out.append(f"- {self.army} is left empty and disbanded (AE-24)")
        return out


class MinefieldLoss(msgspec.Struct, frozen=True, kw_only=True):
    """What a minefield's empire learns when it is walked into (AE-53): its loss, not who."""

    minefield: str
    card: str
    at: str
    #: the base damage of its challenges (p.32): the structure points it loses
    lost: int
    total: int
    limit: int
    removed: bool

    def text(self) -> str:
        out = (
            f"minefield {self.minefield} ({self.card}) at {self.at} is walked into and loses "
            f"{self.lost} (the base damage of its challenges, p.32; AE-52): {self.total} of "
            f"{self.limit}"
        )
        if self.removed:
            out += " — spent and removed (p.32)"
        return out


class MinefieldsChecked(Event, frozen=True, tag="minefields_checked"):
    """The hexes a move walked checked for enemy minefields (p.32; AE-51): the attack on the
    army if it walked into one, sealed for its empire alone (AE-53)."""

    empire: str
    attack: Annotated[MinefieldAttack | None, Hidden(owner="empire")]

    def explain(self) -> str:
        if self.attack is None:
            return f"{self.empire}'s move walked into no enemy minefield (p.32; AE-51, AE-53)"
        return "\n".join(self.attack.lines())


class MinefieldsReported(Event, frozen=True, tag="minefields_reported"):
    """What ``controller``'s minefields report of a move of another empire, sealed for it alone
    (AE-53): the loss of the one walked into, if any. Since version 23 one more follows every
    checked move, of ``controller`` ``INDEPENDENT`` (no empire): what an independent minefield
    lost, sealed for every player, the referee's record (AE-67)."""

    controller: str
    loss: Annotated[MinefieldLoss | None, Hidden(owner="controller")]

    def explain(self) -> str:
        if self.controller == INDEPENDENT:
            if self.loss is None:
                return "no independent minefield was walked into (p.32; AE-67)"
            return f"independent {self.loss.text()}; no empire is told (AE-67)"
        if self.loss is None:
            return f"no minefield of {self.controller} was walked into (p.32; AE-53)"
        return self.loss.text()


def attack_summary(attack: MinefieldAttack) -> str:
    """One line for the mover's Events view."""
    hits = sum(1 for c in attack.challenges if c.damage)
    lost = [c.card for c in attack.challenges if c.destroyed]
    whose = "independent minefield" if attack.independent is True else "minefield"
    out = (
        f"{attack.army} walked into {whose} {attack.minefield} at {attack.at}: "
        f"{plural(len(attack.challenges), 'challenge')}, {plural(hits, 'hit')}"
    )
    if lost:
        out += f", destroyed {', '.join(lost)}"
    if attack.removed:
        out += "; the minefield is removed"
    return out


class MinefieldLaid(Event, frozen=True, tag="minefield_laid"):
    """An Engineer's army laid a minefield card of its empire's hand in its hex (p.46; AE-54).
    Camouflaged: everything but the empire and the AP (one price for every minefield) is
    sealed for the other empire, which learns only that a minefield was laid somewhere."""

    empire: str
    army: Annotated[str, Hidden(owner="empire")]
    engineer: Annotated[str, Hidden(owner="empire")]
    minefield: Annotated[str, Hidden(owner="empire")]
    card: Annotated[str, Hidden(owner="empire")]
    at: Annotated[str, Hidden(owner="empire")]
    ap_cost: int

    def explain(self) -> str:
        return (
            f"{self.army} lays minefield {self.minefield} ({self.card}) at {self.at}, its "
            f"Engineer {self.engineer} at work (p.46): {self.ap_cost} AP (AE-54)"
        )


class LiftedBy(msgspec.Struct, frozen=True, kw_only=True):
    """The lifter's side of a lift (AE-55): its army, its Engineer and the minefield."""

    army: str
    engineer: str
    minefield: str
    card: str
    at: str


class LiftedFrom(msgspec.Struct, frozen=True, kw_only=True):
    """The minefield's empire's side of a lift (AE-55): which of its minefields is gone."""

    minefield: str
    card: str
    at: str


class MinefieldLifted(Event, frozen=True, tag="minefield_lifted"):
    """An Engineer's army lifted ``controller``'s minefield it knew in its hex (p.46; AE-55);
    the card goes to its owner's discard pile. ``lifted_by`` is sealed for the lifter alone,
    ``lifted_from`` for the minefield's empire alone: it learns its minefield is gone, not
    which army lifted it. An independent minefield (``controller`` ``INDEPENDENT``, AE-67) has
    no empire to tell: ``lifted_from`` is sealed for every player, and its card leaves play."""

    empire: str
    controller: str
    lifted_by: Annotated[LiftedBy, Hidden(owner="empire")]
    lifted_from: Annotated[LiftedFrom, Hidden(owner="controller")]
    ap_cost: int

    def explain(self) -> str:
        by = self.lifted_by
        if self.controller == INDEPENDENT:
            return (
                f"{by.army} lifts the independent minefield {by.minefield} ({by.card}) at "
                f"{by.at}, its Engineer {by.engineer} at work (p.46): {self.ap_cost} AP; the "
                "card is removed from play, no empire to own it (AE-55, AE-67)"
            )
        return (
            f"{by.army} lifts {self.controller}'s minefield {by.minefield} ({by.card}) at "
            f"{by.at}, its Engineer {by.engineer} at work (p.46): {self.ap_cost} AP; the card "
            f"goes to {self.controller}'s discard pile (AE-55)"
        )


def lifted_notice(e: MinefieldLifted) -> str:
    """One line for the minefield's empire's Events view (AE-55)."""
    lost = e.lifted_from
    return (
        f"minefield {lost.minefield} ({lost.card}) at {lost.at} has been lifted by an Engineer "
        "of the enemy (p.46; AE-55)"
    )


MINEFIELD_EVENT_TYPES: tuple[type[Event], ...] = (
    MinefieldsChecked,
    MinefieldsReported,
    MinefieldLaid,
    MinefieldLifted,
)

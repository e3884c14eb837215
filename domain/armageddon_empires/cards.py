"""Cards: heroes, units, facilities and attack cards with their printed attributes (p.16–19).

A scenario lists card *types* (``[[cards]]``, tagged by ``kind``); every physical card in play is
an instance with its own id, ``"<empire>.<card type>.<n>"`` (e.g. ``red.ash-lancers.2``, AE-14).
"""

from typing import Annotated, Literal

import msgspec

from warlog.domain.armageddon_empires.abilities import Ability, parse_abilities
from warlog.domain.armageddon_empires.resources import Resources

Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}\Z")]
#: the largest value a printed number may have (a resistance among them)
STAT_MAX = 99
Stat = Annotated[int, msgspec.Meta(ge=0, le=STAT_MAX)]
PositiveStat = Annotated[int, msgspec.Meta(ge=1, le=STAT_MAX)]
CardKind = Literal["hero", "unit", "facility", "attack", "munition", "tactic"]
Craft = Literal["aircraft", "helo", "missile"]
#: the effects a tactic card may have (manual p.51; digest 9.5), by warlog's names
TacticEffect = Literal[
    "fate_plus",
    "enemy_fate_minus",
    "dice_plus",
    "reroll_enemy_successes",
    "success_dice_plus",
    "enemy_success_dice_minus",
    "failures_to_successes",
    "successes_to_failures",
    "reroll_own_pool",
    "reroll_enemy_pool",
]
#: how each effect is printed on a card (X is the card's ``amount``), manual p.51
TACTIC_PRINTED: dict[str, str] = {
    "fate_plus": "+{x} Fate Points",
    "enemy_fate_minus": "-{x} Opponent Fate Points",
    "dice_plus": "+{x} Dice",
    "reroll_enemy_successes": "Re-roll {x} Opponent Success Die",
    "success_dice_plus": "+{x} Success Dice",
    "enemy_success_dice_minus": "-{x} Enemy Success Dice",
    "failures_to_successes": "Turn {x} Failure Dice Into Successes",
    "successes_to_failures": "Turn {x} Success Dice Into Failures",
    "reroll_own_pool": "Re-roll Your Dice Pool",
    "reroll_enemy_pool": "Re-roll Your Opponent's Die Pool",
}
#: the effects that take no X
WHOLE_POOL_EFFECTS = frozenset({"reroll_own_pool", "reroll_enemy_pool"})


class _Card(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    id: Id
    name: str
    cost: Resources = Resources()
    #: the abilities as printed on the card, e.g. ["Recce S5, R1", "Bounty Hunter 2"]
    abilities: list[str] = []


class HeroCard(_Card, frozen=True, kw_only=True, tag="hero"):
    """A hero leads an army: command rating, fate, wounds, movement (p.16)."""

    fate: Stat
    wounds: PositiveStat
    movement: PositiveStat
    command: PositiveStat = 2
    resistance: Stat = 0


class UnitCard(_Card, frozen=True, kw_only=True, tag="unit"):
    """A unit fights in armies: attack, defence, hit points, movement, range 1–3 (p.17)."""

    attack: Stat
    defense: Stat
    hit_points: PositiveStat
    movement: PositiveStat
    range: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    resistance: Stat = 0


class FacilityCard(_Card, frozen=True, kw_only=True, tag="facility"):
    """A facility stands at a base: defence, structure points, level (= facility slots, p.18)."""

    defense: Stat
    structure: PositiveStat
    level: PositiveStat = 1
    resistance: Stat = 0


class AttackCard(_Card, frozen=True, kw_only=True, tag="attack"):
    """An aircraft, helo or missile played from the hand against a hex (p.19)."""

    craft: Craft
    attack: Stat
    defense: Stat
    fate: Stat
    hit_points: PositiveStat
    range: PositiveStat
    ap: Stat = 0


class MunitionCard(_Card, frozen=True, kw_only=True, tag="munition"):
    """A munition, loaded from the hand onto an attack card as it is played (p.22, p.31; AE-44):
    ``damage`` is added to a hit of its Air-To-Ground challenge; its abilities (a Hydrogen Bomb,
    Collateral) fly with the card; ``fits``: the kinds of attack card that may carry it."""

    damage: Stat = 0
    fits: tuple[Craft, ...] = ("aircraft", "helo", "missile")


class TacticCard(_Card, frozen=True, kw_only=True, tag="tactic"):
    """A tactic card, played from the hand during a challenge (p.20, p.51): one ``effect`` of
    p.51 with its X (``amount``; the two whole-pool re-rolls take none)."""

    effect: TacticEffect
    amount: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0

    def printed(self) -> str:
        return TACTIC_PRINTED[self.effect].format(x=self.amount)


CardType = HeroCard | UnitCard | FacilityCard | AttackCard | MunitionCard | TacticCard


class CardEntry(msgspec.Struct, frozen=True):
    """A card type in play: its printed attributes and its abilities parsed into typed values."""

    spec: CardType
    abilities: tuple[Ability, ...]

    @property
    def kind(self) -> CardKind:
        return kind_of(self.spec)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def movement(self) -> int:
        """Movement points of a hero or unit (0 for cards that never move in an army)."""
        return self.spec.movement if isinstance(self.spec, HeroCard | UnitCard) else 0


class CardInstance(msgspec.Struct, frozen=True):
    """One physical card: its type and the empire whose deck it belongs to."""

    card: str
    owner: str


def kind_of(spec: CardType) -> CardKind:
    kind: CardKind = spec.__struct_config__.tag  # type: ignore[assignment]
    return kind


def entry(spec: CardType) -> CardEntry:
    """The card type with its abilities parsed; InputError names the card and the bad ability."""
    return CardEntry(spec, parse_abilities(spec.abilities, card=spec.id, kind=kind_of(spec)))


def damage_limit(spec: CardType) -> int:
    """The damage at which a card is destroyed: a hero's wounds, a facility's structure, a unit's
    or attack card's hit points (p.17–19; AE-24); a munition or tactic card takes none (1)."""
    if isinstance(spec, HeroCard):
        return spec.wounds
    if isinstance(spec, FacilityCard):
        return spec.structure
    if isinstance(spec, UnitCard | AttackCard):
        return spec.hit_points
    return 1


def with_article(name: str) -> str:
    """A card kind's or an ability's name after its indefinite article, for messages: "an
    attack", "a unit", "an Academy", "a Laboratory" (a unit: its u sounds as a consonant)."""
    return f"{'an' if name[0].lower() in 'aeio' else 'a'} {name}"


def instance_id(empire: str, card: str, n: int) -> str:
    return f"{empire}.{card}.{n}"


#: AE-67: the controller of an independent minefield and the owner of its card: no empire
INDEPENDENT = ""


def independent_card_id(minefield: str, card: str) -> str:
    """The id of an independent minefield's card (AE-67): ``<minefield>.<card type>``, no
    empire to number it under; a number in set-up order would tell the army that walks into it
    how many of its type the scenario placed before it (as AE-62 says of an empire's cards),
    and the minefield's own id, which that army learns, is unique. Two parts: never an
    empire's card id (three)."""
    return f"{minefield}.{card}"

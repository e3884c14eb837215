"""The commands an empire issues, one JSON object each, tagged by ``type`` (imperative names)."""

from typing import Annotated, Literal, Union

import msgspec

from warlog.domain.armageddon_empires.frames import EngageChoice, NextRoundChoice
from warlog.domain.core.ruleset import Command
from warlog.domain.core.seal import Hidden

ArmyName = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}\Z")]


class BuyInitiative(Command, frozen=True, tag="buy_initiative"):
    """Buy ``count`` initiative dice for this round (0 allowed); both pools roll once every
    empire has bought (manual p.22; R1; AE-3)."""

    count: Annotated[int, msgspec.Meta(ge=0), Hidden(owner="player")]


class EndTurn(Command, frozen=True, tag="end_turn"):
    """End this empire's turn; unspent AP is lost (R10)."""


class CreateArmy(Command, frozen=True, tag="create_army"):
    """Create the empty army ``army`` (named ``<empire>-...``, AE-17) in hex ``at``, which holds
    one of the empire's strongholds or outposts (3 AP, manual p.10). Sealed for the other
    empire, as every order naming an army it may not have seen (AE-17)."""

    army: Annotated[ArmyName, Hidden(owner="player")]
    at: Annotated[str, Hidden(owner="player")]


class DisbandArmy(Command, frozen=True, tag="disband_army"):
    """Disband the empty army ``army`` at one of the empire's strongholds or outposts (p.23)."""

    army: Annotated[str, Hidden(owner="player")]


class TransferCards(Command, frozen=True, tag="transfer_cards"):
    """Move ``cards`` (heroes, units) from ``from_army`` to ``to_army`` in the same hex."""

    from_army: Annotated[str, Hidden(owner="player")]
    to_army: Annotated[str, Hidden(owner="player")]
    cards: Annotated[
        tuple[str, ...], msgspec.Meta(min_length=1, max_length=9), Hidden(owner="player")
    ]


class MoveArmy(Command, frozen=True, tag="move_army"):
    """Move ``army`` to hex ``to`` along the cheapest path its movement points allow (p.23);
    it stops short where it walks into an enemy army it had not seen (AE-17)."""

    army: Annotated[str, Hidden(owner="player")]
    to: Annotated[str, Hidden(owner="player")]


class DrawCard(Command, frozen=True, tag="draw_card"):
    """Draw a card at random from the deck into the hand (AE-6)."""


class DeployCard(Command, frozen=True, tag="deploy_card"):
    """Deploy ``card`` from the hand at ``base``: a hero or unit into its garrison, a facility
    into a free facility slot (p.18, p.22, p.48)."""

    card: str
    base: str


class EngageStealth(Command, frozen=True, tag="engage_stealth"):
    """Stealth ``army``: every card in it must have Stealth X (p.23, p.27; 1 AP, AE-23)."""

    army: Annotated[str, Hidden(owner="player")]


class DropStealth(Command, frozen=True, tag="drop_stealth"):
    """Drop the stealth of ``army`` (p.27; 1 AP, AE-23)."""

    army: Annotated[str, Hidden(owner="player")]


#: AE-21, AE-38: the version since which every hunt looks alike to the hunted empire until its
#: outcome: ``target`` is recorded, sealed, even when left out (``Hidden.present_since``), and
#: the target is picked by a hidden roll of the same dice in every hunt (``capture.hunt_hero``)
HUNTS_ALIKE_SINCE = 24


class HuntHero(Command, frozen=True, tag="hunt_hero"):
    """Hunt Enemy Hero (p.30): ``army``, combat-capable, hunts a spotted hero-only enemy army
    in its hex. ``target`` names the hero only with a Bounty Hunter of the hunter in the hex;
    otherwise, among several, one is picked at random. Since version 12 both are sealed for the
    hunter (AE-38): a hunt that is foiled tells the other empire nothing of the army or the hero
    (``Hidden.since``). Since version 24 ``target`` is recorded, sealed, when it is left out
    too, so that the key's presence does not tell that the hunter holds a Bounty Hunter
    (``HUNTS_ALIKE_SINCE``)."""

    army: Annotated[str, Hidden(owner="player", since=12)]
    target: Annotated[
        str | None, Hidden(owner="player", since=12, present_since=HUNTS_ALIKE_SINCE)
    ] = None


#: AE-71: the version since which a card with Assassin X assassinates (p.28, p.45): ``assassinate``
#: is refused in the games begun before it, and its fields are sealed for the assassin's empire
ASSASSINATION_SINCE = 27


class Assassinate(Command, frozen=True, tag="assassinate"):
    """Assassinate (p.28, p.45; AE-71): the card ``card`` with Assassin X, in an army of this
    empire, makes an assassination attempt on a hero of an enemy army its empire has spotted in
    its hex. ``target`` names the hero only for a Master Assassin; otherwise, among several, one
    is picked at random. Both are sealed for the assassin's empire, ``target`` recorded sealed
    even when left out, so that the attempt tells the other empire nothing of which card tried,
    nor whether it named its target, until the attempt shows it (``Hidden``)."""

    card: Annotated[str, Hidden(owner="player", since=ASSASSINATION_SINCE)]
    target: Annotated[
        str | None,
        Hidden(owner="player", since=ASSASSINATION_SINCE, present_since=ASSASSINATION_SINCE),
    ] = None


class RepairCard(Command, frozen=True, tag="repair_card"):
    """Repair or heal ``card`` to full strength (p.34; AE-22)."""

    card: Annotated[str, Hidden(owner="player")]


class TakePrerogative(Command, frozen=True, tag="take_prerogative"):
    """The defender takes the Defender's Prerogative: the dice stand and the challenge ends
    (p.28; R5). Only while they deal it no damage and it has not acted."""


class SpendFate(Command, frozen=True, tag="spend_fate"):
    """Spend ``count`` fate to re-roll as many of this side's failed dice (p.16; R5, R6).
    Failed dice are alike (only successes count, digest 1.1), so the first ``count`` are
    re-rolled (AE-16)."""

    count: Annotated[int, msgspec.Meta(ge=1, le=99)]


class PlayTactic(Command, frozen=True, tag="play_tactic"):
    """Play the tactic card ``card`` from the hand in the open challenge (p.20, p.51)."""

    card: str


class AcceptChallenge(Command, frozen=True, tag="accept_challenge"):
    """Accept the dice as they stand (R5): the challenge ends when both sides accept in a row."""


class Roll(Command, frozen=True, tag="roll"):
    """Roll the dice the game waits for: a challenge (or hidden roll) whose dice could not be
    counted before the command that led to it rolled its own (AE-37)."""


class Engage(Command, frozen=True, tag="engage"):
    """How the army that walked into enemy armies engages them (p.33; AE-25): ``attack`` now,
    ``delay`` the attack to the end of this turn, or lay ``siege`` to the enemy base there."""

    choice: EngageChoice


class Assault(Command, frozen=True, tag="assault"):
    """Break Siege or Assault Defenses (p.26): ``army`` attacks the enemy armies it sees in its
    own hex, for 3 AP (AE-35)."""

    army: str


class SetUpBattle(Command, frozen=True, tag="set_up_battle"):
    """Set up this empire's side of the battle (p.33): its stealthed armies in the hex named in
    ``join`` destealth and join it (AE-26)."""

    join: Annotated[tuple[str, ...], msgspec.Meta(max_length=8)] = ()


class CommitArmy(Command, frozen=True, tag="commit_army"):
    """Send ``army`` into the fight, its units in ``back`` in the back row and the rest in the
    front row (p.33; R13; AE-27)."""

    army: str
    back: Annotated[tuple[str, ...], msgspec.Meta(max_length=8)] = ()


class Attack(Command, frozen=True, tag="attack"):
    """``unit`` attacks ``target`` in a Ground Combat Challenge (p.34; R13): an enemy unit in
    reach, or with Sniper Attack the enemy army's hero (1 AP). ``strength``: with
    Multi-targeting, the attack points it spends on this target (AE-30)."""

    unit: str
    target: str
    strength: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None


class NextRound(Command, frozen=True, tag="next_round"):
    """After a round (or, with a Trickster, before the first): ``continue``, retreat the army in
    the fight (``retreat_army``) or every army of this empire in the battle (``retreat_all``)
    (p.34)."""

    choice: NextRoundChoice


class PlayAttackCard(Command, frozen=True, tag="play_attack_card"):
    """Play the attack card ``card`` from the hand on hex ``at`` (p.19, p.30–31), paying its AP
    and resources. ``aim``: an aircraft or helo strikes a random ``unit`` of an enemy army it
    sees there or a random ``facility`` of the enemy base there; a missile always a facility.
    ``target``: with Precision Targeting, the card struck (AE-39, AE-42). ``munition``: a
    munition card of the hand loaded onto it, spent whether or not it hits (p.22, p.31; AE-44)."""

    card: str
    at: str
    aim: Literal["unit", "facility"] | None = None
    target: str | None = None
    munition: str | None = None


class Intercept(Command, frozen=True, tag="intercept"):
    """Answer the intercept window of an air strike (p.30; AE-40): intercept it with the Air To
    Air ``card`` from the hand, or let it pass (no ``card``)."""

    card: str | None = None


class GroundToAir(Command, frozen=True, tag="ground_to_air"):
    """Answer a gunner's Ground-To-Air chance (p.30–31; AE-41, since version 12): the gunner the
    strike names next (its Anti-Air or Anti-Missile card in the hex) ``fire``s at the attack
    card, or holds its fire."""

    fire: bool


class GroundToAirChallenge(Command, frozen=True, tag="ground_to_air_challenge"):
    """Launch a Ground-To-Air challenge (p.30–31; AE-41, since version 13): the asked empire's
    ``gunner`` (an Anti-Air or Anti-Missile card of its in the hex that has not fired at this
    strike) challenges the attack card now, in the open; ``None``: it launches no more against
    this strike. An empire is asked until it answers ``None``, whatever the hex holds."""

    gunner: str | None = None


class LayMinefield(Command, frozen=True, tag="lay_minefield"):
    """``army``, holding an Engineer X unit, lays the minefield ``card`` of the hand in its hex
    (p.46; AE-54). Sealed for the other empire: the minefield is camouflaged."""

    army: Annotated[str, Hidden(owner="player")]
    card: Annotated[str, Hidden(owner="player")]


class LiftMinefield(Command, frozen=True, tag="lift_minefield"):
    """``army``, holding an Engineer X unit, lifts the enemy minefield its empire knows in its
    hex (p.46; AE-55). Sealed for the other empire: it learns its minefield is gone, not who."""

    army: Annotated[str, Hidden(owner="player")]


#: AE-72: the version since which sabotage is played (p.29, p.45, p.48; ``sabotage.py``)
SABOTAGE_SINCE = 27


class Sabotage(Command, frozen=True, tag="sabotage"):
    """Sabotage (p.29, p.45; AE-72, since version 27): the card ``saboteur``, with Saboteur X, in
    an army in the hex of an enemy stronghold or outpost, sabotages one of its facilities:
    ``target``, named only by a Master Saboteur; otherwise picked at random by the referee's
    hidden roll (AE-72; ``targets.pick_target``). Both are sealed for the saboteur's empire, ``target`` even when left out, so
    that the command tells the other empire nothing of the army it stands in or of its
    abilities before the sabotage shows them."""

    saboteur: Annotated[str, Hidden(owner="player", since=SABOTAGE_SINCE)]
    target: Annotated[
        str | None, Hidden(owner="player", since=SABOTAGE_SINCE, present_since=SABOTAGE_SINCE)
    ] = None


#: AE-73: the version since which a hero with Tactician X or Technologist X creates cards (p.28,
#: p.32, p.45; ``research.py``): ``create_card`` is refused in the games begun before it, and
#: its fields are sealed for the researcher's empire
CARD_CREATION_SINCE = 28


class CreateCard(Command, frozen=True, tag="create_card"):
    """Create a card (p.28, p.32; AE-73, since version 28): the ``hero``, with Tactician X or
    Technologist X, in an army of this empire standing where one of its bases holds an Academy
    or a Laboratory, tries to create ``card``, one of its ability's research list, in a
    threshold challenge resolved at once, his X dice alone (he spends no fate in it). Both are
    sealed for the researcher's empire, so that the command tells the other empire nothing but
    that a card was attempted."""

    hero: Annotated[str, Hidden(owner="player", since=CARD_CREATION_SINCE)]
    card: Annotated[str, Hidden(owner="player", since=CARD_CREATION_SINCE)]


COMMAND_TYPES: tuple[type[Command], ...] = (
    BuyInitiative,
    EndTurn,
    CreateArmy,
    DisbandArmy,
    TransferCards,
    MoveArmy,
    DrawCard,
    DeployCard,
    EngageStealth,
    DropStealth,
    HuntHero,
    RepairCard,
    TakePrerogative,
    SpendFate,
    PlayTactic,
    AcceptChallenge,
    Roll,
    Engage,
    Assault,
    SetUpBattle,
    CommitArmy,
    Attack,
    NextRound,
    PlayAttackCard,
    Intercept,
    GroundToAir,
    GroundToAirChallenge,
    LayMinefield,
    LiftMinefield,
    Assassinate,
    Sabotage,
    CreateCard,
)

#: the commands that answer a battle's decisions (p.33–34)
BATTLE_COMMANDS: tuple[type[Command], ...] = (SetUpBattle, CommitArmy, Attack, NextRound)

#: the commands that answer an open challenge (R5)
CHALLENGE_COMMANDS: tuple[type[Command], ...] = (
    TakePrerogative,
    SpendFate,
    PlayTactic,
    AcceptChallenge,
)

AnyCommand = Union[  # noqa: UP007 - a typing.Union value for msgspec decoding
    BuyInitiative,
    EndTurn,
    CreateArmy,
    DisbandArmy,
    TransferCards,
    MoveArmy,
    DrawCard,
    DeployCard,
    EngageStealth,
    DropStealth,
    HuntHero,
    RepairCard,
    TakePrerogative,
    SpendFate,
    PlayTactic,
    AcceptChallenge,
    Roll,
    Engage,
    Assault,
    SetUpBattle,
    CommitArmy,
    Attack,
    NextRound,
    PlayAttackCard,
    Intercept,
    GroundToAir,
    GroundToAirChallenge,
    LayMinefield,
    LiftMinefield,
    Assassinate,
    Sabotage,
    CreateCard,
]

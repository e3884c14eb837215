"""Small scenarios and shortcuts for the Armageddon Empires rule tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from tests.given_when_then import Given
from warlog.domain.armageddon_empires.commands import BuyInitiative
from warlog.domain.armageddon_empires.observation import at_our_bases, sighting
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.armageddon_empires.scenario import Scenario
from warlog.domain.armageddon_empires.scenario_checks import parse_scenario
from warlog.domain.armageddon_empires.sighting_events import ArmiesSighted
from warlog.domain.armageddon_empires.targets import TARGET_DICE
from warlog.domain.core.dice import Dice, DiceSpec, commitment_of
from warlog.domain.core.events import Event, GameCreated

if TYPE_CHECKING:
    from collections.abc import Callable

    from warlog.arbiter.application import Arbiter

E = TypeVar("E", bound=Event)

#: the faces of a hunt's hidden pick of its target, rolled in every hunt since version 24 (AE-21,
#: ``targets.TARGET_DICE`` dice of ``TARGET_SIDES`` sides): the first target where it picks
PICK = [1] * TARGET_DICE

ROWS = [
    ". . . . . . . .",  # r = 0
    ". . h . . . . .",  # r = 1
    ". . . m . . . .",  # r = 2
    ". . s . . . . .",  # r = 3
    ". . . . . . . .",  # r = 4
    ". . . . . . . .",  # r = 5
]

CARDS = """
[[cards]]
kind = "hero"
id = "captain"
name = "Test Captain"
cost = { humans = 2 }
fate = 2
wounds = 2
movement = 3

[[cards]]
kind = "hero"
id = "guide"
name = "Test Guide"
cost = { humans = 2 }
fate = 2
wounds = 2
movement = 2
abilities = ["Leader 1", "Pathfinder 1"]

[[cards]]
kind = "hero"
id = "runner"
name = "Test Runner"
fate = 1
wounds = 1
movement = 4
abilities = ["Raider 1"]

[[cards]]
kind = "unit"
id = "trooper"
name = "Test Trooper"
cost = { humans = 2, materials = 1 }
attack = 3
defense = 3
hit_points = 2
movement = 2

[[cards]]
kind = "unit"
id = "scout"
name = "Test Scout"
cost = { humans = 1 }
attack = 1
defense = 1
hit_points = 1
movement = 4
abilities = ["Rapid Reaction", "Recce S3, R1"]

[[cards]]
kind = "unit"
id = "ghost"
name = "Test Ghost"
attack = 2
defense = 2
hit_points = 2
movement = 3
abilities = ["Commando"]

[[cards]]
kind = "unit"
id = "wagon"
name = "Test Wagon"
attack = 0
defense = 1
hit_points = 1
movement = 3
abilities = ["Mobile Supply"]

[[cards]]
kind = "facility"
id = "keep"
name = "Test Keep"
defense = 5
structure = 8
level = 2
abilities = ["HQ", "Supply", "Barracks"]

[[cards]]
kind = "facility"
id = "camp"
name = "Test Camp"
defense = 2
structure = 3
abilities = ["Supply"]

[[cards]]
kind = "facility"
id = "depot"
name = "Test Depot"
cost = { materials = 2, energy = 1 }
defense = 1
structure = 2
abilities = ["AP Bonus 2"]

[[cards]]
kind = "attack"
id = "dart"
name = "Test Dart"
craft = "missile"
attack = 4
defense = 1
fate = 0
hit_points = 1
range = 5
abilities = ["Collateral 60% 4 Atk"]
"""

EMPIRES = """
[[empires]]
id = "red"
name = "Red"
resources = { humans = 9, materials = 9, energy = 5, technology = 1 }
hand = ["trooper", "scout", "depot", "dart", "captain"]
deck = ["trooper", "scout", "guide"]

[[empires]]
id = "blue"
name = "Blue"
resources = { humans = 9, materials = 9, energy = 5 }
hand = ["trooper"]
deck = ["trooper", "trooper"]
"""

BASES = """
[[bases]]
id = "red-hq"
empire = "red"
kind = "stronghold"
at = "0,0"
card = "keep"
garrison = ["trooper"]

[[bases]]
id = "red-camp"
empire = "red"
kind = "outpost"
at = "0,4"
card = "camp"

[[bases]]
id = "blue-hq"
empire = "blue"
kind = "stronghold"
at = "7,5"
card = "keep"
"""

ARMIES = """
[[armies]]
id = "red-a"
empire = "red"
at = "1,0"
hero = "captain"
units = ["trooper", "trooper"]

[[armies]]
id = "red-b"
empire = "red"
at = "0,1"
units = ["scout"]

[[armies]]
id = "blue-a"
empire = "blue"
at = "6,5"
units = ["trooper"]
"""


RESOURCES = """
[map.resources]
"0,0" = { energy = 2, materials = 1 }
"0,4" = { humans = 1 }
"7,5" = { energy = 1 }
"3,3" = { technology = 5 }
"""


def toml(
    rows: list[str] | None = None,
    *,
    bases: str = BASES,
    armies: str = ARMIES,
    empires: str = EMPIRES,
    resources: str = RESOURCES,
    extra: str = "",
    max_rounds: int = 3,
    public_setup: bool = True,
) -> str:
    """The TOML text of a small test scenario; every part may be replaced. Its set-up is
    declared public by default, so that its cards keep their numbers in set-up order (AE-62):
    ``public_setup=False`` leaves the field out, as a custom scenario's author does."""
    rows = ROWS if rows is None else rows
    width = len(rows[0].split())
    row_lines = ",\n".join(f'  "{r}"' for r in rows)
    public = "public_setup = true\n" if public_setup else ""
    head = (
        f'name = "test"\nmax_rounds = {max_rounds}\n{public}{extra}\n'
        f"[map]\nwidth = {width}\nheight = {len(rows)}\nrows = [\n{row_lines}\n]\n{resources}"
    )
    return head + CARDS + empires + bases + armies


def scenario(rows: list[str] | None = None, **parts: Any) -> Scenario:
    """A small test scenario (see ``toml``)."""
    return parse_scenario(toml(rows, **parts))


def game(rows: list[str] | None = None, **parts: Any) -> Given:
    """A game of the test scenario before the first command."""
    return Given(RULESET, scenario(rows, **parts))


def only(events: list[Event], kind: type[E]) -> E:
    """The one event of type ``kind`` among ``events``."""
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


class Scripted:
    """Dice that give ``faces`` first and then ``then`` for every further die (the hidden
    observation rolls of a round start, when a test does not care about them)."""

    def __init__(self, faces: list[int], then: int = 1) -> None:
        self._faces = list(faces)
        self._then = then

    def faces(self, offset: int, count: int, sides: int) -> list[int]:
        out = [self._faces.pop(0) if self._faces else self._then for _ in range(count)]
        return [min(f, sides) for f in out]


def start_turns(g: Given, first: str = "red", observation: int = 1) -> Given:
    """Both empires buy no initiative dice; the tie re-rolls one die each and ``first`` wins.
    Every die of the round's hidden observation checks shows ``observation`` (1: every check
    ties or fails, nobody is sighted)."""
    g.when(BuyInitiative(player="red", count=0))
    tie = [6, 1] if first == "red" else [1, 6]
    command = BuyInitiative(player="blue", count=0)
    g.events(*RULESET.decide(g.state, command, Scripted(tie, then=observation)))
    return g


def sight(g: Given, observer: str, *armies: str) -> Given:
    """``observer`` sights ``armies`` where they stand (as a won check would)."""
    seen = tuple(sighting(g.state, g.state.armies[a], "observation", "given") for a in armies)
    return g.events(ArmiesSighted(observer=observer, window="move", seen=seen, lost=()))


def standing_in(g: Given, army: str, at: str, stealthed: bool = False) -> Given:
    """``army`` standing in hex ``at`` (a scenario places no army in an enemy base's hex, so tests
    move them), as a move there would leave it: seen there by the empire whose base stands in it,
    unless it is stealthed or empty (AE-56: since version 24 a base sees the army that comes)."""
    moved = msgspec.structs.replace(g.state.armies[army], at=at, stealthed=stealthed)
    g.state = msgspec.structs.replace(g.state, armies={**g.state.armies, army: moved})
    for observer in g.state.seats:
        seen = tuple(at_our_bases(g.state, observer, [moved]))
        if seen:
            g.events(ArmiesSighted(observer=observer, window="move", seen=seen, lost=()))
    return g


def with_ap(g: Given, empire: str, ap: int) -> Given:
    """``empire`` left with ``ap`` action points (as spending would leave it)."""
    emp = msgspec.structs.replace(g.state.empires[empire], ap=ap)
    g.state = msgspec.structs.replace(g.state, empires={**g.state.empires, empire: emp})
    return g


def army_block(
    army_id: str, empire: str, at: str, hero: str | None = None, units: tuple[str, ...] = ()
) -> str:
    """An ``[[armies]]`` TOML table."""
    hero_line = f'hero = "{hero}"\n' if hero else ""
    unit_list = ", ".join(f'"{u}"' for u in units)
    return f'\n[[armies]]\nid = "{army_id}"\nempire = "{empire}"\nat = "{at}"\n{hero_line}units = [{unit_list}]\n'


def base_block(
    base_id: str,
    empire: str,
    at: str,
    card: str = "keep",
    kind: str = "stronghold",
    facilities: tuple[str, ...] = (),
    garrison: tuple[str, ...] = (),
) -> str:
    """A ``[[bases]]`` TOML table (a list left empty is left out: the scenario's default)."""
    fields = {"id": base_id, "empire": empire, "kind": kind, "at": at, "card": card}
    lines = [f'{name} = "{value}"' for name, value in fields.items()]
    for name, listed in (("facilities", facilities), ("garrison", garrison)):
        if listed:
            items = ", ".join(f'"{x}"' for x in listed)
            lines.append(f"{name} = [{items}]")
    return "\n[[bases]]\n" + "\n".join(lines) + "\n"


def created_under(
    version: str, text: str, key: bytes, game: str = "ni", dice: str = "manual"
) -> GameCreated:
    """``game_created`` of a game of the scenario ``text`` (named ``game``) with ``dice``
    (manual by default) begun under ``version`` of the rules, as a warlog of that version would
    have begun it; pass it to ``Arbiter.create`` with ``key``."""
    scenario = RULESET.parse_scenario(text.encode())
    then = RULESET.at_version(version) or RULESET  # one it does not play: as ``Arbiter.create``
    return GameCreated(
        game=game,
        ruleset=RULESET.name,
        version=version,
        scenario_name=game,
        scenario=msgspec.to_builtins(scenario)
        if then is None
        else then.recorded_scenario(scenario),
        players=RULESET.players(scenario),
        dice=DiceSpec(mode=dice, stream=game, commitment=commitment_of(key)),  # type: ignore[arg-type]
    )


def begun(
    folder: Path,
    text: str,
    key: bytes,
    version: str | None = None,
    dice: str = "manual",
    dice_filter: Callable[[Dice], Dice] | None = None,
) -> Arbiter:
    """An Arbiter (in memory, a fixed clock, seeds ``key``, ``dice_filter`` if given) holding the
    game ``ni`` (``dice``: manual by default) of the scenario ``text`` (written to
    ``folder``/ni.toml: the scenario's name is the file's, the same in every game), begun under
    ``version`` of the rules as a warlog of that version would have begun it (default: this
    one's)."""
    from warlog.arbiter.application import Arbiter
    from warlog.domain import rulesets
    from warlog.eventstore.memory_store import MemoryStore

    folder.mkdir()
    path = folder / "ni.toml"
    path.write_text(text, encoding="utf-8")
    arb = Arbiter(
        MemoryStore(),
        rulesets.get,
        clock=lambda: "2026-01-01T00:00:00.000Z",
        seeds=lambda: key,
        dice_filter=dice_filter,
    )
    if version is None:
        arb.new_game("armageddon-empires", str(path), game="ni", dice=dice)
    else:
        arb.create(created_under(version, text, key, dice=dice), key)
    return arb


def revealed_clean(db: Path, game: str, export: Path) -> list[dict[str, Any]]:
    """``game`` of ``db`` revealed, audited clean and exported to ``export`` through the CLI,
    the export audited clean too, every value opened and every command re-derived under this
    warlog's version: its rows."""
    from tests.cli.command import succeeded
    from warlog.arbiter.audit import audit_records
    from warlog.arbiter.sources import file_records
    from warlog.domain import rulesets

    succeeded(db, "reveal", game, "--yes")
    assert "no findings" in succeeded(db, "audit", game)
    succeeded(db, "export", game, "-o", str(export))
    auditor = audit_records(file_records(str(export)), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == f"armageddon-empires version {RULESET.version}"
    return [msgspec.json.decode(line) for line in export.read_bytes().splitlines()]


def verified_and_imported(db: Path, game: str, export: Path) -> None:
    """``docs/verify.py`` passes ``export`` (``game``'s, revealed) with no seal left closed, and
    it imports into another database beside ``db`` as the same game, auditing clean."""
    from tests.cli.command import succeeded
    from tests.test_verifier import run as verify_run

    verified = verify_run(export)
    assert verified.returncode == 0, verified.stdout
    assert verified.stdout.startswith("chain intact;")
    assert ", 0 seals still closed" in verified.stdout
    other = db.with_name(f"imported-{db.name}")
    assert succeeded(other, "import", str(export), "--game", "copy").strip() == "copy"
    assert succeeded(other, "head", "copy") == succeeded(db, "head", game)
    assert "no findings" in succeeded(other, "audit", "copy")

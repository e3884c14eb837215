"""Creating a game: its ``game_created`` and the events that open it, its key in the vault first.

Its salt, if given, is checked here (``check_salt``): it is hashed into every die.

A fork is created the same way (``creating``): if the store refuses the new game, the vault takes
back the key and openings put for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from warlog.arbiter.ids import check_game_id
from warlog.arbiter.initial import share
from warlog.arbiter.meta import evolve_meta
from warlog.arbiter.scenarios import resolve_scenario
from warlog.arbiter.sealing import event_secrets, seal_batch, sealing_version
from warlog.arbiter.states import States
from warlog.domain.core.dice import DiceSpec, SeededDice, commitment_of
from warlog.domain.core.errors import ConflictError, InputError, StoreError, quoted
from warlog.domain.core.events import Event, GameCreated
from warlog.domain.core.ruleset import AnyRuleset
from warlog.domain.core.seal import Sealer, Secret
from warlog.eventstore.records import GameInfo
from warlog.eventstore.vault import Vault

#: what the vault did not hold before a game's creation put it there: the key's commitment (None
#: if it held it) and the hashes of the openings
Unheld = tuple[str | None, list[str]]


#: the longest salt a game takes: a public beacon's value or a tournament's name fits many times
SALT_MAX = 256


def check_salt(salt: str) -> str:
    """``salt`` if a game may take it (at most ``SALT_MAX`` printable characters: it is hashed
    into every die and kept in ``game_created`` for good); InputError naming the first
    character that is not printable (a space other than the plain one, pasted from a web page,
    looks like one), or UnicodeEncodeError for text that is not UTF-8 (a lone surrogate), which
    the CLI names."""
    salt.encode()
    if len(salt) > SALT_MAX:
        raise InputError(
            f"bad salt {quoted(salt)} ({len(salt)} characters): use at most {SALT_MAX}",
            "input/bad_salt",
        )
    bad = next((i for i, c in enumerate(salt) if not c.isprintable()), None)
    if bad is not None:
        raise InputError(
            f"bad salt: its character {bad + 1}, U+{ord(salt[bad]):04X}, is not printable (a "
            "line break, a tab, a space other than the plain one); use printable characters",
            "input/bad_salt",
        )
    return salt


def game_created(
    ruleset: AnyRuleset,
    scenario: str | None,
    *,
    game: str | None,
    dice: str,
    salt: str,
    key: Callable[[], bytes],
) -> tuple[GameCreated, bytes]:
    """The ``game_created`` of a new game of ``ruleset`` and the key it commits to (``key()``,
    drawn once everything else is checked). InputError for a bad scenario, id, salt or dice
    mode."""
    check_salt(salt)
    if dice not in ("auto", "manual"):
        raise InputError(f"dice must be 'auto' or 'manual', not {dice!r}", "input/bad_dice_mode")
    name, text = resolve_scenario(ruleset, scenario)
    parsed = ruleset.parse_scenario(text)
    game = check_game_id(game) if game is not None else new_id(ruleset)
    drawn = key()
    spec = DiceSpec(mode=dice, stream=game, salt=salt, commitment=commitment_of(drawn))  # type: ignore[arg-type]
    created = GameCreated(
        game=game,
        ruleset=ruleset.name,
        version=ruleset.version,
        scenario_name=name,
        scenario=ruleset.recorded_scenario(parsed),
        players=list(ruleset.players(parsed)),
        dice=spec,
    )
    return created, drawn


def create_game(
    states: States,
    rulesets: Callable[[str], AnyRuleset],
    created: GameCreated,
    key: bytes,
    clock: Callable[[], str],
) -> str:
    """Create the game ``created`` describes, its key committed to in it: the batch of
    ``game_created`` and the events that open the game (a deal, rolled on the key in both
    dice modes). Returns its id; InputError if the id is taken."""
    named = rulesets(created.ruleset)
    ruleset = named.at_version(created.version) or named  # the version it records
    game = created.game
    parsed = ruleset.scenario_from_builtins(created.scenario)
    meta = evolve_meta(None, 1, created)
    assert meta is not None
    start = ruleset.initial_state(parsed)
    opening = ruleset.begin(start, SeededDice(key, game, created.dice.salt, 2))
    events: list[Event] = [created, *opening]
    version = sealing_version(ruleset)
    secrets: list[list[Secret]] = [
        event_secrets(created, setup=ruleset.hidden_setup(parsed), version=version)
    ]
    secrets += [event_secrets(e, version=version) for e in opening]
    rows, openings = seal_batch(
        states.codec(ruleset),
        game,
        events,
        secrets,
        Sealer(key, game),
        lambda s: meta,
        1,
        "0" * 64,
        clock(),
    )
    commitment = commitment_of(key)
    vault = states.vault
    not_held = unheld(vault, commitment, [o.hash for o in openings])
    vault.put_key(commitment, key, game)  # first: never a game without its key
    vault.put_openings(openings)
    with creating(vault, game, not_held):
        states.store.create_game(GameInfo(game=game, ruleset=ruleset.name), rows)
    share(ruleset, rows[0].data, parsed, start)
    states.created(game)  # the snapshot at seq 1, from which every later process starts
    return game


def unheld(vault: Vault, commitment: str, hashes: list[str]) -> Unheld:
    """Of the key ``commitment`` and the openings ``hashes`` about to be put in the vault,
    those it does not hold yet: what ``creating`` may take back if the store refuses them."""
    held = vault.clears(hashes) if hashes else {}
    fresh = vault.key(commitment) is None
    return (commitment if fresh else None), [h for h in hashes if h not in held]


@contextlib.contextmanager
def creating(vault: Vault, game: str, unheld: Unheld) -> Iterator[None]:
    """The store's creation of ``game``: if the store refuses it, the vault takes back what
    was put for it (``unheld``; best effort: the store's refusal is the error to tell, and
    an unused key file row is harmless), and a game that exists already is InputError."""
    try:
        yield
    except (StoreError, ConflictError) as exc:
        with contextlib.suppress(StoreError):
            vault.discard(*unheld)
        if isinstance(exc, ConflictError):
            raise InputError(
                f"game {game} already exists; choose another id (--game, or the body's "
                '"game" over HTTP)',
                "input/game_exists",
            ) from None
        raise


def new_id(ruleset: AnyRuleset) -> str:
    """A new game id: the ruleset's initials and eight random hex digits (``ae-1f2e3d4c``)."""
    short = "".join(word[0] for word in ruleset.name.split("-"))
    import secrets

    return f"{short}-{secrets.token_hex(4)}"

"""Hidden information, tried as an attacker holding one player's outputs would.

For each ruleset, two games that differ only in the other side's secrets (its hidden set-up, its
hidden draws, its secret choice) are played through the application with the same seed, clock
and public commands. Everything the watching player can be given is collected: its feed of the
log, command results, the state view after every event, its legal commands, replay, explain of
every event, its Events-view tab, receipts, and the refusals of its illegal commands.

- **Non-interference**: with every 64-hex commitment (seal hash, chain hash) blinded, the
  watching player's outputs are byte-identical in the two games: they depend on the other side's
  secrets only through commitments.
- **The commitments leak nothing**: for every value sealed from the watcher, trying every
  candidate value against the chain hash and against the seal (with every salt the watcher
  holds) matches none, and no secret value appears in any output.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from warlog.arbiter.application import Arbiter
from warlog.domain import rulesets
from warlog.domain.core.errors import InputError
from warlog.domain.core.seal import compact, seals_in
from warlog.eventstore.chain import link
from warlog.eventstore.memory_store import MemoryStore
from warlog.fuzz.noninterference import blinded, observed, refusals

SEED = bytes(range(100, 132))


def clock() -> Callable[[], str]:
    ticks = itertools.count()
    return lambda: f"2026-11-23T10:00:{next(ticks) % 60:02d}.000Z"


def play(arb: Arbiter, game: str, command: dict[str, Any], faces: Callable[[int, int], int]) -> Any:
    """Play ``command``; in a manual-dice game supply the faces it needs (``faces(i, sides)``)."""
    text = json.dumps(command)
    for _ in range(8):
        try:
            return arb.play_as(game, text)
        except InputError as exc:
            if exc.code != "input/dice_count":
                raise
            sides = [
                int(s) for n, s in re.findall(r"(\d+) d(\d+)", exc.message) for _ in range(int(n))
            ]
            text = json.dumps({**command, "dice": [faces(i, s) for i, s in enumerate(sides)]})
    raise AssertionError(f"no faces satisfied {command}")


def outputs(arb: Arbiter, game: str, watcher: str, refused: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything ``watcher`` can be given about ``game``, and its refusals of ``refused``."""
    return observed(arb, game, watcher) | {"refusals": refusals(arb, game, watcher, refused)}


def assert_commitments_leak_nothing(
    arb: Arbiter, game: str, watcher: str, candidates: list[Any], secrets: list[str]
) -> int:
    """No candidate opens a seal closed to ``watcher`` (by the chain hash or the seal with any
    salt ``watcher`` holds), and no secret text appears in its outputs; returns the seals tried."""
    records = list(arb.records_as(game, watcher))
    salts = {
        seal["salt"] for r in records for _, seal in seals_in(json.loads(r.data)) if "salt" in seal
    }
    tried = 0
    for r in records:
        data = json.loads(r.data)
        for path, seal in seals_in(data):
            if "value" in seal:
                continue
            tried += 1
            for candidate in candidates:
                forged = json.loads(r.data)
                where: Any = forged
                steps = [int(p) if p.isdigit() else p for p in path.split(".")]
                for step in steps[:-1]:
                    where = where[step]
                where[steps[-1]] = candidate
                assert link(r.prev, r.seq, r.type, r.at, compact(forged)) != r.hash
                for salt in (*salts, ""):
                    guess = hashlib.sha256(f"{salt}\n{compact(candidate)}".encode()).hexdigest()
                    assert guess != seal["sealed"]
    seen = outputs(arb, game, watcher, [])
    for key in ("feed", "replay", "explain"):  # game_created's scenario is public by design
        seen[key] = seen[key][1:]
    text = json.dumps(seen)
    for secret in secrets:
        assert secret not in text, f"{secret} reaches {watcher}"
    return tried


# ---------------------------------------------------------------------- Armageddon Empires


AE = rulesets.get("armageddon-empires")
BUNDLED_AE = rulesets.bundled_scenario(AE, "cinder-and-glass")


def ae_scenario(tmp_path: Path, variant: int) -> str:
    """The bundled scenario; variant 1 gives blue another deck of the same size."""
    assert BUNDLED_AE is not None
    text = BUNDLED_AE.decode()
    if variant:
        text = text.replace(
            '"glass-choristers", "mirror-skirmishers", "wasp-strike-wing", "foundry",',
            '"sutler-train", "mirror-skirmishers", "wasp-strike-wing", "flak-crawlers",',
            1,
        )
        assert text != BUNDLED_AE.decode()
    folder = tmp_path / f"variant-{variant}"
    folder.mkdir(exist_ok=True)
    path = folder / "cinder.toml"  # the same name: it is recorded in game_created
    path.write_text(text)
    return str(path)


def ae_game(tmp_path: Path, variant: int) -> tuple[Arbiter, str]:
    arb = Arbiter(MemoryStore(), rulesets.get, clock=clock(), seeds=lambda: SEED)
    game = arb.new_game(
        "armageddon-empires", ae_scenario(tmp_path, variant), game="ni", dice="manual"
    )
    public = lambda i, sides: (i * 7) % sides + 1  # noqa: E731 - the public dice, alike in both
    blue_draws = lambda i, sides: (3 + 4 * variant + i) % sides + 1  # noqa: E731
    for _round in range(2):
        play(arb, game, {"type": "buy_initiative", "player": "red", "count": 1}, public)
        play(arb, game, {"type": "buy_initiative", "player": "blue", "count": 1}, public)
        order = arb.view(game)["state"]["order"]
        for empire in order:
            faces = blue_draws if empire == "blue" else public
            play(arb, game, {"type": "draw_card", "player": empire}, faces)
            play(arb, game, {"type": "end_turn", "player": empire}, public)
    return arb, game


def test_red_sees_nothing_of_blues_set_up_and_draws(tmp_path: Path) -> None:
    """Given two games that differ only in blue's deck (sealed at creation), its dealt hand and
    its draws, then everything red can be given is the same, commitments aside."""
    (a, ga), (b, gb) = ae_game(tmp_path, 0), ae_game(tmp_path, 1)
    hands = [x.view(g)["state"]["empires"]["blue"]["hand"] for x, g in ((a, ga), (b, gb))]
    assert hands[0] != hands[1]  # blue's secrets differ
    refused = [
        {"type": "deploy_card", "player": "red", "card": hands[0][0], "base": "red-keep"},
        {"type": "end_turn", "player": "red"},
    ]
    seen = [blinded(outputs(x, g, "red", refused)) for x, g in ((a, ga), (b, gb))]
    assert seen[0] == seen[1]
    assert blinded(outputs(a, ga, "blue", [])) != blinded(outputs(b, gb, "blue", []))  # blue sees


def test_no_candidate_opens_a_seal_closed_to_red(tmp_path: Path) -> None:
    arb, game = ae_game(tmp_path, 0)
    state = arb.view(game)["state"]
    cards = sorted(state["instances"])
    candidates: list[Any] = [*cards, *range(0, 11), *([f] for f in range(1, 15)), []]
    blue_hand = state["empires"]["blue"]["hand"]
    tried = assert_commitments_leak_nothing(arb, game, "red", candidates, blue_hand)
    assert tried >= 8  # blue's deck, hand, deal dice and cards, draws and bids


# ---------------------------------------------------------------------- Battle for Armageddon


def bfa_game(variant: int) -> tuple[Arbiter, str]:
    arb = Arbiter(MemoryStore(), rulesets.get, clock=clock(), seeds=lambda: SEED)
    game = arb.new_game("battle-for-armageddon", game="ni", dice="manual")

    def faces(i: int, sides: int) -> int:  # the Imperial deck (10 cards) draws on d10 and d9
        return (variant * 3 + i) % sides + 1 if sides in (10, 9) else 1

    second = ["combat-build", "build-combat"][variant]
    play(arb, game, {"type": "end_setup", "player": "orks"}, faces)
    play(
        arb,
        game,
        {"type": "choose_strategy", "player": "orks", "cards": ["movement-combat", "combat-build"]},
        faces,
    )
    play(
        arb,
        game,
        {"type": "choose_strategy", "player": "imperials", "cards": ["build-movement", second]},
        faces,
    )
    for _ in range(40):  # phases ended up to the last of segment 3 (the orks' combat-build):
        state = arb.view(game)["state"]  # ending it would begin segment 4, revealing the card
        if (state["segment"], state["phase"]) == (3, "build"):
            break
        play(arb, game, {"type": "end_phase", "player": state["phasing"]}, faces)
    return arb, game


def test_the_orks_see_nothing_of_the_imperials_draws_and_secret_second_card() -> None:
    (a, ga), (b, gb) = bfa_game(0), bfa_game(1)
    hands = [x.view(g)["state"]["hands"]["imperials"]["cards"] for x, g in ((a, ga), (b, gb))]
    assert hands[0] != hands[1]
    assert a.view(ga)["state"]["segment"] == 3
    refused = [{"type": "play_special", "player": "orks", "card": hands[0][0]}]
    seen = [blinded(outputs(x, g, "orks", refused)) for x, g in ((a, ga), (b, gb))]
    assert seen[0] == seen[1]


def test_no_candidate_opens_a_seal_closed_to_the_orks() -> None:
    arb, game = bfa_game(0)
    state = arb.view(game)["state"]
    scenario = json.loads(next(iter(arb.records(game))).data)["scenario"]
    specials = [c["id"] for c in scenario["special_cards"]]
    strategies = [c["id"] for c in scenario["strategy_cards"]]
    pairs = [list(p) for p in itertools.permutations(strategies, 2)]
    candidates: list[Any] = [*specials, *pairs, *range(0, 11), *([f] for f in range(1, 11)), []]
    hand = state["hands"]["imperials"]["cards"]
    tried = assert_commitments_leak_nothing(arb, game, "orks", candidates, hand)
    assert tried >= 5


def records_as_public(arb: Arbiter, game: str) -> Iterator[str]:
    return (r.data for r in arb.export_records(game))


@pytest.mark.parametrize("ruleset", ["armageddon-empires", "battle-for-armageddon"])
def test_an_export_before_the_reveal_opens_nothing_and_after_it_everything(ruleset: str) -> None:
    arb = Arbiter(MemoryStore(), rulesets.get, seeds=lambda: SEED)
    game = arb.new_game(ruleset, game="x")
    from warlog.arbiter.autoplay import autoplay

    autoplay(arb, game, 30)
    before = [seal for d in records_as_public(arb, game) for _, seal in seals_in(json.loads(d))]
    assert before and all(set(seal) == {"sealed"} for seal in before)
    arb.reveal(game)
    after = [seal for d in records_as_public(arb, game) for _, seal in seals_in(json.loads(d))]
    assert len(after) == len(before) and all(
        set(seal) == {"sealed", "value", "salt"} for seal in after
    )


# ---------------------------------------------------------------------- secret choices


def ae_bid(tmp_path: Path, red_bid: int) -> tuple[Arbiter, str]:
    """A new game of the bundled scenario in which red has bought ``red_bid`` initiative dice
    (sealed until both have bought, AE-3) and blue has not bought yet."""
    arb = Arbiter(MemoryStore(), rulesets.get, clock=clock(), seeds=lambda: SEED)
    game = arb.new_game("armageddon-empires", ae_scenario(tmp_path, 0), game="ni", dice="manual")
    public = lambda i, sides: (i * 7) % sides + 1  # noqa: E731
    play(arb, game, {"type": "buy_initiative", "player": "red", "count": red_bid}, public)
    return arb, game


def test_blue_sees_nothing_of_red_s_initiative_bid_before_its_own(tmp_path: Path) -> None:
    """Given red's bid of 1 die in one game and 4 in the other (AE-3: secret until both have
    bought), then everything blue can be given before it bids is the same: its feed, views,
    Events view, legal commands, replay, explain and the refusals of its illegal commands."""
    (a, ga), (b, gb) = ae_bid(tmp_path, 1), ae_bid(tmp_path, 4)
    assert a.view(ga)["state"]["bids"] != b.view(gb)["state"]["bids"]  # red's secrets differ
    refused = [
        {"type": "end_turn", "player": "blue"},
        {"type": "buy_initiative", "player": "red", "count": 2},
    ]
    seen = [blinded(outputs(x, g, "blue", refused)) for x, g in ((a, ga), (b, gb))]
    assert seen[0] == seen[1]
    assert blinded(outputs(a, ga, "red", [])) != blinded(outputs(b, gb, "red", []))  # red sees


def bfa_orks_chose(order: list[str]) -> tuple[Arbiter, str]:
    """A new Battle for Armageddon game in which the Orks have chosen their two strategy cards
    in ``order`` (secret until the segments reveal them) and the Imperials have not chosen."""
    arb = Arbiter(MemoryStore(), rulesets.get, clock=clock(), seeds=lambda: SEED)
    game = arb.new_game("battle-for-armageddon", game="ni", dice="manual")
    faces = lambda i, sides: i % sides + 1  # noqa: E731
    play(arb, game, {"type": "end_setup", "player": "orks"}, faces)
    play(arb, game, {"type": "choose_strategy", "player": "orks", "cards": order}, faces)
    return arb, game


def test_the_imperials_see_nothing_of_the_orks_strategy_before_choosing_their_own() -> None:
    """Given the Orks' two strategy cards chosen in one order and in the other, then everything
    the Imperials can be given before they choose is the same (the mirror of the test above,
    which watches from the Orks' side)."""
    (a, ga) = bfa_orks_chose(["movement-combat", "combat-build"])
    (b, gb) = bfa_orks_chose(["combat-build", "movement-combat"])
    refused = [{"type": "end_phase", "player": "imperials"}]
    seen = [blinded(outputs(x, g, "imperials", refused)) for x, g in ((a, ga), (b, gb))]
    assert seen[0] == seen[1]
    assert blinded(outputs(a, ga, "orks", [])) != blinded(outputs(b, gb, "orks", []))

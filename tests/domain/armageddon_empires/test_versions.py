"""A game plays on, and its log re-derives, under the version of the rules it began with:
versions 7 and 8 judge an air strike's unit targets by the attacker's sightings (AE-42),
version 6 (kept) by the sighted units still standing in the hex; a version this warlog does not
play is reported by the audit, never re-derived under other rules."""

from __future__ import annotations

import json
from pathlib import Path

from tests.domain.armageddon_empires.test_air_non_interference import stealth_played
from warlog.arbiter.audit import audit_records
from warlog.arbiter.sources import file_records
from warlog.domain import rulesets
from warlog.domain.armageddon_empires.ruleset import RULESET
from warlog.domain.core.errors import RulesError

#: the golden game of version 6 up to its first capture, forked and revealed: a log written by
#: warlog before version 7 (its 12 air-strike events included)
VERSION_6_LOG = Path(__file__).resolve().parent / "logs" / "version-6-to-first-capture.jsonl"

#: a game written by warlog when version 20 was its latest (at 4ef2f1d, by
#: ``test_dice_by_empire.both_strikes``, revealed): a collateral strike then a WMD on one hex
#: holding both empires' cards, each hidden roll of their fallout over both (AE-66 since 21)
VERSION_20_FALLOUT_LOG = (
    Path(__file__).resolve().parent / "logs" / "version-20-collateral-and-wmd.jsonl"
)

#: a game written by warlog when version 25 was its latest (at 76d39d5, revealed): red-x, four
#: lancers and no hero, out of supply, attacks blue-y's three troopers and wins the battle
VERSION_25_BATTLE_LOG = (
    Path(__file__).resolve().parent / "logs" / "version-25-battle-out-of-supply.jsonl"
)

STRIKE = {
    "type": "play_attack_card",
    "player": "red",
    "card": "red.hawk.1",
    "at": "3,2",
    "aim": "unit",
}


def test_a_game_begun_under_version_6_plays_on_under_version_6(tmp_path: Path) -> None:
    # given red sighted blue-a, which has since engaged stealth unseen, in games of each version
    old = stealth_played(tmp_path, "blue-a", version="6")
    new = stealth_played(tmp_path, "blue-a")
    assert old.ruleset_of("ni").version == "6" and new.ruleset_of("ni").version == "28"
    # then version 6 judges red's targets by the hex as it stands (AE-42 before version 7) ...
    assert STRIKE not in old.legal("ni", "red")
    try:
        old.play("ni", json.dumps(STRIKE))
        raise AssertionError("version 6 took a strike at a stealthed army")
    except RulesError as error:
        assert error.code == "rules/no_air_target"
    # ... and versions 7 on by red's sighting
    assert STRIKE in new.legal("ni", "red")
    new.play("ni", json.dumps(STRIKE))


def test_each_game_s_log_re_derives_under_its_own_version(tmp_path: Path) -> None:
    for version in (
        "6",
        "7",
        "8",
        "9",
        "10",
        "11",
        "12",
        "13",
        "14",
        "15",
        "16",
        "17",
        "18",
        "19",
        "20",
        "21",
        "22",
        "23",
        "24",
        "25",
        "26",
        "27",
        "28",
    ):
        arb = stealth_played(tmp_path, "blue-a", version=version)
        assert arb.view("ni")["state"]["rules_version"] == int(version)
        auditor = audit_records(arb.export_records("ni", opened=True), rulesets.get)
        assert auditor.findings == []
        assert auditor.rules == f"armageddon-empires version {version}"
        assert not auditor.proved.rules_stopped_at


def test_a_log_written_by_warlog_before_version_7_still_audits_clean() -> None:
    auditor = audit_records(file_records(str(VERSION_6_LOG)), rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == "armageddon-empires version 6"
    assert auditor.proved.batches_rederived == 157 and not auditor.proved.rules_stopped_at


def test_a_log_written_by_warlog_before_version_21_re_derives_its_fallout_as_written() -> None:
    # given a collateral strike and a WMD recorded by the warlog of version 20, each hidden roll
    # of their fallout one roll over both empires' cards
    records = list(file_records(str(VERSION_20_FALLOUT_LOG)))
    rolls = [json.loads(r.data)["purpose"] for r in records if r.type == "dice_rolled"]
    assert "air strike 1 collateral" in rolls and "air strike 2 hidden WMD challenges" in rolls
    assert not any(purpose.endswith("'s") for purpose in rolls)
    # when it is audited, then every command re-derives to the same events under version 20,
    # every roll and seal checked: version 21's split did not touch the rolls before it
    auditor = audit_records(records, rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == "armageddon-empires version 20"
    assert not auditor.proved.rules_stopped_at and auditor.proved.batches_rederived == 10
    assert auditor.proved.dice_verified == 36 and not auditor.proved.unchecked()


def test_a_battle_recorded_under_version_25_re_derives_without_the_penalties_of_26() -> None:
    # given a battle recorded by the warlog of version 25: red-x, four lancers and no hero (two
    # over its Command Rating), out of supply at red's turn start, beat blue-y's three troopers
    # (one over), every pool the card's own stat
    records = list(file_records(str(VERSION_25_BATTLE_LOG)))
    opened = [json.loads(r.data)["challenge"] for r in records if r.type == "challenge_opened"]
    strikes = [c for c in opened if c["purpose"] == "battle 1 ground combat"]
    lancers = [c for c in strikes if c["attacker"]["empire"] == "red"]
    assert lancers[0]["attacker"]["pool"]["terms"] == [
        {"value": 4, "label": "attack of Test Lancer"}
    ]
    assert not any("AE-6" in json.dumps(c) for c in opened)
    # when it is audited, then every command re-derives to the same events under version 25,
    # every roll checked: version 26's penalties (AE-68, AE-69) touch none of it
    auditor = audit_records(records, rulesets.get)
    assert auditor.findings == [] and auditor.revealed
    assert auditor.rules == "armageddon-empires version 25"
    assert not auditor.proved.rules_stopped_at and auditor.proved.batches_rederived == 48
    assert auditor.proved.dice_verified == 54 and not auditor.proved.unchecked()


def test_a_version_this_warlog_does_not_play_is_reported_and_not_re_derived(
    tmp_path: Path,
) -> None:
    arb = stealth_played(tmp_path, "blue-a", version="5")
    auditor = audit_records(arb.export_records("ni", opened=True), rulesets.get)
    (finding,) = auditor.findings
    assert (finding.seq, finding.check) == (1, "version")
    assert finding.message == (
        "played under armageddon-empires version 5, which this warlog does not play: a version "
        "this warlog no longer keeps (it plays 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, "
        "13, 12, 11, 10, 9, 8, 7 and 6), so rules re-derivation was not done"
    )
    assert auditor.proved.rules_stopped_at == 1
    assert RULESET.at_version("5") is None

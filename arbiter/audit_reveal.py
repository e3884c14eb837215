"""The reveal's checks: the rolls and salts kept under each dice spec, and once its seed is
revealed in the log, every roll derived again from it and every salt checked against it."""

from __future__ import annotations

from warlog.arbiter.audit_report import Find, Proved
from warlog.arbiter.audit_rows import Row
from warlog.arbiter.meta import GameMeta
from warlog.domain.core.dice import DiceSpec, commitment_of, derive_faces
from warlog.domain.core.events import DiceRevealed, DiceRolled, Event, GameCreated, GameForked
from warlog.domain.core.seal import salt_for
from warlog.eventstore.records import Record


class Reveal:
    """What the reveal checks, kept under each dice spec (keyed by its commitment) as the log
    goes: its rolls, its opened salts, the spec, and the seed once revealed: (seq, seed)."""

    def __init__(self, from_seq: int, find: Find, proved: Proved) -> None:
        self.from_seq = from_seq
        self.find = find
        self.proved = proved
        self.rolls: dict[str, list[tuple[int, int, int, list[int]]]] = {}
        self.salts: dict[str, list[tuple[int, int, str, str, tuple[bytes, str, int] | None]]] = {}
        self.specs: dict[str, DiceSpec] = {}
        self.seeds: dict[str, tuple[int, bytes]] = {}

    def keep_salts(self, meta: GameMeta | None, row: Row) -> None:
        """Keep a row's opened salts for the reveal, under the seed in force."""
        if meta is None or not row.salts:
            return
        kept = self.salts.setdefault(meta.dice.commitment or "", [])
        seq, derived = row.record.seq, row.derived
        dseq = meta.derivation_seq(seq)
        kept.extend((seq, dseq, path, salt, derived) for path, salt in row.salts)

    def track_spec(self, meta: GameMeta | None, event: Event) -> None:
        """Keep the dice spec an event puts in force (a game's, or a fork's new dice)."""
        if meta is not None and (
            isinstance(event, GameCreated) or (isinstance(event, GameForked) and event.dice)
        ):
            self.specs[meta.dice.commitment or ""] = meta.dice

    def roll(self, meta: GameMeta | None, seq: int, event: DiceRolled, *, in_opening: bool) -> None:
        """Keep a roll for the reveal: auto rolls, and the opening's rolls in either mode (they
        derive from the key)."""
        if meta is None:
            return
        if typed(meta, in_opening):
            if seq >= self.from_seq:
                self.proved.dice_typed += 1
            return
        self.rolls.setdefault(meta.dice.commitment or "", []).append(
            (seq, meta.derivation_seq(seq), event.sides, list(event.faces))
        )

    def sealed_roll(
        self, meta: GameMeta | None, seq: int, *, in_opening: bool, shown: bool = False
    ) -> None:
        """Count a roll whose faces stay sealed, or (``shown``) whose faces shown do not open
        their seal: not verified either way (a referee's typed dice, which no seed derives, are
        counted as typed)."""
        if seq >= self.from_seq:
            if typed(meta, in_opening):
                self.proved.dice_typed += 1  # a referee's dice, sealed
            elif shown:
                self.proved.dice_unopened += 1
            else:
                self.proved.dice_sealed += 1

    def revealed(self, record: Record, event: DiceRevealed, meta: GameMeta | None) -> None:
        """Check a ``dice_revealed`` against the commitment in force, and keep its seed."""
        if meta is None:
            return
        if meta.revealed:
            self.find(
                record.seq, "dice", f"the seed was already revealed at seq {meta.revealed_at}"
            )
            return
        try:
            seed = bytes.fromhex(event.seed)
        except ValueError:
            self.find(record.seq, "dice", "the revealed seed is not hex")
            return
        if commitment_of(seed) != meta.dice.commitment:
            self.find(
                record.seq,
                "dice",
                "the revealed seed does not open the commitment in force",
                meta.dice.commitment,
                commitment_of(seed),
            )
            return
        self.seeds[meta.dice.commitment or ""] = (record.seq, seed)

    def check(self) -> None:
        """Derive every kept roll (from ``from_seq`` on) and check every kept salt against the
        seed revealed for its spec."""
        for commitment, rolls in self.rolls.items():
            revealed = self.seeds.get(commitment)
            spec = self.specs.get(commitment)
            for seq, dseq, sides, faces in rolls:
                if seq < self.from_seq:
                    continue
                if revealed is None or spec is None:
                    self.proved.dice_unverified += 1
                    continue
                try:
                    fair = derive_faces(
                        revealed[1], spec.stream, spec.salt, dseq, len(faces), sides
                    )
                except ValueError as exc:
                    self.proved.dice_false += 1
                    self.find(seq, "dice", f"the roll cannot be derived: {exc}")
                    continue
                if fair != faces:
                    self.proved.dice_false += 1
                    self.find(
                        seq,
                        "dice",
                        f"the faces are not the ones the seed revealed at seq {revealed[0]} gives",
                        str(fair),
                        str(faces),
                    )
                else:
                    self.proved.dice_verified += 1
        for commitment, salts in self.salts.items():
            revealed = self.seeds.get(commitment)
            spec = self.specs.get(commitment)
            if revealed is None or spec is None:
                continue
            # a salt the reader derived from the revealed seed, the stream and the seq the seed
            # derives it from is the one the seed derives (salt_for is a function of these and
            # the path): it is not derived a second time
            same = (revealed[1], spec.stream)
            for seq, dseq, path, salt, derived in salts:
                if derived != (*same, dseq) and salt_for(*same, dseq, path) != salt:
                    self.proved.salts_false += 1
                    self.find(
                        seq,
                        "seal",
                        f"the salt of {path} is not the one the seed revealed at seq {revealed[0]} derives",
                    )
                else:
                    self.proved.salts_verified += 1


def typed(meta: GameMeta | None, in_opening: bool) -> bool:
    """Whether a roll now was typed by a referee: manual dice, outside the opening (whose
    rolls derive from the key in either mode)."""
    return meta is not None and meta.dice.mode != "auto" and not in_opening

"""The procedures that nest on the core engine's stack in Armageddon Empires (digest 1.4).

A Capture Kill (p.30) holds a challenge: its frame lies under the challenge's, and reads the
challenge's outcome once it is resolved. Battles, retreats and the air war add their frames here.
"""

from __future__ import annotations

from warlog.domain.armageddon_empires.challenge import Challenge, Outcome
from warlog.domain.core.procedure import Frame


class CaptureKill(Frame, frozen=True, kw_only=True, tag="capture_kill", tag_field="frame"):
    """A Capture Kill in progress (p.30; R2, R4): the hunter's army and hex, the target hero,
    the capture threshold's parts, and the outcome of its challenge once resolved."""

    hunter: str
    army: str
    at: str
    target: str
    target_army: str
    target_empire: str
    #: the target's dice pool as built when the challenge opened (R4; AE-21)
    target_pool: int
    #: the largest Bounty Hunter X among the hunter's cards in the hex (R4; p.30)
    bounty_hunter: int = 0
    outcome: Outcome | None = None

    @property
    def threshold(self) -> int:
        """R4: the target's total dice pool − the single largest Bounty Hunter X in the hex."""
        return self.target_pool - self.bounty_hunter


#: every kind of frame that can be on the stack (a tagged union, for snapshots)
AnyFrame = Challenge | CaptureKill

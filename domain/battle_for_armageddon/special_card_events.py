"""Special Cards' events (rules: Sequence of Play; BFA-10, BFA-11, BFA-19, BFA-22).

A card drawn, a card played with its effect, and a site Reconstruction rebuilt; tags are stable.
Never imports ``state.py``.
"""

from typing import Annotated

from warlog.domain.battle_for_armageddon.rules import (
    BUILD_IMPERIAL,
    SEQUENCE_OF_PLAY,
)
from warlog.domain.core.events import Event
from warlog.domain.core.seal import Hidden

#: what each special card's effect does when played (BFA-11, BFA-19, BFA-22), ``{v}`` its value
_EFFECT_WORDS: dict[str, str] = {
    "reconstruction": "the smoking ruins in the chosen area, with no Ork counter on them, flip back "
    "(BFA-19)",
    "drop_pod": "a READY Marine reinforcement lands in any open area and counts as moved (BFA-22)",
    "forced_march": "+{v} Move for counters that move after it this phase",
    "barrage": "+{v} to the player's CRT rolls for the rest of this combat phase",
    "extra_build_points": "+{v} build points in this build phase",
    "extra_rebuild": "+{v} Ork rebuilds in this build phase",
}


class SpecialCardDrawn(Event, frozen=True, tag="special_card_drawn"):
    """A special card from the player's deck into his hand; the card and the ``face`` of the
    d``deck_size`` that picked it among the remaining cards (BFA-10) are sealed for the opponent.
    """

    player: str
    card: Annotated[str, Hidden(owner="player")]
    face: Annotated[int, Hidden(owner="player")] = 0
    deck_size: int = 0

    def explain(self) -> str:
        if self.deck_size > 1:
            how = f"d{self.deck_size} {self.face}: card {self.face} of the {self.deck_size} left"
        else:
            how = "the last card of the deck, no roll"
        return f"the {self.player} draw {self.card} ({how}; {SEQUENCE_OF_PLAY}; BFA-10)"


class SpecialCardPlayed(Event, frozen=True, tag="special_card_played"):
    player: str
    card: str
    name: str
    effect: str
    value: int = 0
    area: str = ""
    counter: str = ""

    def explain(self) -> str:
        effect = _EFFECT_WORDS.get(self.effect, self.effect).format(v=self.value)
        target = ", ".join(x for x in (self.area, self.counter) if x)
        return (
            f"the {self.player} play {self.name} ({self.card}){' on ' + target if target else ''}"
            f": {effect}; one Special Card per action segment ({SEQUENCE_OF_PLAY}; BFA-11)"
        )


class SiteRebuilt(Event, frozen=True, tag="site_rebuilt"):
    site: str
    area: str
    defence: int
    track: int

    def explain(self) -> str:
        return (
            f"Reconstruction: {self.site} rebuilt; the build track rises by {self.defence} to "
            f"{self.track} ({BUILD_IMPERIAL}; BFA-19)"
        )

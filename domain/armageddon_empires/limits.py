"""The numeric limits of the game, each with its source."""

from __future__ import annotations

#: AE-2: this version plays two empires (R10 already gives the AP of 3 and 4)
EMPIRES_PER_GAME = 2
#: digest 6.9 (p.22–23): an army holds at most 8 unit cards and 1 hero card
MAX_UNITS_PER_ARMY = 8
MAX_HEROES_PER_ARMY = 1
#: digest 6.9 (p.22–23): at most 8 armies of one empire in a hex (a garrison counts, AE-8)
MAX_ARMIES_PER_HEX = 8
#: p.26: "a supply range of 4 supply points for most factions"
DEFAULT_SUPPLY_RANGE = 4
#: AE-6: the hand holds at most 6 cards (a 6-card hand is observed, digest 6.12)
DEFAULT_HAND_LIMIT = 6

#: AE-8: a garrison army is named after its base, ``<base>-garrison`` (AE-57: no other army is)
GARRISON_SUFFIX = "-garrison"

#: AE-62: since version 16 a card of a custom scenario's hidden set-up is numbered at random
#: from 1 to this (a hand and a deck alone may hold 200 cards each, so 99 would not do): an
#: empire's set-up holds at most this many cards of one type
LAST_CARD_NUMBER = 999

#: AE-73: a hero creating a card picks one of six offered (digest §8.5: p.28, p.32 and the
#: official tutorial): a scenario's research list of an ability offers at most this many
RESEARCH_OFFER = 6

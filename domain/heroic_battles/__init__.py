"""Midgard: Heroic Battles (Reisswitz Press, 2024): units and heroes on a table the players
measure, command tests, shooting, melee, single combat and reputation."""

"""Armageddon Empires (Cryptic Comet, 2007): hexes, empires, cards, armies, bases and supply.

The ruleset instance is ``domain.armageddon_empires.ruleset.RULESET``. Rules digest:
``rules/armageddon-empires.md`` (R1–R14); warlog's own rulings: ``docs/rulings.md`` (AE-n).
"""

"""The values of each kind a game's state holds: what a mutated command's field may name besides
what the log and the legal commands give it (another piece, place or card of the game).

A place in the state is a path with its maps' keys and its lists' positions left out: the keys
of a map (``units{}``: every unit's id) or a field of the Structs a map or a list holds
(``scenario.forces[].units[].id``). A value's kind is every place it stands in; its kindred
are the other values standing in one of those places. So a unit's id, which stands in the
state's map of units and in the scenario's list of each force's units, has for kindred every
unit of the game, both sides', destroyed ones too; a hex, every hex the state names. Only
strings are indexed (ids, places, cards): numbers and flags have no kind a state could tell.
No ruleset declares anything for this: the kinds are read off the state's own structure."""

from __future__ import annotations

from typing import Any

import msgspec


class Kinds:
    """The strings of a state indexed by the places they stand in (module doc)."""

    def __init__(self, state: Any) -> None:
        #: place -> the values standing there, in the state's order
        self._at: dict[str, dict[str, None]] = {}
        #: value -> the places it stands in
        self._places: dict[str, dict[str, None]] = {}
        self._walk(state, "")

    def kindred(self, value: object) -> list[str]:
        """The values of ``value``'s kind but ``value`` itself, in the state's order (none for
        a value the state does not hold, or one that is not a string)."""
        if not isinstance(value, str):
            return []
        out: dict[str, None] = {}
        for place in self._places.get(value, ()):
            out.update(self._at[place])
        out.pop(value, None)
        return list(out)

    def _add(self, value: str, place: str) -> None:
        if value:
            self._at.setdefault(place, {})[value] = None
            self._places.setdefault(value, {})[place] = None

    def _walk(self, obj: Any, place: str) -> None:
        if isinstance(obj, str):
            self._add(obj, place)
        elif isinstance(obj, msgspec.Struct):
            for field in obj.__struct_fields__:
                self._walk(getattr(obj, field), f"{place}.{field}")
        elif isinstance(obj, dict):
            for key, value in obj.items():
                if isinstance(key, str):
                    self._add(key, place + "{}")
                self._walk(value, place + "[]")
        elif isinstance(obj, list | tuple):
            for value in obj:
                self._walk(value, place + "[]")
        elif isinstance(obj, set | frozenset):  # in an order no process's hashing changes
            for value in sorted(obj, key=repr):
                self._walk(value, place + "[]")

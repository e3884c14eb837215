"""Invariants: what must hold of every state of a ruleset at rest, each broken one named.

A ruleset declares its invariants in one place (its ``invariants.py``), as a function of the
state returning the ``Violation`` of each one broken (none when all hold); ``Rules.invariants``
is where the application, the tests and ``warlog fuzz`` ask for them. "At rest" is after a
whole command's batch: inside a batch a procedure may pass through states that break them.
"""

import msgspec


class Violation(msgspec.Struct, frozen=True):
    """One broken invariant: its stable ``name`` (``counters_conserved``) and what is wrong."""

    name: str
    detail: str

    def line(self) -> str:
        return f"{self.name}: {self.detail}"

"""The procedure engine: what a game waits for, and running the game on until someone must decide.

A game is always either over, waiting for a **Decision** (who must answer, what kind, which
commands answer it, the options), or at an **automatic step** (a callable that emits the events
that move the game on: a die roll, a result applied, a phase ended). ``run`` executes automatic
steps until a decision or the end, the way a tabletop referee resolves everything nobody has a
choice in. OpenSpiel calls the same three cases terminal, a player's node and a chance node.

Procedures nest: a battle holds rounds, a round holds attacks, an attack holds a challenge. Each
procedure in progress is a **frame** kept in the state, on a stack; the top frame acts first and
the turn sequence acts when the stack is empty. A frame's procedure reads its frame and returns a
decision or a step; the step that finishes a procedure emits the event whose ``evolve`` pops it.
The queue of what remains to be done lives in the state, so a game can stop between any two
commands and be resumed from its log.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from warlog.domain.core.batch import Batch

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
F_contra = TypeVar("F_contra", contravariant=True)

#: automatic steps ``run`` takes before it calls the procedure stuck (a bug in a ruleset)
MAX_AUTOMATIC_STEPS = 100_000


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """What the game waits for.

    ``players`` must answer (several at once for a simultaneous choice); ``kind`` names the
    decision in the game's words (``movement``, ``loss``, ``challenge``); ``answers`` are the
    command types (tags) that answer it; ``procedure`` is the procedure in progress that waits
    (empty when it is the turn sequence itself); ``waiting`` says it in a phrase a player reads
    ("the orks' movement phase"); ``options`` and ``about`` say what may be chosen and where.
    """

    players: tuple[str, ...]
    kind: str
    answers: tuple[str, ...]
    waiting: str
    procedure: str = ""
    options: tuple[str, ...] = ()
    about: dict[str, str] = {}


#: an automatic step: emits the events that move the game on (the batch folds them)
Step = Callable[[Batch[Any]], None]
#: what comes next in a game: a decision, an automatic step, or None once the game is over
Next = Decision | Step | None


def run(batch: Batch[S], next_: Callable[[S], Next]) -> Decision | None:
    """Take automatic steps until the game waits for a decision (returned) or is over (None).

    A step that does not move the game on would loop for ever: past ``MAX_AUTOMATIC_STEPS``
    this raises RuntimeError naming the step, which the application reports as a bug.
    """
    for _ in range(MAX_AUTOMATIC_STEPS):
        step = next_(batch.state)
        if step is None or isinstance(step, Decision):
            return step
        step(batch)
    raise RuntimeError(f"a procedure took {MAX_AUTOMATIC_STEPS} automatic steps without end")


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """A procedure in progress, kept in the state. Rulesets subclass it, one class per kind of
    procedure (a combat, a battle round, a challenge), with what that procedure remembers."""


class Procedure(Protocol[S_contra, F_contra]):
    """The rules of one kind of frame: from the state and the frame, what comes next."""

    def __call__(self, state: S_contra, frame: F_contra, /) -> Decision | Step: ...


class Stack(Generic[S]):
    """A game's procedures: the frames in the state, the procedure that runs each kind of frame,
    and the turn sequence that runs when no procedure is in progress."""

    def __init__(
        self,
        frames: Callable[[S], Sequence[Frame]],
        procedures: Mapping[type[Frame], Procedure[S, Any]],
        turn: Callable[[S], Next],
    ) -> None:
        self._frames = frames
        self._procedures = dict(procedures)
        self._turn = turn

    def __call__(self, state: S) -> Next:
        """What comes next: the top frame's procedure, or the turn sequence's."""
        frames = self._frames(state)
        if not frames:
            return self._turn(state)
        top = frames[-1]
        return self._procedures[type(top)](state, top)


def push(frames: tuple[Frame, ...], frame: Frame) -> tuple[Frame, ...]:
    """The stack with ``frame`` begun on top (for ``evolve``)."""
    return (*frames, frame)


def pop(frames: tuple[Frame, ...]) -> tuple[Frame, ...]:
    """The stack with its top procedure finished (for ``evolve``)."""
    return frames[:-1]


def replace_top(frames: tuple[Frame, ...], frame: Frame) -> tuple[Frame, ...]:
    """The stack with its top frame replaced by ``frame`` (for ``evolve``)."""
    return (*frames[:-1], frame)


def describe(found: Next) -> dict[str, object]:
    """What comes next as JSON builtins, for a ruleset's view: who must decide what, and for a
    procedure's choice its procedure, where (``about``) and among which options. An automatic
    step (seen only in the middle of a batch) is ``{"players": [], "kind": "auto", "options":
    []}``; a finished game ``{}``."""
    if found is None:
        return {}
    if not isinstance(found, Decision):
        return {"players": [], "kind": "auto", "options": []}
    out: dict[str, object] = {"players": list(found.players), "kind": found.kind}
    if found.procedure:
        out["procedure"] = found.procedure
        out.update(found.about)
        out["options"] = list(found.options)
    return out

"""What every `warlog` process pays at its start stays small: the modules whose msgspec Structs
a command encodes or decodes (the rules' states, events and commands; the engine's meta and
records) keep their annotations evaluated (docs/performance.md, "CLI start")."""

from __future__ import annotations
import __future__

import importlib
import inspect
import pkgutil

import msgspec

import warlog.domain

#: besides the rules (warlog.domain), the engine's modules whose Structs every command reads
ENGINE = ("warlog.arbiter.meta", "warlog.eventstore.records")


def struct_modules() -> dict[str, object]:
    """Every module of the rules, and the engine's ``ENGINE``, that defines a msgspec Struct,
    by name."""
    found = {}
    names = [i.name for i in pkgutil.walk_packages(warlog.domain.__path__, "warlog.domain.")]
    for name in [*names, *ENGINE]:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, msgspec.Struct)
                and value.__module__ == name
            ):
                found[name] = module
                break
    return found


def test_modules_defining_structs_do_not_postpone_their_annotations() -> None:
    # given every module that defines a Struct (a state, an event, a command, a record)
    modules = struct_modules()
    assert len(modules) >= 30
    # then none postpones its annotations: msgspec would compile and eval each of them again in
    # every process that encodes or decodes the Struct, instead of reading them from the bytecode
    postponed = [
        name
        for name, module in modules.items()
        if getattr(module, "annotations", None) is __future__.annotations
    ]
    assert postponed == []

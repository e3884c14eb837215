"""docs/rulings.md is a reader's way from a ruling to its code: every name in a ruling's code
column is real, and the code it names cites the ruling; the code a ruling's text names (a
version's gate, a class's member) is real too.

A name is a module file (``movement.py``, ``core/rolls.py``, ``scenarios/second-war.toml``),
a module (``fallout_events``), a module's attribute (``costs.deploy_ap``,
``rulings.LEGENDARY_WEAPON_*``), a class's (``ArmageddonEmpires.set_up``), or names in
parentheses after a module file (``numbering.py`` (``renaming``)), each in its ruleset's package.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = ROOT / "domain"
#: a ruling id's prefix -> its ruleset's package
PACKAGES = {"AE": "armageddon_empires", "BFA": "battle_for_armageddon", "HB": "heroic_battles"}
ROW = re.compile(r"^\| ((AE|BFA|HB)-\d+) \|")


def rows() -> list[tuple[str, str, list[str]]]:
    """Each ruling's id, package and the names its code column gives."""
    found = []
    for line in (ROOT / "docs" / "rulings.md").read_text().splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        code = line.rstrip().removesuffix("|").rsplit("|", 1)[-1]
        for listed in re.finditer(r"`([\w/]+)\.py` \(([^)]*)\)", code):
            inner = ", ".join(
                f"`{listed.group(1)}.{n}`" for n in re.findall(r"`(\w+)`", listed.group(2))
            )
            code = code.replace(listed.group(2), inner)
        found.append((match.group(1), PACKAGES[match.group(2)], re.findall(r"`([^`]+)`", code)))
    return found


@functools.cache
def modules(package: str) -> dict[str, ModuleType]:
    base = DOMAIN / package
    return {
        m.name: importlib.import_module(f"warlog.domain.{package}.{m.name}")
        for m in pkgutil.iter_modules([str(base)])
    }


def source_of(name: str, package: str) -> str | None:
    """The text that must cite the ruling for ``name`` in ``package``: a function's or class's
    own source, a module's or a file's whole text (a constant cites it in its module); None if
    ``name`` names nothing there."""
    if name.endswith((".py", ".toml")):
        for path in (DOMAIN / package / name, DOMAIN / name):
            if path.is_file():
                return path.read_text()
        return None
    found = modules(package)
    head, _, attr = name.partition(".")
    if head in found:
        module = found[head]
        if not attr:
            return inspect.getsource(module)
        if attr.endswith("*"):
            present = any(a.startswith(attr[:-1]) for a in vars(module))
            return inspect.getsource(module) if present else None
        if not hasattr(module, attr):
            return None
        return own_source(getattr(module, attr), module)
    classes = [
        cls
        for module in found.values()
        for cls in vars(module).values()
        if inspect.isclass(cls) and cls.__name__ == head and cls.__module__ == module.__name__
    ]
    if not classes or not hasattr(classes[0], attr):
        return None
    return own_source(getattr(classes[0], attr), inspect.getmodule(classes[0]))


def own_source(obj: object, module: ModuleType | None) -> str:
    """A function's or class's own source (its docstring and body); for anything else (a
    constant), its module's, where the comment above it cites the ruling."""
    target = inspect.unwrap(obj.fget) if isinstance(obj, property) else obj  # type: ignore[arg-type]
    if inspect.isfunction(target) or inspect.isclass(target) or inspect.ismethod(target):
        return inspect.getsource(target)
    assert module is not None
    return inspect.getsource(module)


RULINGS = rows()


def prose_names() -> list[tuple[str, str, str]]:
    """Each ruling's id, package and each dotted name its text (not its code column) gives
    that must be code: ``module.CONSTANT`` of its ruleset, ``Class.member`` of its ruleset or of
    the core, ``core.module.name``. A lowercase ``module.field`` is left out: the text also
    names event and scenario fields that way (``radiation.dice``, ``empires.N.cards``, and
    ``armies.N``, whose head is also a module's name)."""
    found = []
    for line in (ROOT / "docs" / "rulings.md").read_text().splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        text = line.rstrip().removesuffix("|").rsplit("|", 1)[0]
        package = PACKAGES[match.group(2)]
        for name in re.findall(r"`([A-Za-z_]\w*(?:\.\w+)+)`", text):
            head, attr = name.split(".")[0], name.split(".")[-1]
            constant = attr.isupper() and len(attr) > 1  # not a field path's ``N``
            if head == "core" or head[0].isupper() or (head in modules(package) and constant):
                found.append((match.group(1), package, name))
    return found


def real(name: str, package: str) -> bool:
    parts = name.split(".")
    if parts[0] == "core":
        module = importlib.import_module(f"warlog.domain.core.{parts[1]}")
        return hasattr(module, parts[2])
    if parts[0][0].isupper():
        for module in [*modules(package).values(), *modules("core").values()]:
            cls = vars(module).get(parts[0])
            if inspect.isclass(cls) and hasattr(cls, parts[1]):
                return True
        return False
    return hasattr(modules(package)[parts[0]], parts[1])


PROSE = prose_names()


@pytest.mark.parametrize(
    ("ruling", "package", "name"), PROSE, ids=[f"{r}:{n}" for r, _, n in PROSE]
)
def test_each_code_name_in_a_ruling_s_text_is_real(ruling: str, package: str, name: str) -> None:
    # given a name of code in a ruling's text (a constant, a class's member, a core function)
    # then it names something real, as the code column's names do
    assert real(name, package), f"{ruling} names {name}, which is not in {package} or the core"


def test_the_rulings_text_names_code() -> None:
    # given the rulings' text, then the check above has names to check, of the constants that
    # gate a version among them
    assert len(PROSE) > 10 and any(n.endswith("_SINCE") for _, _, n in PROSE)


def test_the_table_lists_every_ruleset_s_rulings() -> None:
    # given the rulings table
    # then it holds the rulings of all three rulesets, each naming code
    assert {package for _, package, _ in RULINGS} == set(PACKAGES.values())
    assert len(RULINGS) > 100
    assert all(names for _, _, names in RULINGS)


@pytest.mark.parametrize(("ruling", "package", "names"), RULINGS, ids=[r[0] for r in RULINGS])
def test_each_ruling_names_real_code_that_cites_it(
    ruling: str, package: str, names: list[str]
) -> None:
    # given a ruling and the code its row names
    sources = {name: source_of(name, package) for name in names}
    # then every name is real ...
    assert [name for name, text in sources.items() if text is None] == []
    # ... and the code it names cites the ruling (a function or class in its own text, a module,
    # file or constant anywhere in it), at least one of them
    cited = re.compile(rf"\b{re.escape(ruling)}\b")
    assert any(cited.search(text or "") for text in sources.values())

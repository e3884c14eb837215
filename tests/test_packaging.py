"""The distribution installs one package, ``warlog``, holding every part of the repository."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("arbiter", "cli", "domain", "eventstore", "projections")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("warlog-*.whl")
    return zipfile.ZipFile(found)


def test_the_wheel_installs_nothing_at_the_top_level_but_warlog(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"warlog"}
    (top_level,) = [n for n in wheel.namelist() if n.endswith(".dist-info/top_level.txt")]
    assert wheel.read(top_level).decode().split() == ["warlog"]


def test_the_wheel_holds_every_module_and_bundled_scenario(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for part in PARTS:
        for path in (ROOT / part).rglob("*"):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                assert f"warlog/{path.relative_to(ROOT).as_posix()}" in names, path
    assert "warlog/__main__.py" in names
    assert "warlog/py.typed" in names


def test_python_dash_m_warlog_runs_the_command_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "warlog", "rulesets"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "armageddon-empires" in result.stdout

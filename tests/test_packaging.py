"""The distribution installs one package, ``warlog``, holding every part of the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("arbiter", "cli", "domain", "eventstore", "fixtures", "fuzz", "projections", "server")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel built from the files git would check out (a copy, so that the build leaves
    nothing in the working tree)."""
    tree = tmp_path_factory.mktemp("tree") / "warlog"
    listed = (
        subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source, target = ROOT / name, tree / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(tree), "--no-deps", "-q", "-w", str(out)],
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
            if path.suffix in (".py", ".toml", ".jsonl") and "__pycache__" not in path.parts:
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

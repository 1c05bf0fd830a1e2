"""The types are checked: mypy over `app/` with the configuration in pyproject.toml (`[tool.mypy]`):
strict on the contract and the pure timeline, the default checks on every other module (none is left
out), and a count of `type: ignore` comments that may only fall."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import REPO

# the ceiling: lower it when a change needs fewer (harness/reference/architecture.md, "Types")
MOST_TYPE_IGNORES = 50


def mypy(root: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """mypy as the suite runs it, on the app under `root` with that tree's pyproject.toml."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )


def mypy_config() -> str:
    text = (REPO / "pyproject.toml").read_text()
    return text.split("[tool.mypy]", 1)[1].split("\n[tool.importlinter]", 1)[0]


def test_mypy_finds_nothing_at_the_stated_strictness(tmp_path):
    done = mypy(REPO, tmp_path / "cache")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_a_planted_type_error_is_found_strictly_in_the_timeline_and_plainly_in_main(tmp_path):
    """The check can fail: an untyped function in the timeline (only strictness finds it) and a wrong
    assignment in a checked module of the main side are both named."""
    shutil.copytree(REPO / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "app/renderer/timeline/planted.py").write_text("def untyped(value):\n    return value\n")
    (tmp_path / "app/main/core/planted.py").write_text('count: int = "three"\n')
    done = mypy(tmp_path, tmp_path / "cache")
    assert done.returncode != 0
    assert "app/renderer/timeline/planted.py:1: error" in done.stdout, done.stdout[-3000:]
    assert "app/main/core/planted.py:1: error" in done.stdout, done.stdout[-3000:]


def test_no_module_is_left_out_and_the_type_ignores_only_get_fewer():
    config = mypy_config()
    assert 'files = ["app"]' in config
    assert not re.search(r"ignore_errors|exclude|follow_imports\s*=\s*\"skip\"", config), config
    ignores = sum(path.read_text().count("type: ignore") for path in (REPO / "app").rglob("*.py"))
    assert ignores <= MOST_TYPE_IGNORES, ignores

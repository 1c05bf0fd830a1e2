"""PySide's per-import question (does this module's text name PySide6?) answered from the file's bytes:
the same answers as PySide's own, no module's lines left in linecache, and the lines PySide's own check
read before the answer was replaced let go."""

from __future__ import annotations

import inspect
import linecache
import subprocess
import sys

import PySide6.QtCore  # noqa: F401 - loads PySide's import hook

from app.renderer.qt.common.feature_scan import answer_from_bytes
from tests.paths import REPO


def _import_fresh(folder, name: str, text: str):
    (folder / f"{name}.py").write_text(text)
    sys.path.insert(0, str(folder))
    try:
        exec(f"import {name}")  # through builtins.__import__, where PySide's hook sits
    finally:
        sys.path.remove(str(folder))
    return sys.modules.pop(name)


def test_a_module_imported_after_pyside_is_classified_without_its_lines_kept(tmp_path):
    assert answer_from_bytes()
    assert answer_from_bytes()  # a second call keeps the one replacement
    feature = sys.modules["shibokensupport.feature"]
    uses = _import_fresh(tmp_path, "clawqt_probe_uses", "import PySide6.QtCore\nVALUE = 1\n")
    plain = _import_fresh(tmp_path, "clawqt_probe_plain", "VALUE = 2\n")
    assert feature.pyside_feature_dict["clawqt_probe_uses"] == 0  # PySide's "uses PySide, no feature"
    assert feature.pyside_feature_dict["clawqt_probe_plain"] == -1  # "ignore this module"
    assert uses.__file__ not in linecache.cache and plain.__file__ not in linecache.cache


def test_the_answers_are_pysides_own_for_the_modules_loaded_now():
    answer_from_bytes()
    check = sys.modules["shibokensupport.feature"]._mod_uses_pyside
    modules = [
        module
        for name, module in sorted(sys.modules.items())
        if name.startswith(("app.", "PySide6", "json", "asyncio."))
        and str(getattr(module, "__file__", "")).endswith(".py")
    ]
    assert len(modules) > 10
    for module in modules:
        assert check(module) == _pysides_answer(module), module.__name__


def _pysides_answer(module) -> bool:
    """What PySide's own check says: the source text names PySide6 (no source, e.g. an empty file: no)."""
    try:
        return "PySide6" in inspect.getsource(module)
    except OSError:
        return False


BEFORE_PROBE = r"""
import linecache, sys
sys.path.insert(0, sys.argv[1])
import PySide6.QtCore
import clawqt_probe_before  # read by PySide's own check: its lines go to linecache
path = clawqt_probe_before.__file__
kept_before = path in linecache.cache
from app.renderer.qt.common.feature_scan import answer_from_bytes
from tests.conftest import TESTS  # the suite's own imports, as under pytest
answer_from_bytes()
print(kept_before, path in linecache.cache)
"""


def test_the_lines_pysides_own_check_read_before_are_let_go(tmp_path):
    (tmp_path / "clawqt_probe_before.py").write_text("from PySide6 import QtCore\n" + "X = 1\n" * 2000)
    done = subprocess.run(
        [sys.executable, "-c", BEFORE_PROBE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False"]

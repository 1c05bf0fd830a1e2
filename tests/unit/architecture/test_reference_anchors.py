"""The references' validation anchors name tests that exist (harness/reference/architecture.md,
"Validation Anchors"): every `tests/...py` path is a file, every `path::name` a function in it, and
every other `test_...` word a test module or a test somewhere (`test_prefix_*` a prefix of one). A
test renamed, moved or deleted without its reference fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.paths import REPO

PATH = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+))?")
NAME = re.compile(r"\btest_\w+(\*)?")


def _functions(path: Path) -> set[str]:
    """The names of the file's functions (its tests, and the fixtures an anchor may name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def stale_anchors(root: Path) -> list[str]:
    """Each anchor of root/harness/reference/*.md that names no file or test under root/tests."""
    files = sorted((root / "tests").rglob("*.py"))
    tests_of = {path: _functions(path) for path in files}
    every_test = {name for names in tests_of.values() for name in names if name.startswith("test_")}
    modules = {path.stem for path in files}
    stale = []
    for reference in sorted((root / "harness" / "reference").glob("*.md")):
        text = reference.read_text(encoding="utf-8")
        for match in PATH.finditer(text):
            path = root / match.group(1)
            if not path.exists():
                stale.append(f"{reference.name}: {match.group(1)} does not exist")
            elif match.group(2) and match.group(2) not in tests_of.get(path, set()):
                stale.append(f"{reference.name}: {match.group(0)} is not a test in it")
        for match in NAME.finditer(text):
            word = match.group(0).rstrip("*")
            prefix = match.group(1) is not None
            known = word in modules or word in every_test
            if not known and not (prefix and any(name.startswith(word.rstrip("_")) for name in every_test)):
                stale.append(f"{reference.name}: {match.group(0)} names no test")
    return sorted(set(stale))


def test_every_anchor_of_the_references_names_a_test_that_exists():
    assert stale_anchors(REPO) == []


def test_an_anchor_to_a_moved_or_deleted_test_is_named(tmp_path: Path):
    (tmp_path / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "harness" / "reference").mkdir(parents=True)
    (tmp_path / "tests" / "unit" / "test_kept.py").write_text("def test_here():\n    pass\n")
    (tmp_path / "harness" / "reference" / "x.md").write_text(
        "tests/unit/test_kept.py::test_here, tests/unit/test_kept.py::test_gone, tests/unit/test_moved.py,\n"
        "test_here, test_kept, test_he_* and test_elsewhere."
    )
    assert stale_anchors(tmp_path) == [
        "x.md: test_elsewhere names no test",
        "x.md: test_gone names no test",
        "x.md: test_moved names no test",
        "x.md: tests/unit/test_kept.py::test_gone is not a test in it",
        "x.md: tests/unit/test_moved.py does not exist",
    ]

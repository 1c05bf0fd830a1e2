"""No source file over MAX_LINES (harness/reference/architecture.md, "Sizes"): the app's and the tests'
Python, the benchmarks', the QML and its JavaScript. A file that grows past it is split along a named
seam (a support module beside its tests, a part of the feature with a job of its own)."""

from __future__ import annotations

from pathlib import Path

from tests.paths import REPO

MAX_LINES = 400
CHECKED = (
    ("app", "*.py"),
    ("tests", "*.py"),
    ("bench", "*.py"),
    ("resources", "*.qml"),
    ("resources", "*.js"),
)


def line_count(path: Path) -> int:
    with path.open("rb") as source:
        return sum(1 for _line in source)


def oversized(root: Path) -> list[str]:
    """Each checked file under `root` longer than MAX_LINES, with its length."""
    found = []
    for folder, pattern in CHECKED:
        for path in sorted((root / folder).rglob(pattern)):
            if (count := line_count(path)) > MAX_LINES:
                found.append(f"{path.relative_to(root)}: {count} lines")
    return found


def test_no_source_file_is_over_the_limit():
    assert oversized(REPO) == []


def test_a_file_over_the_limit_is_named(tmp_path: Path):
    (tmp_path / "app").mkdir()
    (tmp_path / "resources" / "qml").mkdir(parents=True)
    (tmp_path / "app" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "app" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "resources" / "qml" / "Long.qml").write_text("Item {}\n" * (MAX_LINES + 2))
    assert oversized(tmp_path) == ["app/long.py: 401 lines", "resources/qml/Long.qml: 402 lines"]

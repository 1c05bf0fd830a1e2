"""Who may import whom (harness/reference/architecture.md), checked by import-linter against the
contracts in pyproject.toml: the floors of the app (the command line, its commands, main and renderer,
which never import each other, the contract), the renderer's own floors (Qt views over the presenter
over pure view helpers over the timeline and Markdown) and the pure timeline. Every import counts, also
one inside a function or under TYPE_CHECKING."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on the `app` package under `root` (with the contracts of its pyproject.toml)."""
    env = {**os.environ, "PYTHONPATH": str(root)}  # grimp reads the package found first on the path
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_import_contracts_hold():
    done = lint_imports(REPO)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(
    "module, planted",
    [
        ("app/renderer/timeline/planted.py", "from app.renderer.present.tool_card import tool_entry\n"),
        (
            "app/main/core/planted.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import app.renderer.qt.window\n",
        ),
        ("app/main/files/planted.py", "from app.main.sessions.service import ChatService\n"),
        ("app/main/sessions/planted.py", "import app.main.participation.access\n"),  # siblings stay apart
        ("app/main/stores/planted.py", "import app.main.rules.book\n"),  # the stores are below the rules
        ("app/main/planted.py", "import app.main.core.paths\n"),  # a new package has no floor yet
        ("app/renderer/timeline/planted.py", "import PySide6.QtCore\n"),
    ],
)
def test_an_import_against_the_floors_breaks_a_contract(tmp_path, module, planted):
    """The check can fail: an upward import planted in a copy of the app (under TYPE_CHECKING too, or Qt
    in the pure timeline) is named."""
    shutil.copytree(REPO / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / module).write_text(planted)
    done = lint_imports(tmp_path)
    assert done.returncode != 0, done.stdout[-3000:]
    name = module.removesuffix(".py").replace("/", ".")
    assert name in done.stdout.replace("\n", ""), done.stdout[-3000:]


def import_circles(package: str = "app") -> list[list[str]]:
    """Every set of modules that import each other round (a strongly connected component of more than
    one module; imports in functions and under TYPE_CHECKING count), each sorted."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    modules = sorted(graph.modules)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            circle = []
            while True:
                member = stack.pop()
                circle.append(member)
                if member == module:
                    break
            if len(circle) > 1:
                circles.append(sorted(circle))

    for module in modules:
        if module not in order:
            visit(module)
    return sorted(circles)


def test_no_import_circle():
    """No module imports one that imports it back (harness/reference/architecture.md, "Circles")."""
    assert import_circles() == []


def test_the_circle_check_sees_a_circle_through_a_type_checking_import(tmp_path, monkeypatch):
    package = tmp_path / "circled"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from circled import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from circled import a\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_circles("circled") == [["circled.a", "circled.b"]]

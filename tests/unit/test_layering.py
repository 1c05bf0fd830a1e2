"""Who may import whom (harness/reference/architecture.md): the renderer imports only the contract from
outside itself, the contract imports nothing from app, and the main side imports nothing from the
renderer. Every import counts, also one inside a function or under TYPE_CHECKING."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"


def _app_imports(source: str, package: str) -> set[str]:
    """The app.* modules a file imports (relative imports resolved against `package`)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "app" or name.startswith("app.")}


def _imports_of(layer: str) -> dict[str, set[str]]:
    result = {}
    for path in sorted((APP / layer).rglob("*.py")):
        package = ".".join(path.relative_to(APP.parent).with_suffix("").parts[:-1])
        result[str(path.relative_to(APP.parent))] = _app_imports(path.read_text(encoding="utf-8"), package)
    return result


def _violations(layer: str, allowed: tuple[str, ...]) -> list[str]:
    return [
        f"{path} imports {name}"
        for path, names in _imports_of(layer).items()
        for name in sorted(names)
        if not name.startswith(allowed) and name != "app"
    ]


def test_the_renderer_imports_only_the_contract_from_outside_itself():
    assert _violations("renderer", ("app.renderer", "app.contract")) == []


def test_the_contract_imports_nothing_from_either_side():
    assert _violations("contract", ("app.contract",)) == []


def test_the_main_side_never_imports_the_renderer():
    assert _violations("main", ("app.main", "app.contract", "app.__version__")) == []


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from app.main.links import LinkPolicy", ["app.main.links"]),
        ("def f():\n    from app.main import paths\n", ["app.main"]),
        ("if TYPE_CHECKING:\n    import app.main.host\n", ["app.main.host"]),
        ("from ...main import chat_service", ["app.main"]),
    ],
)
def test_the_check_sees_every_kind_of_import(source, expected):
    """The check itself can fail: an import from app/main hidden in a function, under TYPE_CHECKING or
    written relative is found."""
    found = _app_imports(source, "app.renderer.qt")
    assert all(any(name.startswith(e) for name in found) for e in expected), found
    assert any(not name.startswith(("app.renderer", "app.contract")) for name in found)

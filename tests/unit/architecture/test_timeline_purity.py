"""The timeline package is pure: no Qt, no asyncio, no file, process or socket access."""

from __future__ import annotations

import ast
import subprocess
import sys

from tests.paths import REPO

TIMELINE = REPO / "app" / "renderer" / "timeline"
FORBIDDEN = {
    "PySide6",
    "qasync",
    "asyncio",
    "os",
    "io",
    "socket",
    "subprocess",
    "pathlib",
    "threading",
    "shutil",
    "tempfile",
    "urllib.request",
    "http",
}


def test_timeline_modules_import_nothing_impure():
    for path in sorted(TIMELINE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN and name not in FORBIDDEN, f"{path.name}: {name}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "print", "input", "exec", "eval"), f"{path.name}"


def test_importing_the_timeline_loads_no_qt():
    program = (
        "import sys, pkgutil, importlib, app.renderer.timeline as t\n"
        "for m in pkgutil.iter_modules(t.__path__):\n"
        "    importlib.import_module('app.renderer.timeline.' + m.name)\n"
        "print(sorted(n for n in sys.modules if n.startswith(('PySide6', 'qasync', 'asyncio'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

"""The QML feature folders hold together: every file compiles with the imports it declares (a type of
another folder used without `import "../folder"` is an error here, also in a panel the window loads
only on demand), and each folder's qmldir names exactly the files beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtQml import QQmlComponent, QQmlEngine
from PySide6.QtQuickControls2 import QQuickStyle

from app.renderer.qt.main_window import CONTROLS_STYLE, qml_dir
from app.renderer.qt.terminals import screen_item

QML = qml_dir()
FILES = sorted(QML.rglob("*.qml"))


def _compile(engine: QQmlEngine, path: Path) -> list[str]:
    # the app's style, as the window asks for it: the first engine to load the controls fixes the style
    # for the process, and a window test after this one on the same worker must still get the app's
    QQuickStyle.setStyle(CONTROLS_STYLE)
    component = QQmlComponent(engine, QUrl.fromLocalFile(str(path)))
    return [error.toString() for error in component.errors()]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(QML)))
def test_every_qml_file_compiles_with_the_imports_it_declares(qapp, path):
    screen_item.register()  # `import ClawQt.Terminal`, as the window registers it before loading
    engine = QQmlEngine()
    engine.addImportPath(str(QML / "style"))  # the app's controls style, as the window finds it
    assert _compile(engine, path) == []


def test_a_type_of_another_folder_without_its_import_is_an_error(qapp, tmp_path):
    """The check can fail: a copy of a conversation row that uses a card without importing its folder."""
    folder = tmp_path / "conversation"
    folder.mkdir()
    (folder / "Row.qml").write_text("import QtQuick\nItem { ToolCard {} }\n")
    errors = _compile(QQmlEngine(), folder / "Row.qml")
    assert any("ToolCard" in e for e in errors), errors


def test_each_qmldir_names_exactly_the_files_beside_it():
    # the feature folders, and the controls style (a module of its own under style/)
    folders = [p for p in QML.iterdir() if p.is_dir() and p.name != "style"] + [QML / "style" / "ClawQt"]
    assert folders and not list(QML.glob("*.qml"))[1:], "only Main.qml lives at the root"
    for folder in folders:
        lines = (folder / "qmldir").read_text().splitlines()
        listed = {
            line.split()[-1] for line in lines if line.strip() and line.split()[0] not in ("module", "import")
        }
        assert listed == {p.name for p in folder.glob("*.qml")}, folder.name

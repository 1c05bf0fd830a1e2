"""The rules deciding what a bundle carries (app/packaging/rules.py) and the size report's groups, on
the destination paths PyInstaller gives (either separator)."""

from __future__ import annotations

import pytest

from app.packaging.build import group_sizes
from app.packaging.rules import EXCLUDED_MODULES, keep, windows_version_info

QML = "PySide6/Qt/qml/"


@pytest.mark.parametrize(
    "dest",
    [
        QML + "QtQuick/Controls/Basic/qmldir",  # what the app's own style is built on
        "resources/qml/style/ClawQt/qmldir",
        "resources/fonts/inter/Inter-Regular.otf",
        QML + "QtQuick/Controls/impl/qmldir",
        QML + "QtQuick/Controls/qmldir",
        QML + "QtQuick/Layouts/qmldir",
        QML + "QtQml/Models/qmldir",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/imageformats/libqwebp.so",
        "PySide6/Qt/lib/libQt6Core.so.6",
        "PySide6/Qt/lib/libicudata.so.73",
        "libxcb-cursor.so.0",  # Qt's X11 plugin needs it and desktops often lack it
        "libxkbcommon.so.0",
        "pillow.libs/libpng16-1d1ba958.so.16.58.0",  # a wheel's own copy, in its folder
        "resources/qml/Main.qml",
    ],
)
def test_what_the_app_uses_is_kept(dest):
    assert keep(dest) and keep(dest.replace("/", "\\"))


@pytest.mark.parametrize(
    "dest",
    [
        QML + "QtQuick/Controls/Fusion/libqtquickcontrols2fusionstyleplugin.so",
        QML + "QtQuick/Controls/Material/qmldir",
        QML + "QtQuick/Controls/Windows/qmldir",  # one style everywhere: no native ones
        QML + "QtQuick/Controls/macOS/qmldir",
        QML + "QtQuick/Controls/FluentWinUI3/qmldir",
        QML + "QtQuick/Controls/Universal/libqtquickcontrols2universalstyleplugin.so",
        QML + "QtQuick/VirtualKeyboard/qmldir",
        QML + "QtQuick/Pdf/qmldir",
        QML + "QtQuick/Shapes/DesignHelpers/qmldir",
        QML + "QtTest/qmldir",
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6/Qt/plugins/sqldrivers/libqsqlite.so",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6/Qt/lib/libQt6QuickControls2Material.so.6",
        "libQt6QuickControls2Material.so.6",  # the top-level link to a dropped library goes too
        "libfontconfig.so.1",
        "libglib-2.0.so.0",
        "libX11.so.6",
    ],
)
def test_what_the_app_never_loads_is_dropped(dest):
    assert not keep(dest) and not keep(dest.replace("/", "\\"))


def test_unused_qt_modules_and_build_tools_are_excluded_but_not_what_the_app_imports():
    for name in ("PySide6.QtDesigner", "PySide6.QtPdf", "PySide6.QtQuick3D", "tkinter", "app.packaging"):
        assert name in EXCLUDED_MODULES
    for name in (
        "PySide6.QtWidgets",
        "PySide6.QtQuick",
        "PySide6.QtQml",
        "PySide6.QtSvg",
        "PIL",
        "PIL.Image",
    ):
        assert name not in EXCLUDED_MODULES


def test_the_windows_version_resource_is_an_expression_of_pyinstallers_version_classes():
    """PyInstaller evaluates the version file with its classes in scope (its reader imports Windows-only
    modules, so the same evaluation runs here with recording stand-ins of the same names)."""

    def recorder(kind):
        return lambda *args, **kwargs: {"kind": kind, "args": args, **kwargs}

    names = ("VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct")
    scope = {name: recorder(name) for name in (*names, "VarFileInfo", "VarStruct")}
    info = eval(windows_version_info("0.1.0"), {"__builtins__": {}}, scope)
    assert info["kind"] == "VSVersionInfo"
    assert info["ffi"]["filevers"] == (0, 1, 0, 0) == info["ffi"]["prodvers"]
    strings = {s["args"][0]: s["args"][1] for s in info["kids"][0]["args"][0][0]["args"][1]}
    assert strings["ProductName"] == "ClawQt" and strings["OriginalFilename"] == "clawqt.exe"
    assert strings["FileVersion"] == "0.1.0"


def test_the_size_report_names_what_dominates():
    files = [
        ("_internal/PySide6/Qt/lib/libicudata.so.73", 31),
        ("_internal/PySide6/Qt/lib/libQt6Core.so.6", 7),
        ("_internal/libpython3.11.so.1.0", 5),
        ("_internal/resources/qml/Main.qml", 1),
        ("_internal/something-else", 2),
        ("clawqt", 10),
    ]
    groups = group_sizes(files)
    assert groups[0][0].startswith("ICU data") and groups[0][1] == 31
    assert dict(groups)["Qt libraries"] == 7 and dict(groups)["other"] == 2
    assert sum(size for _name, size in groups) == 56

"""What a ClawQt bundle carries, as rules the spec applies to PyInstaller's analysis and the tests read:
every Python module and Qt part the app uses, nothing the app never loads (Qt Designer, WebEngine, 3D,
Multimedia, Pdf, the virtual keyboard, translations, unused Quick Controls styles, test tools).

Paths are the bundle's destination paths ("PySide6/Qt/qml/QtQuick/Controls/Material/..."), always with
forward slashes: PyInstaller gives native separators, so each rule normalises first."""

from __future__ import annotations

from app.contract.bundled import APP_ID

__all__ = ["APP_ID", "EXCLUDED_MODULES", "keep", "windows_version_info"]

# Python modules never imported at run time (PySide6 modules ClawQt does not use, the build and test
# tools, the optional GUI toolkits some dependencies probe for)
EXCLUDED_MODULES = [
    "app.packaging",
    "tkinter",
    "_tkinter",
    "pytest",
    "hypothesis",
    "PyInstaller",
    "IPython",
    "qtpy",
    # Pillow makes thumbnails (PNG, JPEG, GIF, WebP, BMP, TIFF): no AVIF (its codec is 5 MB), no text
    # drawing (FreeType, HarfBuzz), no colour management, no Tk
    "PIL._avif",
    "PIL.AvifImagePlugin",
    "PIL._imagingft",
    "PIL.ImageFont",
    "PIL._imagingcms",
    "PIL.ImageCms",
    "PIL._imagingtk",
    "PIL.ImageTk",
    "readline",  # the interactive prompt's line editing (and libreadline, libtinfo)
    *(
        f"PySide6.{name}"
        for name in (
            "Qt3DAnimation",
            "Qt3DCore",
            "Qt3DExtras",
            "Qt3DInput",
            "Qt3DLogic",
            "Qt3DRender",
            "QtBluetooth",
            "QtCharts",
            "QtConcurrent",
            "QtDataVisualization",
            "QtDesigner",
            "QtGraphs",
            "QtHelp",
            "QtHttpServer",
            "QtLocation",
            "QtMultimedia",
            "QtMultimediaWidgets",
            "QtNetworkAuth",
            "QtNfc",
            "QtOpenGLWidgets",
            "QtPdf",
            "QtPdfWidgets",
            "QtPositioning",
            "QtPrintSupport",
            "QtQuick3D",
            "QtQuickTest",
            "QtQuickWidgets",
            "QtRemoteObjects",
            "QtScxml",
            "QtSensors",
            "QtSerialBus",
            "QtSerialPort",
            "QtSpatialAudio",
            "QtSql",
            "QtStateMachine",
            "QtSvgWidgets",
            "QtTest",
            "QtTextToSpeech",
            "QtUiTools",
            "QtWebChannel",
            "QtWebEngineCore",
            "QtWebEngineQuick",
            "QtWebEngineWidgets",
            "QtWebSockets",
            "QtWebView",
            "QtXml",
        )
    ),
]

QT = "PySide6/Qt/"

# QML modules the app's QML (and the Quick Controls styles it uses) never import
_DROPPED_QML = (
    "Qt/labs/",
    "QtQml/StateMachine/",
    "QtQml/XmlListModel/",
    "QtQuick/Dialogs/",
    "QtQuick/LocalStorage/",
    "QtQuick/Particles/",
    "QtQuick/Pdf/",
    "QtQuick/Scene2D/",
    "QtQuick/Scene3D/",
    "QtQuick/Timeline/",
    "QtQuick/VirtualKeyboard/",
    "QtQuick/tooling/",
    "QtTest/",
    "QtWayland/Compositor/",
    "QtQuick/Controls/designer/",
    "QtQuick/VectorImage/",
    "QtQuick/Shapes/DesignHelpers/",
    "QtNetwork/",
    "QtCore/",
)
# Quick Controls styles: Basic (what the app's own style, resources/qml/style/ClawQt, is built on and
# falls back to) and its shared impl
_KEPT_STYLES = {"Basic", "impl"}
# Qt plugin folders the app never loads (it is no Designer, SQL, printing or Wayland compositor host)
_DROPPED_PLUGINS = (
    "designer/",
    "qmllint/",
    "qmltooling/",
    "sqldrivers/",
    "printsupport/",
    "wayland-graphics-integration-server/",
    "egldeviceintegrations/",
    "generic/",  # evdev and TUIO input for embedded devices without a windowing system
    "networkinformation/",
    "platforms/libqeglfs",
    "platforms/libqlinuxfb",
    "platforms/libqminimalegl",
    "platforms/libqvkkhrdisplay",
    "platforms/libqvnc",
    "vectorimageformats/",
)
# shared libraries pulled in only by the parts dropped above
_DROPPED_LIBRARIES = (
    "Qt6Designer",
    "Qt6Pdf",
    "Qt6VirtualKeyboard",
    "Qt6Quick3D",
    "Qt6QuickTest",
    "Qt6Test",
    "Qt6Sql",
    "Qt6PrintSupport",
    "Qt6WaylandCompositor",
    "Qt6QuickParticles",
    "Qt6QuickTimeline",
    "Qt6QuickDialogs2",
    "Qt6LabsAnimation",
    "Qt6LabsFolderListModel",
    "Qt6LabsPlatform",
    "Qt6LabsQmlModels",
    "Qt6LabsSettings",
    "Qt6LabsSharedImage",
    "Qt6LabsWavefrontMesh",
    "Qt6StateMachine",
    "Qt6Help",
    "Qt6UiTools",
    "Qt6EglFSDeviceIntegration",
    "Qt6EglFsKmsSupport",
    "Qt6EglFsKmsGbmSupport",
    "Qt6LabsStyleKit",
    "Qt6LabsStyleKitImpl",
    "Qt6LabsSynchronizer",
    "Qt6QmlLocalStorage",
    "Qt6QmlXmlListModel",
    "Qt6QuickControls2Imagine",
    "Qt6QuickControls2ImagineStyleImpl",
    "Qt6QuickControls2Material",
    "Qt6QuickControls2MaterialStyleImpl",
    "Qt6QuickControls2Universal",
    "Qt6QuickControls2UniversalStyleImpl",
    "Qt6QuickDialogs2QuickImpl",
    "Qt6QuickDialogs2Utils",
    "Qt6QuickShapesDesignHelpers",
    "Qt6QuickTimelineBlendTrees",
    "Qt6QuickVectorImage",
    "Qt6QuickVectorImageGenerator",
    "Qt6QuickVectorImageHelpers",
    "Qt6QuickControls2FluentWinUI3StyleImpl",
    "Qt6QuickControls2WindowsStyleImpl",
    "Qt6QuickControls2MacOSStyleImpl",
    "Qt6QuickControls2IOSStyleImpl",
)


# Libraries of the desktop itself (Linux): every desktop that runs Qt has them, the PySide6 wheels
# expect them from the system too, and a bundled copy can disagree with the system's configuration and
# modules (fontconfig's cache format, GIO modules, D-Bus, the X server's extensions). Taken from the
# machine, like libc and libGL (which PyInstaller never bundles).
_SYSTEM_LIBRARIES = (
    "libX11.",
    "libX11-xcb.",
    "libXau.",
    "libXdmcp.",
    "libXext.",
    "libXrender.",
    "libxcb.so",
    "libxcb-glx.",
    "libxcb-randr.",
    "libxcb-render.",
    "libxcb-shape.",
    "libxcb-shm.",
    "libxcb-sync.",
    "libxcb-xfixes.",
    "libxcb-xkb.",
    "libfontconfig.",
    "libfreetype.",
    "libharfbuzz.",
    "libpng16.",
    "libjpeg.",
    "libexpat.",
    "libglib-2.0.",
    "libgio-2.0.",
    "libgobject-2.0.",
    "libgmodule-2.0.",
    "libgthread-2.0.",
    "libdbus-1.",
    "libsystemd.",
    "libselinux.",
    "libmount.",
    "libblkid.",
    "libpcre2-8.",
    "libuuid.",
    "libcap.",
    "libgcrypt.",
    "libgpg-error.",
    "liblz4.",
    "libzstd.",
    "libbsd.",
    "libmd.",
    "libcairo.",
    "libcairo-gobject.",
    "libpango-1.0.",
    "libpangocairo-1.0.",
    "libpangoft2-1.0.",
    "libpixman-1.",
    "libgdk_pixbuf-2.0.",
    "libatk-1.0.",
    "libthai.",
    "libdatrie.",
    "libfribidi.",
    "libgraphite2.",
    "libgssapi_krb5.",
    "libkrb5.",
    "libkrb5support.",
    "libk5crypto.",
    "libcom_err.",
    "libkeyutils.",
)


def _system_library(path: str) -> bool:
    """A desktop library at the bundle's top level (the wheels' own copies live in their folders)."""
    return "/" not in path.split("_internal/", 1)[-1] and path.startswith(_SYSTEM_LIBRARIES)


def _path(dest: str) -> str:
    return dest.replace("\\", "/")


def _dropped_qt_part(path: str) -> bool:
    if path.startswith(QT + "translations/"):
        return True  # ClawQt's own text is English; Qt's translations are never loaded
    if path.startswith(QT + "qml/"):
        qml = path[len(QT + "qml/") :]
        if qml.startswith(_DROPPED_QML):
            return True
        if qml.startswith("QtQuick/Controls/"):
            style = qml[len("QtQuick/Controls/") :].split("/", 1)
            return len(style) == 2 and style[0] not in _KEPT_STYLES
        return False
    if path.startswith(QT + "plugins/"):
        return path[len(QT + "plugins/") :].startswith(_DROPPED_PLUGINS)
    return False


def _dropped_library(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(f"lib{library}." in name or name.startswith(f"{library}.") for library in _DROPPED_LIBRARIES)


def keep(dest: str) -> bool:
    """Whether a library, plugin, data file or symlink PyInstaller collected goes into the bundle (a
    symlink to a dropped library goes with it: a dangling link would be worse than none)."""
    path = _path(dest)
    return not (_dropped_qt_part(path) or _dropped_library(path) or _system_library(path))


def windows_version_info(version: str) -> str:
    """The Windows VERSIONINFO resource (PyInstaller's version-file syntax) for `version` ("0.1.0")."""
    numbers = [*(int(part) for part in version.split(".")[:4] if part.isdigit()), 0, 0, 0, 0][:4]
    as_tuple = tuple(numbers)
    strings = {
        "CompanyName": "ClawQt",
        "FileDescription": "ClawQt - a desktop chat client for ACP agents",
        "FileVersion": version,
        "InternalName": "clawqt",
        "LegalCopyright": "MIT License",
        "OriginalFilename": "clawqt.exe",
        "ProductName": "ClawQt",
        "ProductVersion": version,
    }
    entries = ",\n".join(f"          StringStruct('{key}', '{value}')" for key, value in strings.items())
    return f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={as_tuple}, prodvers={as_tuple}, mask=0x3f, flags=0x0, OS=0x40004,
                    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
{entries}
    ])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""

"""What desktops read from resources/: the .desktop entry (freedesktop Desktop Entry spec), the
AppStream metadata, and the icon files made from the one SVG (sizes as named)."""

from __future__ import annotations

import configparser
import xml.etree.ElementTree as ElementTree

import pytest
from PIL import Image

from app.contract.bundled import APP_ID, app_icon
from app.packaging.icons import ICO_SIZES, PNG_SIZES, render_png
from tests.paths import REPO

DESKTOP = REPO / "resources" / "desktop"
ICONS = REPO / "resources" / "icons"


def test_the_desktop_entry_has_what_the_spec_requires_and_names_the_icon_and_program():
    entry = configparser.ConfigParser(interpolation=None, strict=True)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(DESKTOP / f"{APP_ID}.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application" and section["Name"] == "ClawQt"
    assert section["Icon"] == APP_ID and section["Exec"].split()[0] == section["TryExec"] == "clawqt"
    assert section["Terminal"] == "false" and section["StartupWMClass"] == "clawqt"
    for key in ("Categories", "Keywords"):
        assert section[key].endswith(";")  # lists end with a semicolon
    assert set(section["Categories"].rstrip(";").split(";")) <= {"Development", "Utility", "Network", "Chat"}


def test_the_appstream_metadata_names_the_app_its_entry_and_its_binary():
    root = ElementTree.parse(DESKTOP / f"{APP_ID}.metainfo.xml").getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == f"{APP_ID}.desktop"
    assert root.find("provides/binary").text == "clawqt"
    assert root.findtext("metadata_license") == "CC0-1.0" and root.findtext("project_license") == "MIT"
    assert len(root.findtext("summary")) < 80 and root.find("description/p") is not None


@pytest.mark.parametrize("size", PNG_SIZES)
def test_each_hicolor_png_has_its_size_and_is_drawn(size):
    with Image.open(ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png") as image:
        assert image.size == (size, size)
        assert len(image.convert("RGBA").getcolors(maxcolors=1 << 16) or ()) > 3  # not blank or one colour


def test_the_windows_and_macos_icons_hold_their_sizes():
    with Image.open(ICONS / "clawqt.ico") as ico:
        assert {(s, s) for s in ICO_SIZES} <= set(ico.info["sizes"])
    with Image.open(ICONS / "clawqt.icns") as icns:
        assert (512, 512) in icns.info["sizes"] or max(icns.info["sizes"])[0] >= 256


def test_the_scalable_icon_is_the_apps_own_svg_and_qt_draws_it(qapp):
    assert (ICONS / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").read_bytes() == app_icon().read_bytes()
    png = render_png(app_icon(), 32)
    assert png.startswith(b"\x89PNG")

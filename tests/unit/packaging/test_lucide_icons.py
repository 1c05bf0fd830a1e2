"""Every icon a view names is one of the Lucide SVGs shipped in resources/icons/lucide (an unknown name
would draw nothing), and the shipped set carries Lucide's licence and no icon no view uses."""

from __future__ import annotations

from app.packaging.lucide import icons_in_qml, used_icons
from app.renderer.qt.main_window import qml_dir
from tests.paths import REPO

LUCIDE = REPO / "resources" / "icons" / "lucide"


def test_every_icon_a_view_names_is_shipped_and_nothing_else_is():
    used = used_icons(qml_dir())
    shipped = {path.stem for path in LUCIDE.glob("*.svg")}
    assert len(used) > 40  # the scan found the views' icons
    assert used - shipped == set()  # `python -m app.packaging lucide` copies them
    assert shipped - used == set()
    assert "ISC License" in (LUCIDE / "LICENSE").read_text()


def test_the_scan_reads_conditions_over_lines_and_skips_what_is_compared():
    qml = """
        IconLabel { icon: "copy"; label: "Copy" }
        Icon { icon: kind === "terminal" ? "terminal"
                     : kind === "env_var" ? "key" : "globe" }
        Text { text: "not-an-icon" }
        function sharingIcon(mode) {
            return mode === "shared" ? "radio" : "eye-off"
        }
    """
    assert icons_in_qml(qml) == {"copy", "terminal", "key", "globe", "radio", "eye-off"}

"""The design system is applied everywhere: no QML file but Theme.qml writes its own colour, spacing,
margin, padding, corner radius or text size. A literal there is a look that a theme change, the text
size setting or dark mode cannot reach; 0 and 1 stay allowed (nothing, and a hairline)."""

from __future__ import annotations

import re

from tests.paths import REPO

QML = REPO / "resources" / "qml"
THEME = "Theme.qml"

_METRIC = re.compile(
    r"\b(?:spacing|rowSpacing|columnSpacing|padding|(?:left|right|top|bottom|horizontal|vertical)Padding"
    r"|(?:anchors\.)?(?:margins|(?:left|right|top|bottom)Margin)|Layout\.(?:left|right|top|bottom)?Margins?"
    r"|radius|font\.pixelSize|font\.pointSize|iconSize)\s*:\s*(-?\d+(?:\.\d+)?)\b"
)
# a position, or a size grown or shrunk by a number, is a padding written out
_POSITION = re.compile(r"(?<![.\w])(?:x|y)\s*:\s*(\d+)\b(?!\s*\*)")
_SIZED = re.compile(r"(?<![.\w])(?:implicitHeight|implicitWidth|width|height|x|y)\s*:")
_ARITHMETIC = re.compile(r"[-+]\s*(?:\d+\s*\*\s*)?(\d+)\b(?!\s*\*)|\?\s*(\d+)\s*:|:\s*(\d+)\s*$")
_SCALED_LITERAL = re.compile(r"Math\.round\(\s*\d+(?:\.\d+)?\s*\*\s*Theme\.fontScale\s*\)")
_COLOUR = re.compile(r"""["'](?:#[0-9a-fA-F]{3,8}|white|black|red|green|blue|gr[ae]y|yellow|orange)["']""")
_ALLOWED = {"0", "1"}
SIZE = 100  # a number added to a size from here on is a size (a dialog's height), not a spacing


def design_literals(text: str) -> list[str]:
    """Each literal look in one QML text, as `line N: the code`."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("//", 1)[0]
        literal = [m.group(0) for m in _METRIC.finditer(code) if m.group(1) not in _ALLOWED]
        literal += [m.group(0) for m in _POSITION.finditer(code) if m.group(1) not in _ALLOWED]
        for sized in _SIZED.finditer(code):
            expression = re.split(r"[;}]", code[sized.end() :], maxsplit=1)[0]
            for m in _ARITHMETIC.finditer(expression):
                value = next(group for group in m.groups() if group)
                if value not in _ALLOWED and int(value) < SIZE and (m.group(1) or "?" in expression):
                    literal.append(f"{sized.group(0)} ... {m.group(0).strip(': ')}")
        literal += _SCALED_LITERAL.findall(code) + _COLOUR.findall(code)
        if literal:
            found.append(f"line {number}: {', '.join(literal)}")
    return found


def test_every_view_takes_its_colours_spacing_radii_and_text_sizes_from_the_theme():
    files = sorted(p for p in QML.rglob("*.qml") if p.name != THEME)
    assert len(files) > 20  # the glob found the views
    literals = {p.name: design_literals(p.read_text()) for p in files}
    assert {name: found for name, found in literals.items() if found} == {}


def test_the_check_sees_each_kind_of_literal_and_lets_the_theme_and_hairlines_through():
    assert design_literals("spacing: 6\nanchors.leftMargin: 4\nradius: 9; color: '#ffffff'") == [
        "line 1: spacing: 6",
        "line 2: anchors.leftMargin: 4",
        "line 3: radius: 9, '#ffffff'",
    ]
    assert design_literals('color: "white"; border.color: "transparent"') == ['line 1: "white"']
    assert design_literals("font.pixelSize: Math.round(9 * Theme.fontScale)") == [
        "line 1: Math.round(9 * Theme.fontScale)"
    ]
    assert design_literals("Layout.topMargin: 3\npadding: 12") == [
        "line 1: Layout.topMargin: 3",
        "line 2: padding: 12",
    ]
    assert design_literals("x: 44; y: 4\nimplicitHeight: body.implicitHeight + 2 * 12") == [
        "line 1: x: 44, y: 4",
        "line 2: implicitHeight: ... + 2 * 12",
    ]
    assert design_literals("height: shown ? a.height + 16 : 12\ny: first ? 12 : Theme.gap") == [
        "line 1: height: ... + 16, height: ... 12",
        "line 2: y: ... ? 12",
    ]
    sizes = "width: Math.min(560, parent.width - 2 * Theme.pad); height: 18\nx: 1; y: -height - Theme.gap\n"
    assert design_literals(sizes + "width: root.width * 0.75; implicitWidth: 24") == []
    assert design_literals("border.width: pending ? 2 : 1\ny: 2 * Theme.gap; anchors.x: 4") == []
    allowed = "spacing: 0; border.width: 1\nanchors.topMargin: 1\nradius: Theme.radius  // radius: 4\n"
    assert design_literals(allowed + "padding: Theme.pad * 2\ncolor: Theme.shadow") == []

"""Every text colour of the theme is readable on every surface it is drawn on, in light and in dark:
WCAG 2.1's contrast ratio computed from Theme.qml's own values (4.5:1 for text, 3:1 for the parts of a
control one must see to use it). A translucent colour (hover, selected) is laid over the surface under
it first, as the screen does."""

from __future__ import annotations

import re

import pytest

from app.contract.appearance import ACCENTS
from tests.paths import REPO

THEME = REPO / "resources" / "qml" / "common" / "Theme.qml"
_COLOUR = re.compile(r'"(#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?)"')
_PROPERTY = re.compile(r"^\s*readonly property color (\w+):\s*(.+?)\s*(?://.*)?$")

TEXT, UI = 4.5, 3.0
SURFACES = ("canvas", "surface", "sunken", "sidebar", "raised", "cardHeader", "bubble")
# (foreground, background, minimum); a background "a over b" is a translucent a laid on b
PAIRS = (
    *((fg, bg, TEXT) for fg in ("text", "text2", "muted") for bg in SURFACES),
    *(
        ("text", f"{layer} over {bg}", TEXT)
        for layer in ("hover", "selected")
        for bg in ("canvas", "sidebar")
    ),
    *(
        ("muted", f"{layer} over {bg}", TEXT)
        for layer in ("hover", "selected")
        for bg in ("sidebar", "raised")
    ),
    ("text", "selected over raised", TEXT),
    ("accentText", "canvas", TEXT),
    ("accentText", "surface", TEXT),
    ("accentText", "accentSubtle", TEXT),
    ("text", "accentSubtle", TEXT),
    ("textOnAccent", "accent", TEXT),
    ("textOnAccent", "accentHover", TEXT),
    ("textOnWarning", "warning", TEXT),
    ("tooltipText", "tooltip", TEXT),
    ("searchText", "searchMatch", TEXT),
    ("searchText", "searchCurrent", TEXT),
    *((state, bg, TEXT) for state in ("success", "warning", "danger") for bg in ("canvas", "surface")),
    ("success", "successSubtle", TEXT),
    ("warning", "warningSubtle", TEXT),
    ("danger", "dangerSubtle", TEXT),
    ("text", "warningSubtle", TEXT),
    ("text", "dangerSubtle", TEXT),
    ("terminalText", "terminalBackground", TEXT),
    ("terminalMuted", "terminalBackground", TEXT),
    # what one must see to use a control: the focus ring, a switch that is on, a disabled label
    ("accent", "canvas", UI),
    ("accent", "surface", UI),
    ("disabled", "canvas", UI),
    ("disabled", "surface", UI),
)


def theme_colours(text: str, dark: bool) -> dict[str, str]:
    """name -> "#aarrggbb" or "#rrggbb" for one scheme; a colour named after another takes its value."""
    colours: dict[str, str] = {}
    for line in text.splitlines():
        match = _PROPERTY.match(line)
        if not match:
            continue
        name, value = match.groups()
        literals = _COLOUR.findall(value)
        if len(literals) == 2 and value.startswith("dark ?"):
            colours[name] = literals[0] if dark else literals[1]
        elif len(literals) == 1:
            colours[name] = literals[0]
        elif value in colours:
            colours[name] = colours[value]
    return colours


def _rgba(colour: str) -> tuple[float, float, float, float]:
    digits = colour.lstrip("#")
    alpha = int(digits[:2], 16) / 255 if len(digits) == 8 else 1.0
    rgb = digits[-6:]
    return int(rgb[0:2], 16) / 255, int(rgb[2:4], 16) / 255, int(rgb[4:6], 16) / 255, alpha


def _over(top: str, under: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b, a = _rgba(top)
    return (a * r + (1 - a) * under[0], a * g + (1 - a) * under[1], a * b + (1 - a) * under[2])


def _resolve(name: str, colours: dict[str, str]) -> tuple[float, float, float]:
    """A name, or "a over b": the colour as it shows on the screen (opaque)."""
    layers = name.split(" over ")
    shown = _over(colours[layers[-1]], (1.0, 1.0, 1.0))
    for layer in reversed(layers[:-1]):
        shown = _over(colours[layer], shown)
    return shown


def _luminance(rgb: tuple[float, float, float]) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: tuple[float, float, float], bg: tuple[float, float, float]) -> float:
    light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


ACCENT_ROLES = ("accent", "accentHover", "accentText", "accentSubtle")


def with_accent(colours: dict[str, str], accent: str) -> dict[str, str]:
    """The theme as it is with `accent` picked: each accent role takes that accent's value."""
    suffix = accent.capitalize()
    return {**colours, **{role: colours[f"{role}{suffix}"] for role in ACCENT_ROLES}}


@pytest.mark.parametrize("accent", ACCENTS)
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_text_colour_is_readable_on_every_surface_it_meets(dark, accent):
    colours = with_accent(theme_colours(THEME.read_text(), dark), accent)
    assert {"canvas", "text", "muted", "accent", "warningSubtle"} <= colours.keys()  # the parser read them
    low = {}
    for fg, bg, minimum in PAIRS:
        ratio = contrast(_over(colours[fg], _resolve(bg, colours)), _resolve(bg, colours))
        if ratio < minimum:
            low[f"{fg} on {bg}"] = round(ratio, 2)
    assert low == {}


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_white_initials_read_on_every_avatar_colour(dark):
    avatars = re.search(r"avatarColours: \[(.*?)\]", THEME.read_text(), re.S)
    assert avatars
    for colour in _COLOUR.findall(avatars.group(1)):
        assert contrast((1.0, 1.0, 1.0), _resolve("x", {"x": colour})) >= TEXT, colour


def test_the_measure_matches_wcag_and_sees_a_pair_too_faint():
    assert round(contrast((0, 0, 0), (1, 1, 1)), 1) == 21.0
    assert round(contrast(_resolve("x", {"x": "#767676"}), (1, 1, 1)), 2) == 4.54  # WCAG's lightest AA grey
    faint = theme_colours('readonly property color muted: dark ? "#444444" : "#bbbbbb"', dark=False)
    assert contrast(_resolve("muted", faint), (1, 1, 1)) < TEXT
    layered = {"hover": "#0d000000", "canvas": "#ffffff"}
    assert _resolve("hover over canvas", layered) == pytest.approx((242 / 255,) * 3, abs=0.002)

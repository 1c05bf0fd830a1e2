"""Each ANSI colour reads on the screen it is drawn on: the dark palette on the dark screen, the light
palette on the light theme's well (WCAG 3:1 at least, the bar for large and bold text and UI parts;
terminal colour is mostly that: status words, prompts, file names), and both palettes name the same
colours."""

from __future__ import annotations

from app.renderer.terminal.runs import LIGHT_PALETTE, PALETTE
from tests.unit.architecture.test_contrast import THEME, _resolve, contrast, theme_colours


def test_every_ansi_colour_reads_on_its_screen_in_both_themes():
    assert LIGHT_PALETTE.keys() == PALETTE.keys()
    for dark, palette in ((True, PALETTE), (False, LIGHT_PALETTE)):
        colours = {**theme_colours(THEME.read_text(), dark), **palette}
        faint = {
            name: round(ratio, 2)
            for name in palette
            if (ratio := contrast(_resolve(name, colours), _resolve("terminalBackground", colours))) < 3
            and not (dark and name == "black")  # black on a dark screen is drawn as a background
        }
        assert faint == {}, (dark, faint)

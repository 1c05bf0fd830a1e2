"""Terminal output as a screen would show it: escape sequences applied by a VT emulator (pyte), not
stripped blindly, so carriage returns, cursor moves and clears produce what a user saw."""

from __future__ import annotations

MAX_LINES = 10_000


def render_screen(output: str, columns: int = 120) -> str:
    """The final text of `output` fed to a terminal `columns` wide and tall enough to keep it all."""
    if not output:
        return ""
    import pyte  # loaded with the first terminal rendered, not with the timeline

    lines = min(MAX_LINES, max(24, output.count("\n") + 2))
    screen = pyte.Screen(columns, lines)
    screen.set_mode(pyte.modes.LNM)  # agents send bare LF: treat it as CR LF like a tty would
    stream = pyte.Stream(screen)
    stream.feed(output)
    rendered = [line.rstrip() for line in screen.display]
    while rendered and not rendered[-1]:
        rendered.pop()
    return "\n".join(rendered)

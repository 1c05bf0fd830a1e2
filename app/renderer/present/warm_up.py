"""What the first reply shown needs, made ahead on a worker thread once the window is up: the Markdown
parsers (markdown-it, its plugins and linkify, imported on the first render, not before the first
frame: an empty chat needs none of them) and the question titles' grapheme patterns (the `regex`
module). Left to the first reply, importing them stalled the window while that reply streamed in.
Imports take Python's import lock, so a render that needs one of them meanwhile waits for it rather
than importing it twice."""

from __future__ import annotations

from app.renderer.markdown.render import parser
from app.renderer.timeline.questions import truncate_graphemes


def warm_up() -> None:
    """Build both parsers and the title patterns (each is kept: a second call costs nothing)."""
    parser(True).parse("warm *up*")
    parser(False).parse("warm https://example.com")
    truncate_graphemes("x" * 80)

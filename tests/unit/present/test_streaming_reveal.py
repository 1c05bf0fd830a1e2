"""A streaming reply's burst is revealed over several refreshes (bounded layout per frame), and in the end
everything is shown, also when the turn ended meanwhile."""

from __future__ import annotations

from app.renderer.present.presenter import Presenter


def test_a_streaming_burst_is_revealed_over_several_refreshes_never_all_in_one():
    """A thousand chunks between two frames must not become one frame laying out a megabyte."""
    from app.renderer.present.presenter import REVEAL_CHARS
    from app.renderer.timeline.items import MessageSegment
    from app.renderer.timeline.parts import MarkdownPart

    presenter = Presenter()
    words = "lorem ipsum dolor sit amet " * 4000  # ~108 KB, one endless paragraph
    segment = MessageSegment(id="m:0", role="assistant", message_id="m")
    segment.parts.append(MarkdownPart([words]))

    def shown(blocks) -> int:
        return sum(len(b.html) for b in blocks)

    first = presenter.blocks_for(segment, live=True)
    assert "m:0" in presenter.rows_behind and shown(first) < REVEAL_CHARS * 2
    steps, previous = 1, shown(first)
    while "m:0" in presenter.rows_behind:
        live = steps < 2  # the turn ends while the burst is still being revealed
        now = shown(presenter.blocks_for(segment, live=live))
        assert now > previous  # every refresh shows more
        previous, steps = now, steps + 1
    assert steps >= len(words) // REVEAL_CHARS  # spread over several refreshes
    final = "".join(b.html for b in presenter.blocks_for(segment, live=False))
    assert final.count("lorem") == 4000  # and in the end everything is shown

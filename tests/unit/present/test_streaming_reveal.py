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
        presenter.frame_drawn()
        now = shown(presenter.blocks_for(segment, live=live))
        assert now > previous  # every refresh shows more
        previous, steps = now, steps + 1
    assert steps >= len(words) // REVEAL_CHARS  # spread over several refreshes
    presenter.frame_drawn()
    final = "".join(b.html for b in presenter.blocks_for(segment, live=False))
    assert final.count("lorem") == 4000  # and in the end everything is shown


def test_one_slice_per_frame_whichever_refresh_asks_first():
    """A flush and the reveal after a frame both rebuilding the row before the next frame is drawn
    show one slice between them: two would lay out twice the budget in one frame."""
    from app.renderer.timeline.items import MessageSegment
    from app.renderer.timeline.parts import MarkdownPart

    presenter = Presenter(reveal_chars=1_000)
    segment = MessageSegment(id="m:0", role="assistant", message_id="m")
    segment.parts.append(MarkdownPart(["word " * 2_000]))

    def shown() -> int:
        return sum(b.html.count("word") for b in presenter.blocks_for(segment, live=True))

    first = shown()
    assert 0 < first <= 200 and "m:0" in presenter.rows_behind
    assert shown() == first and shown() == first  # the same frame: nothing more, still behind
    assert "m:0" in presenter.rows_behind
    presenter.frame_drawn()
    second = shown()
    assert first < second <= first + 200
    presenter.frame_drawn()
    presenter.reveal_chars = 20_000
    assert shown() == 2_000 and "m:0" not in presenter.rows_behind  # the rest fits: all of it


def test_the_next_reveal_is_sized_to_what_the_last_one_cost():
    """A reveal that took twice the budget is followed by a smaller one, a cheap one by a larger one
    (halfway each time: one costly table does not swing it), never past the limits; a presenter
    reveals what it is told."""
    from app.renderer.present.presenter import REVEAL_BUDGET_S, REVEAL_LIMITS, next_reveal_chars

    assert next_reveal_chars(8_000, 2 * REVEAL_BUDGET_S) == 6_000
    assert next_reveal_chars(8_000, REVEAL_BUDGET_S) == 8_000
    assert next_reveal_chars(8_000, REVEAL_BUDGET_S / 2) == 12_000
    assert next_reveal_chars(1_200, 1.0) == REVEAL_LIMITS[0]
    assert next_reveal_chars(15_000, 0.0) == REVEAL_LIMITS[1]

    from app.renderer.timeline.items import MessageSegment
    from app.renderer.timeline.parts import MarkdownPart

    presenter = Presenter(reveal_chars=1_000)
    segment = MessageSegment(id="m:0", role="assistant", message_id="m")
    segment.parts.append(MarkdownPart(["word " * 1_000]))
    blocks = presenter.blocks_for(segment, live=True)
    assert 900 < sum(b.html.count("word") * 5 for b in blocks) <= 1_000

"""A burst of a reply (chunks faster than frames) is shown a slice per frame, each slice sized by what
the one before cost the window (building and laying it out), and in the end shown whole."""

from __future__ import annotations

from app.renderer.present.presenter import REVEAL_CHARS, REVEAL_LIMITS
from tests.conftest import scripted_agent_argv
from tests.ui_harness import shown_texts


def test_a_burst_is_revealed_in_slices_sized_to_their_cost_and_shown_whole(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        presenter = objects.model.views.presenter
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        objects.turn.send("blast 2000")  # ~400 KB as fast as the pipe takes it: 2,000 numbered chunks
        await ui.until(lambda: ended, 60)
        objects.model.flush()
        await ui.until(lambda: not presenter.rows_behind, 60)
        low, high = REVEAL_LIMITS
        assert presenter.reveal_chars != REVEAL_CHARS and low <= presenter.reveal_chars <= high
        await ui.until(lambda: any("1999:lorem" in t for t in shown_texts(window, "proseText")))

    ui.run(scenario(), 120)


def test_a_burst_shows_one_slice_between_two_frames_revealed_after_the_frame_not_inside_it(ui):
    """Between two frames the reply grows by one slice at most (a flush and the reveal after a frame
    do not both cut one), and the reveal runs once the loop had its turn after the frame was drawn:
    input, timers and the agent's output wait for one slice, not for the frame and a slice."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        presenter = objects.model.views.presenter
        growth: list[tuple[int, int]] = []  # (characters shown since the last frame, the slice size)
        last = [0, presenter.reveal_chars]

        def frame() -> None:
            shown = max(presenter._revealed.values(), default=0)
            if shown > last[0]:
                growth.append((shown - last[0], max(last[1], presenter.reveal_chars)))
            last[:] = [shown, presenter.reveal_chars]

        window.root.frameSwapped.connect(frame)
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        objects.turn.send("blast 2000")
        await ui.until(lambda: presenter.rows_behind, 60)
        before = dict(presenter._revealed)
        objects.scheduler.after_frame()
        assert presenter._revealed == before  # nothing revealed inside the frame's own signal
        await ui.until(lambda: presenter._revealed != before or not presenter.rows_behind, 60)
        await ui.until(lambda: ended, 60)
        objects.model.flush()
        await ui.until(lambda: not presenter.rows_behind, 60)
        window.root.frameSwapped.disconnect(frame)
        sliced = [(grown, size) for grown, size in growth if grown > 100]
        assert len(sliced) >= 3
        assert all(grown <= size for grown, size in sliced), sliced

    ui.run(scenario(), 120)

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
    """Between two frames a reply shows one slice of a burst at most (a flush and the reveal after a
    frame do not both cut one), and the reveal runs once the loop had its turn after the frame was
    drawn: input, timers and the agent's output wait for one slice, not for the frame and a slice."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        presenter = objects.model.views.presenter
        build = presenter.blocks_for
        slices: list[int] = [0]  # slices cut since the last frame
        per_frame: list[int] = []

        def counted(item, live=False):
            before = presenter._revealed.get(item.id, 0)
            blocks = build(item, live)
            if item.id in presenter.rows_behind and presenter._revealed.get(item.id, 0) > before:
                slices[0] += 1
            return blocks

        def frame() -> None:
            per_frame.append(slices[0])
            slices[0] = 0

        presenter.blocks_for = counted
        window.root.frameSwapped.connect(frame)
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        objects.turn.send("blast 2000")
        await ui.until(lambda: presenter.rows_behind, 60)
        before = dict(presenter._revealed)
        frame()  # told of a frame here as if one was drawn: a slice may follow before the next
        objects.scheduler.after_frame()
        assert presenter._revealed == before  # nothing revealed inside the frame's own signal
        await ui.until(lambda: presenter._revealed != before or not presenter.rows_behind, 60)
        await ui.until(lambda: ended, 60)
        objects.model.flush()
        await ui.until(lambda: not presenter.rows_behind, 60)
        window.root.frameSwapped.disconnect(frame)
        assert sum(per_frame) >= 3  # the burst was shown in slices
        assert max(per_frame) == 1, per_frame

    ui.run(scenario(), 120)

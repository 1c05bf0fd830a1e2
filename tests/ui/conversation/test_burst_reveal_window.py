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

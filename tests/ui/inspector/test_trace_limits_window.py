"""Open trace… with traces made to be costly, in the real window: 20,000 sessions open showing the last
1,000 opened and saying how many are not shown; a trace with a line of 200 MB opens and says the line
was not read; one of 50 MB is parsed and shown. How long they take and the window's longest stall
meanwhile (building the sessions was quadratic; the long line was parsed in one go, holding the window
0.6-2.8 s) are bench/trace_open.py's figures."""

from __future__ import annotations

from pathlib import Path

from bench.trace_files import many_sessions, one_long_line
from tests.conftest import scripted_agent_argv
from tests.ui.inspector.test_trace_view_window import _choose, _open_inspector, shown_open_dialog
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import user_texts


async def _open(ui, window, trace: Path, reply: bool = True) -> None:
    """Open trace… through the desktop's dialog until the banner (and the reply) shows."""
    await _open_inspector(ui, window)
    await mouse_click(ui, window, "inspectorOpen")
    dialog = await ui.until(shown_open_dialog, 30)
    _choose(dialog, trace)
    banner = ui.item(window, "traceBanner")
    await ui.until(lambda: banner.isVisible() and ui.item(window, "traceSummary").property("text"), 200)
    if reply:
        await ui.until(lambda: "assistant-text" in ui.kinds(window), 30)


def test_a_trace_of_20000_sessions_opens_with_the_last_1000(ui, tmp_path):
    trace = many_sessions(tmp_path / "many.jsonl", 20_000)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await _open(ui, window, trace)
        assert user_texts(objects) == ["hello 19999"]  # the session the recording ended on
        assert objects.trace_view.count == 1000
        summary = ui.item(window, "traceSummary").property("text")
        assert "session 1,000 of 1,000 · 19,000 earlier sessions not shown" in summary
        await mouse_click(ui, window, "tracePrevious")
        await ui.until(lambda: user_texts(objects) == ["hello 19998"], 30)

    ui.run(scenario(), timeout=240)


def test_a_trace_with_a_line_of_200_mb_opens_and_says_what_it_skipped(ui, tmp_path):
    """A line of 200 MB is not read (making its text alone holds the window); one of 50 MB is parsed in
    short steps and shown."""
    longest = one_long_line(tmp_path / "longest.jsonl", 200)
    long = one_long_line(tmp_path / "long.jsonl", 50)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await _open(ui, window, longest, reply=False)
        summary = ui.item(window, "traceSummary").property("text")
        said = "1 line over 64 MB not read (the longest 200 MB; clawqt replay reads any)"
        assert summary == f"read-only: nothing here reaches an agent · {said}"  # (not also "not applied")
        assert user_texts(objects) == ["hello 0"] and "assistant-text" not in ui.kinds(window)

        await mouse_click(ui, window, "traceClose")
        await ui.until(lambda: not objects.session.readOnly)
        await _open(ui, window, long)
        assert user_texts(objects) == ["hello 0"] and objects.trace_view.name == "long.jsonl"

    ui.run(scenario(), timeout=240)

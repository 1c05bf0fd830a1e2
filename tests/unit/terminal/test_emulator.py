"""The card's emulator and how the presenter drives it: colour runs, every line kept for Copy, a
scrollback the garbage collector does not walk, and output progress that never rebuilds a card."""

from __future__ import annotations

import gc

from app.contract.envelopes import SessionUpdateEnvelope
from app.renderer.present.presenter import Presenter
from app.renderer.present.tool_card import tool_entry
from app.renderer.terminal.emulator import HISTORY_LINES, TerminalEmulator, line_runs
from app.renderer.terminal.runs import runs_text
from app.renderer.terminal.screens import TerminalScreens
from app.renderer.timeline.items import TerminalState, ToolCall
from app.renderer.timeline.reducer import Timeline


def _emulated(text: str) -> TerminalEmulator:
    state = TerminalState("T")
    state.append(text)
    emulator = TerminalEmulator()
    emulator.feed_all(state)
    return emulator


def test_ls_color_becomes_coloured_runs_and_the_text_keeps_its_spacing():
    emulator = _emulated("\x1b[1;34mdir\x1b[0m  \x1b[1;32mrun.sh\x1b[0m  notes.txt\n")
    [runs] = emulator.runs(0, 1)
    assert runs[0] == (0, "dir", "blue", True)  # a palette name: the theme says its value
    assert runs[1] == (5, "run.sh", "green", True)
    assert runs[2][1:] == ("notes.txt", None, False) and runs[2][0] == 13
    assert runs_text(runs) == "dir  run.sh  notes.txt"


def test_carriage_return_progress_and_clears_leave_only_the_final_screen():
    emulator = _emulated("building 10%\rbuilding 55%\rbuilding 100%\nold\x1b[2K\rnew\n")
    assert emulator.text() == "building 100%\nnew"


def test_reverse_video_and_truecolour_map_to_colours():
    emulator = _emulated("\x1b[7;31;42mX\x1b[0m \x1b[38;2;255;0;128mY\x1b[0m\n")
    [runs] = emulator.runs(0, 1)
    assert runs[0][2] == "green"  # reverse: the background colour draws the glyph
    assert runs[1][1:3] == ("Y", "#ff0080")


def test_every_line_is_kept_for_copy_beyond_the_old_3000_line_window():
    emulator = _emulated("".join(f"line {i}\n" for i in range(5000)))
    text = emulator.text().splitlines()
    assert len(text) == 5000 and text[0] == "line 0" and text[-1] == "line 4999"
    assert emulator.line_count() == 5000
    assert emulator.visible_text(4997, 10) == "line 4997\nline 4998\nline 4999"
    assert HISTORY_LINES >= 50_000  # the store's 2 M-char cap is reached before the scrollback's


def test_scrollback_is_plain_tuples_the_garbage_collector_stops_tracking():
    """200k tracked pyte cells made each full collection a 50-100 ms GUI stall while streaming."""
    emulator = _emulated("".join(f"\x1b[32mINFO\x1b[0m item {i}\n" for i in range(2000)))
    gc.collect()
    gc.collect()  # a line is untracked in the pass after its runs are
    history = list(emulator.screen.scrolled)
    assert len(history) > 1900
    assert not any(gc.is_tracked(line) for line in history)
    assert not any(gc.is_tracked(run) for line in history[:100] for run in line)


def test_line_runs_skip_blank_runs_and_trailing_blanks():
    emulator = _emulated("a   \x1b[41m   \x1b[0m   b   \n")
    [runs] = emulator.runs(0, 1)
    assert [(run[0], run[1]) for run in runs] == [(0, "a"), (10, "b")]
    assert line_runs({}) == []


def _tool_with_terminal(output: str) -> ToolCall:
    tool = ToolCall("tool:t1", tool_call_id="t1", title="cat big.log", terminal_ids=("term-1",))
    tool.terminals["term-1"] = TerminalState("term-1", cwd="/logs")
    tool.terminals["term-1"].append(output)
    return tool


def test_output_progress_never_changes_the_card_payload_and_advances_until_caught_up():
    screens = TerminalScreens()
    tool = _tool_with_terminal("".join(f"row {i}\n" for i in range(20_000)))
    before = tool_entry(tool)
    screens.shown(tool.terminal)
    assert screens.behind
    rounds = 0
    while screens.behind:
        assert screens.advance(0.005) == ["term-1"]
        rounds += 1
    assert rounds > 1  # bounded slices, not one long block
    assert tool_entry(tool) == before  # the card is not rebuilt by output progress
    assert screens.emulator("term-1").visible_text(19_999, 1) == "row 19999"
    assert screens.full_text(tool.terminal).endswith("row 19999")


def test_building_a_tool_row_queues_its_terminal_for_the_screen_and_copy_catches_up():
    timeline = Timeline("k", 1)
    update = {
        "sessionUpdate": "tool_call",
        "toolCallId": "t",
        "title": "ls",
        "content": [{"type": "terminal", "terminalId": "T"}],
        "_meta": {"terminal_output": {"terminal_id": "T", "data": "hello\n"}},
    }
    timeline.apply(SessionUpdateEnvelope("k", 1, False, {"sessionId": "k", "update": update}))
    presenter = Presenter()
    [row] = [r for r in timeline.rows if r.kind == "tool"]
    assert not presenter.screens.behind  # nothing is emulated for a card nobody built
    presenter.payload(timeline, row, 0.0)
    assert presenter.screens.behind and presenter.screens.advance() == ["T"]
    assert presenter.screens.emulator("T").text() == "hello"
    assert presenter.terminal_text(timeline.items["tool:t"]) == "hello"

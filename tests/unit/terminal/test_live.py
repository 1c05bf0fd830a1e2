"""The terminal panel's emulator for a live shell (`InteractiveTerminal`): CRLF as a PTY sends it, the
whole screen with its cursor, a resize that keeps the cursor's line and moves the rest to the
scrollback, an alternate screen that never enters it, selection text for Copy, and output emulated in
bounded slices with a bounded backlog."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from app.renderer.terminal import live as interactive_terminal
from app.renderer.terminal.live import SLICE_CHARS, InteractiveTerminal, Position
from app.renderer.terminal.live_screen import BACKGROUND, FOREGROUND


def fed(text: str, columns: int = 20, rows: int = 5, scrollback: int = 100) -> InteractiveTerminal:
    terminal = InteractiveTerminal(columns, rows, scrollback)
    terminal.append(text)
    terminal.feed_all()
    return terminal


def screen_lines(terminal: InteractiveTerminal) -> list[str]:
    first = terminal.line_count() - terminal.rows
    return [terminal.line_text(index) for index in range(first, first + terminal.rows)]


def test_crlf_starts_a_line_and_a_bare_lf_only_moves_down():
    """A PTY sends CRLF (no newline mode): a bare LF keeps the column, as on a real terminal."""
    terminal = fed("one\r\ntwo\nthree")
    assert screen_lines(terminal)[:3] == ["one", "two", "   three"]


def test_the_whole_screen_is_shown_with_the_cursor_where_the_shell_left_it():
    terminal = fed("$ ls\r\na  b\r\n$ ")
    assert terminal.line_count() == 5  # blank rows below the prompt are part of the screen
    assert screen_lines(terminal) == ["$ ls", "a  b", "$", "", ""]
    assert terminal.cursor() == (2, 2, " ")
    terminal.append("\x1b[H")  # home: the cursor is on the first row, over the "$"
    terminal.feed_all()
    assert terminal.cursor() == (0, 0, "$")
    terminal.append("\x1b[?25l")  # a program hides it
    terminal.feed_all()
    assert terminal.cursor() is None


def test_lines_leaving_the_top_go_to_the_scrollback_up_to_its_cap():
    terminal = fed("".join(f"line {n}\r\n" for n in range(12)), rows=4, scrollback=5)
    assert terminal.scrolled_total == 9  # 12 lines and the empty cursor row on 4 rows
    assert terminal.line_count() == 5 + 4  # the cap keeps the newest 5
    assert terminal.line_text(0) == "line 4"
    assert terminal.line_base() == 4
    assert screen_lines(terminal) == ["line 9", "line 10", "line 11", ""]
    terminal.append("\x1b[H\x1b[2J\x1b[3J")  # `clear`: the scrollback goes too
    terminal.feed_all()
    assert terminal.line_count() == 4 and terminal.text() == ""


def test_a_shorter_screen_moves_the_rows_above_the_cursor_to_the_scrollback():
    terminal = fed("a\r\nb\r\nc\r\nd\r\n$ ", columns=10, rows=6)
    assert terminal.cursor() == (4, 2, " ")
    assert terminal.resize(8, 3)
    assert (terminal.columns, terminal.rows) == (8, 3)
    assert screen_lines(terminal) == ["c", "d", "$"]  # the prompt stays on screen
    assert terminal.cursor() == (4, 2, " ")  # the same line (two moved to the scrollback)
    assert terminal.text() == "a\nb\nc\nd\n$"  # nothing lost
    assert not terminal.resize(8, 3)  # same size: nothing to do


def test_blank_rows_below_the_cursor_go_first_and_wider_screens_get_tab_stops():
    terminal = fed("$ ", columns=10, rows=6)
    terminal.resize(30, 2)
    assert terminal.scrolled_total == 0 and terminal.cursor() == (0, 2, " ")
    terminal.append("\r\n" + "\t" * 3 + "x")
    terminal.feed_all()
    assert screen_lines(terminal)[1] == " " * 24 + "x"  # tab stops every 8 columns past the old width


def test_the_alternate_screen_comes_and_goes_without_touching_the_scrollback():
    terminal = fed("before\r\n$ less\r\n", rows=3)
    scrolled = terminal.scrolled_total
    terminal.append("\x1b[?1049h\x1b[H" + "".join(f"page {n}\r\n" for n in range(10)))
    terminal.feed_all()
    assert terminal.alternate_screen
    assert terminal.scrolled_total == scrolled  # a pager's pages are not history
    terminal.append("\x1b[?1049l")
    terminal.feed_all()
    assert not terminal.alternate_screen
    assert "page" not in terminal.text() and terminal.text().endswith("$ less")
    assert terminal.cursor() == (terminal.line_count() - 1, 0, " ")  # restored where it was


def test_reverse_video_and_coloured_blanks_become_backgrounds():
    terminal = fed("\x1b[7m status \x1b[0m \x1b[41m  \x1b[0m\x1b[32mok\x1b[0m")
    [runs] = terminal.runs(0, 1)
    assert runs[0] == (0, " status ", BACKGROUND, False, FOREGROUND)
    assert runs[1] == (9, "  ", None, False, "red")
    assert runs[2] == (11, "ok", "green", False, None)


def test_selection_text_follows_its_lines_while_output_scrolls():
    terminal = fed("alpha beta\r\ngamma\r\n", rows=3)
    base = terminal.line_base()
    anchor, head = Position(base + 0, 6), Position(base + 1, 3)
    assert terminal.selected_text(head, anchor) == "beta\ngam"  # either order
    terminal.append("".join(f"more {n}\r\n" for n in range(5)))
    terminal.feed_all()
    assert terminal.selected_text(anchor, head) == "beta\ngam"  # the same text, not the same rows
    assert terminal.selected_text(anchor, anchor) == ""


def test_a_double_click_word_stops_at_blanks_and_brackets():
    terminal = fed("ls (some-file.txt) x")
    start, end = terminal.word_at(terminal.line_base(), 8)
    assert terminal.selected_text(start, end) == "some-file.txt"
    start, end = terminal.word_at(terminal.line_base(), 3)
    assert terminal.selected_text(start, end) == "("


def test_program_modes_for_keys_and_paste_are_visible():
    terminal = fed("")
    assert not terminal.app_cursor_keys and not terminal.bracketed_paste
    terminal.append("\x1b[?1h\x1b[?2004h")
    terminal.feed_all()
    assert terminal.app_cursor_keys and terminal.bracketed_paste


def test_output_is_emulated_in_bounded_slices(monkeypatch):
    terminal = InteractiveTerminal(80, 24)
    megabyte = "".join(f"row {n:07d} {'x' * 50}\r\n" for n in range(16_500))
    terminal.append(megabyte)
    assert terminal.behind and terminal.scrolled_total == 0  # append queues, it never emulates
    assert terminal.feed()  # one slice, more left
    assert terminal.scrolled_total <= SLICE_CHARS // 60 + 1
    ticks = itertools.count()  # a clock that moves 1 ms each time it is read
    monkeypatch.setattr(
        interactive_terminal, "time", SimpleNamespace(perf_counter=lambda: next(ticks) / 1000)
    )
    before = terminal.scrolled_total
    assert terminal.feed_for(0.005)  # the budget ends the call, with output left
    assert terminal.scrolled_total - before <= 6 * (SLICE_CHARS // 60 + 1)  # five slices' time, no more
    terminal.feed_all()
    assert not terminal.behind and terminal.skipped_chars == 0
    assert terminal.line_text(terminal.line_count() - 2).startswith("row 0016499")


def test_a_backlog_past_the_cap_drops_the_oldest_output_and_counts_it(monkeypatch):
    monkeypatch.setattr(interactive_terminal, "MAX_PENDING_CHARS", 1000)
    terminal = InteractiveTerminal(40, 5)
    for n in range(30):
        terminal.append(f"chunk {n:02d} " + "y" * 89 + "\r\n")  # 100 characters each
    assert terminal.skipped_chars == 2000
    terminal.feed_all()
    assert "chunk 29" in terminal.text() and "chunk 19" not in terminal.text()
    terminal.append("z" * 2500)  # one chunk over the cap keeps its newest part
    assert terminal.skipped_chars == 2000 + 1500


def test_a_programs_cursor_position_query_gets_the_terminals_answer():
    terminal = InteractiveTerminal(80, 24)
    terminal.append("abc\x1b[6n\x1b[c")
    terminal.feed_all()
    replies = terminal.take_replies()
    assert replies.startswith("\x1b[1;4R") and "\x1b[?" in replies
    assert terminal.take_replies() == ""

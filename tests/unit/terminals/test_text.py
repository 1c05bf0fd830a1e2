"""What an agent reads of a user terminal: escape sequences rendered away, on any piece of output."""

from __future__ import annotations

from app.main.terminals.text import plain_text


def test_colours_cursor_moves_and_titles_are_removed():
    data = b"\x1b]0;title\x07\x1b[1;32mgreen\x1b[0m \x1b[2K\x1b[10Gdone\x1b(B\x1b=\r\n"
    assert plain_text(data) == "green done\n"


def test_a_carriage_return_leaves_the_last_state_of_the_line_and_backspace_erases():
    assert plain_text(b"10%\r50%\r100%\r\nab\bc\n") == "100%\nac\n"


def test_a_sequence_cut_at_the_end_of_a_piece_is_dropped_not_shown():
    assert plain_text(b"ok\x1b[38;5") == "ok"
    assert plain_text(b"ok\x1b]0;half a title") == "ok"


def test_other_controls_go_and_text_stays_exact():
    assert plain_text(b"a\x00b\x07c\td\xc3\xa9\n") == "abc\td\u00e9\n"
    assert plain_text("caf\u00e9 \u2192 ok".encode()) == "caf\u00e9 \u2192 ok"

"""The stderr ring: bounded lines, long lines cut, partial lines joined across chunks, log rotation."""

from __future__ import annotations

from app.main.agents.stderr_buffer import MAX_LINE_CHARS, StderrBuffer


def test_lines_split_across_chunks_are_joined():
    buffer = StderrBuffer(None)
    buffer.feed(b"hel")
    buffer.feed(b"lo\nwor")
    buffer.feed(b"ld\n")
    assert buffer.tail() == "hello\nworld"


def test_ring_keeps_only_the_newest_lines():
    buffer = StderrBuffer(None, max_lines=3)
    buffer.feed(b"".join(f"line {i}\n".encode() for i in range(10)))
    assert buffer.tail(10) == "line 7\nline 8\nline 9"


def test_very_long_lines_are_cut():
    buffer = StderrBuffer(None)
    buffer.feed(b"x" * (MAX_LINE_CHARS * 2) + b"\n")
    assert len(buffer.tail()) == MAX_LINE_CHARS + len(" [...]")


def test_a_line_without_newline_is_kept_on_finish():
    buffer = StderrBuffer(None)
    buffer.feed(b"last words")
    assert buffer.tail() == ""
    buffer.finish()
    assert buffer.tail() == "last words"


def test_invalid_utf8_is_replaced_not_fatal():
    buffer = StderrBuffer(None)
    buffer.feed(b"bad \xff\xfe bytes\n")
    assert "bad" in buffer.tail() and "\ufffd" in buffer.tail()


def test_log_file_rotates_at_its_cap(tmp_path):
    log = tmp_path / "agent.log"
    buffer = StderrBuffer(log, max_log_bytes=10_000)
    for _ in range(30):
        buffer.feed(b"y" * 999 + b"\n")
    buffer.finish()
    assert log.stat().st_size <= 10_000
    assert (tmp_path / "agent.log.1").exists()


def test_each_line_is_reported_to_the_recorder():
    seen: list[str] = []
    buffer = StderrBuffer(None, on_line=seen.append)
    buffer.feed(b"a\nb\n")
    assert seen == ["a", "b"]

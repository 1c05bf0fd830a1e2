"""The terminal output log: what an agent may read back, and how it learns what it may not."""

from __future__ import annotations

from app.main.terminals.output_log import (
    CHUNK_BYTES,
    MAX_LOG_BYTES,
    MAX_READ_BYTES,
    MIN_READ_BYTES,
    SharingMode,
    TerminalOutputLog,
)


def shared_log(**kwargs) -> TerminalOutputLog:
    return TerminalOutputLog(SharingMode.SHARED, **kwargs)


def test_sequences_start_at_one_and_a_forward_read_returns_everything_shared():
    log = shared_log()
    assert log.append(b"hello ") == 1
    assert log.append(b"world") == 2
    result = log.read(after_sequence=0)
    assert result.output == b"hello world"
    assert result.next_sequence == 2
    assert not (result.truncated or result.has_more or result.history_gap or result.excluded_output)


def test_next_sequence_continues_where_the_last_read_stopped():
    log = shared_log()
    log.append(b"one")
    first = log.read(after_sequence=0)
    log.append(b"two")
    second = log.read(after_sequence=first.next_sequence)
    assert second.output == b"two"
    assert log.read(after_sequence=second.next_sequence).output == b""


def test_output_that_arrived_while_off_is_never_returned_even_after_sharing_resumes():
    log = shared_log()
    log.append(b"before ")
    log.user_set_sharing(SharingMode.OFF)
    log.append(b"SECRET")
    log.user_set_sharing(SharingMode.SHARED)
    log.append(b"after")
    forward = log.read(after_sequence=0)
    newest = log.read()
    assert forward.output == b"before after" and forward.excluded_output
    assert newest.output == b"before after" and newest.excluded_output
    assert b"SECRET" not in forward.output + newest.output


def test_output_that_arrived_while_status_only_stays_withheld_when_shared_later():
    log = TerminalOutputLog(SharingMode.STATUS_ONLY)
    log.append(b"typed while status only")
    log.user_set_sharing(SharingMode.SHARED)
    result = log.read(after_sequence=0)
    assert result.output == b"" and result.excluded_output
    assert result.next_sequence == log.last_sequence  # the withheld range is passed over, not re-asked


def test_excluded_output_is_only_reported_for_the_range_the_read_covers():
    log = shared_log()
    log.user_set_sharing(SharingMode.OFF)
    log.append(b"paused")
    log.user_set_sharing(SharingMode.SHARED)
    first = log.read(after_sequence=0)
    log.append(b"fresh")
    second = log.read(after_sequence=first.next_sequence)
    assert first.excluded_output
    assert second.output == b"fresh" and not second.excluded_output


def test_a_terminal_not_shared_now_returns_no_output_and_says_status_only():
    log = shared_log()
    log.append(b"shared earlier")
    log.user_set_sharing(SharingMode.STATUS_ONLY)
    status = log.read(after_sequence=0)
    assert status.output == b"" and status.status_only and status.agent_mode is SharingMode.STATUS_ONLY
    assert status.next_sequence == 0  # nothing consumed: the shared chunk is readable when re-enabled
    log.user_set_sharing(SharingMode.OFF)
    assert log.read().output == b"" and not log.read().status_only
    log.user_set_sharing(SharingMode.SHARED)
    assert log.read(after_sequence=0).output == b"shared earlier"


def test_a_large_arrival_is_split_into_small_chunks():
    log = shared_log()
    last = log.append(b"x" * (CHUNK_BYTES * 3 + 1))
    assert last == 4
    assert log.read(after_sequence=3).output == b"x"


def test_max_bytes_limits_a_forward_read_and_the_rest_follows_on_the_next_read():
    log = shared_log()
    data = bytes(range(256)) * 8  # 2048 bytes, 8 chunks
    log.append(data)
    first = log.read(after_sequence=0, max_bytes=1000)
    assert len(first.output) == 768 and first.truncated and first.has_more
    rest = log.read(after_sequence=first.next_sequence, max_bytes=MAX_READ_BYTES)
    assert first.output + rest.output == data
    assert not rest.has_more


def test_max_bytes_below_the_minimum_still_returns_a_whole_chunk():
    log = shared_log()
    log.append(b"y" * MIN_READ_BYTES * 2)
    result = log.read(after_sequence=0, max_bytes=1)
    assert len(result.output) == MIN_READ_BYTES and result.has_more


def test_a_read_without_after_sequence_returns_the_newest_output_within_max_bytes():
    log = shared_log()
    log.append(b"a" * 1024)
    log.append(b"tail")
    result = log.read(max_bytes=MIN_READ_BYTES)
    assert result.output == b"tail"  # the next whole chunk back would not fit
    assert result.truncated and not result.has_more
    assert result.next_sequence == log.last_sequence


def test_the_byte_cap_drops_the_oldest_chunks():
    log = shared_log(max_bytes=1024)
    for index in range(8):
        log.append(bytes([65 + index]) * 256)
    assert log.retained_bytes == 1024
    assert log.oldest_sequence == 5 and log.dropped_chunks == 4
    assert log.read(after_sequence=4).output == b"E" * 256 + b"F" * 256 + b"G" * 256 + b"H" * 256


def test_the_default_byte_cap_holds_after_a_flood():
    log = shared_log()
    for _ in range(5):
        log.append(b"z" * MAX_LOG_BYTES)
    assert log.retained_bytes == MAX_LOG_BYTES


def test_the_chunk_cap_bounds_many_tiny_chunks():
    log = shared_log(max_chunks=10)
    for _ in range(25):
        log.append(b".")
    assert log.read(after_sequence=0).output == b"." * 10


def test_asking_for_dropped_sequences_reports_a_history_gap():
    log = shared_log(max_bytes=512)
    log.append(b"old" * 200)
    log.append(b"n" * 512)
    gap = log.read(after_sequence=0)
    assert gap.history_gap and gap.output == b"n" * 512
    assert not log.read(after_sequence=gap.next_sequence).history_gap


def test_an_after_sequence_beyond_the_end_returns_nothing_and_points_at_the_end():
    log = shared_log()
    log.append(b"abc")
    result = log.read(after_sequence=999)
    assert result.output == b"" and result.next_sequence == 1
    assert log.read(after_sequence=-5).output == b"abc"

"""The agent's file access (app/main/files/agent_files.py), on real files: reading confined to the roots
(`..`, symlinks), only regular files, bounded reads (test_agent_file_writes.py: atomic writes, change
records, diffs and reverts)."""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from app.main.files.agent_files import MAX_READ_BYTES, AgentFileError, AgentFiles
from tests.unit.files.agent_files_support import S, read_file, refused


# --- reading ---------------------------------------------------------------------------------------
def test_read_inside_whole_file_and_line_limit_window_keep_line_endings(ws: Path):
    (ws / "a.txt").write_bytes(b"one\r\ntwo\nthree\nfour")
    files = AgentFiles()
    assert read_file(files, ws, ws / "a.txt") == "one\r\ntwo\nthree\nfour"
    assert read_file(files, ws, ws / "a.txt", line=2, limit=2) == "two\nthree\n"
    assert read_file(files, ws, ws / "a.txt", line=3) == "three\nfour"
    assert read_file(files, ws, ws / "a.txt", limit=1) == "one\r\n"
    assert read_file(files, ws, ws / "a.txt", line=10) == ""


def test_read_splits_lines_only_on_newline_and_replaces_bad_utf8(ws: Path):
    (ws / "u.txt").write_bytes("a\u2028b\x0cc\nd".encode() + b"\xff")
    files = AgentFiles()
    assert read_file(files, ws, ws / "u.txt", line=1, limit=1) == "a\u2028b\x0cc\n"
    assert read_file(files, ws, ws / "u.txt", line=2) == "d\ufffd"


@pytest.mark.parametrize(("line", "limit"), [(0, None), (None, 0), (-1, None), (True, None), ("2", None)])
def test_read_line_and_limit_must_be_positive_ints(ws: Path, line, limit):
    (ws / "a.txt").write_text("x\n")
    refused("invalid_params", read_file, AgentFiles(), ws, ws / "a.txt", line, limit)


def test_read_relative_path_is_invalid_params(ws: Path, monkeypatch: pytest.MonkeyPatch):
    (ws / "a.txt").write_text("x\n")
    monkeypatch.chdir(ws)
    refused("invalid_params", read_file, AgentFiles(), ws, "a.txt")


def test_read_outside_is_refused_without_saying_whether_it_exists(ws: Path, tmp_path: Path):
    (tmp_path / "secret.txt").write_text("top secret")
    files = AgentFiles()
    existing = refused("resource_not_found", read_file, files, ws, tmp_path / "secret.txt")
    missing = refused("resource_not_found", read_file, files, ws, tmp_path / "nothing.txt")
    assert "top secret" not in str(existing)
    assert str(existing).replace("secret.txt", "X") == str(missing).replace("nothing.txt", "X")


def test_read_dotdot_out_of_the_workspace_is_refused(ws: Path, tmp_path: Path):
    (tmp_path / "secret.txt").write_text("top secret")
    refused("resource_not_found", read_file, AgentFiles(), ws, f"{ws}/../secret.txt")
    sibling = tmp_path / "ws-evil"  # a string-prefix check would let this through
    sibling.mkdir()
    (sibling / "x.txt").write_text("x")
    refused("resource_not_found", read_file, AgentFiles(), ws, sibling / "x.txt")


def test_read_symlink_inside_pointing_outside_is_refused(ws: Path, tmp_path: Path):
    (tmp_path / "secret.txt").write_text("top secret")
    (ws / "link.txt").symlink_to(tmp_path / "secret.txt")
    (ws / "linkdir").symlink_to(tmp_path)
    refused("resource_not_found", read_file, AgentFiles(), ws, ws / "link.txt")
    refused("resource_not_found", read_file, AgentFiles(), ws, ws / "linkdir" / "secret.txt")


def test_read_symlink_inside_pointing_inside_is_followed(ws: Path):
    (ws / "real.txt").write_text("real\n")
    (ws / "alias.txt").symlink_to(ws / "real.txt")
    assert read_file(AgentFiles(), ws, ws / "alias.txt") == "real\n"


def _in_thread_with_timeout(call, timeout: float = 5.0):
    """Run `call` in a daemon thread: a blocking open would fail the test instead of hanging it."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the call blocked"
    return outcome


def test_directory_fifo_and_device_are_refused_without_blocking(ws: Path):
    (ws / "sub").mkdir()
    os.mkfifo(ws / "pipe")
    files = AgentFiles()
    refused("invalid_params", read_file, files, ws, ws / "sub")
    outcome = _in_thread_with_timeout(lambda: read_file(files, ws, ws / "pipe"))
    assert isinstance(outcome.get("error"), AgentFileError) and outcome["error"].code == "invalid_params"
    dev = _in_thread_with_timeout(lambda: files.read(S, ["/dev"], "/dev/null", None, None))
    assert isinstance(dev.get("error"), AgentFileError) and "not a regular file" in str(dev["error"])


def test_fifo_is_never_opened(ws: Path, monkeypatch: pytest.MonkeyPatch):
    os.mkfifo(ws / "pipe")
    opened: list[str] = []
    real_open = os.open

    def spy_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy_open)
    refused("invalid_params", read_file, AgentFiles(), ws, ws / "pipe")
    # only the folders on the way are opened (the walk), never the FIFO itself
    assert not [path for path in opened if os.path.basename(path) == "pipe"], opened


def test_too_large_file_is_refused_without_reading_it(ws: Path):
    huge = ws / "huge.bin"
    with open(huge, "wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: 2 GB that take no disk
    tracemalloc.start()
    try:
        error = refused("invalid_params", read_file, AgentFiles(), ws, huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "10 MiB" in str(error) and str(2 * 1024**3) in str(error)
    assert peak < 1024 * 1024, peak


def test_read_at_the_limit_is_allowed(ws: Path):
    (ws / "edge.txt").write_bytes(b"a" * MAX_READ_BYTES)
    assert len(read_file(AgentFiles(), ws, ws / "edge.txt")) == MAX_READ_BYTES
    (ws / "over.txt").write_bytes(b"a" * (MAX_READ_BYTES + 1))
    refused("invalid_params", read_file, AgentFiles(), ws, ws / "over.txt")


def test_missing_file_inside_is_resource_not_found(ws: Path):
    refused("resource_not_found", read_file, AgentFiles(), ws, ws / "nope.txt")

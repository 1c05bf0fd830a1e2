"""The agent's file writes (app/main/files/agent_files.py), on real files: confinement, atomic writes
that keep permission bits and leave nothing behind on failure, per-turn change records, diffs and
reverts that never clobber a later edit, and folders swapped for symlinks between check and use."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.main.files import agent_files
from app.main.files.agent_files import AgentFiles, FileChange
from app.main.files.atomic import atomic_write_text
from tests.unit.files.agent_files_support import S, no_temp_files, read_file, refused


# --- writing ---------------------------------------------------------------------------------------
def _write(files: AgentFiles, ws: Path, path: str | Path, content: str, turn: str = "t1") -> None:
    files.write(S, turn, [str(ws)], str(path), content)


def test_write_inside_creates_and_replaces(ws: Path):
    files = AgentFiles()
    _write(files, ws, ws / "new.txt", "hello\n")
    assert (ws / "new.txt").read_text() == "hello\n"
    _write(files, ws, ws / "new.txt", "again\n")
    assert (ws / "new.txt").read_text() == "again\n"
    assert no_temp_files(ws)


def test_write_outside_is_refused_and_nothing_is_written(ws: Path, tmp_path: Path):
    before = sorted(p.name for p in tmp_path.iterdir())
    files = AgentFiles()
    for target in (tmp_path / "evil.txt", f"{ws}/../evil.txt", "/etc/clawqt-evil.txt"):
        refused("resource_not_found", _write, files, ws, target, "pwned")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert list(ws.iterdir()) == []
    assert not os.path.exists("/etc/clawqt-evil.txt")
    assert files.changes(S, "t1") == []


def test_write_through_a_symlink_pointing_outside_is_refused(ws: Path, tmp_path: Path):
    victim = tmp_path / "victim.txt"
    victim.write_text("original")
    (ws / "link.txt").symlink_to(victim)
    (ws / "dirlink").symlink_to(tmp_path)
    files = AgentFiles()
    refused("resource_not_found", _write, files, ws, ws / "link.txt", "pwned")
    refused("resource_not_found", _write, files, ws, ws / "dirlink" / "victim.txt", "pwned")
    refused("resource_not_found", _write, files, ws, ws / "dirlink" / "fresh.txt", "pwned")
    assert victim.read_text() == "original" and (ws / "link.txt").is_symlink()
    assert not (tmp_path / "fresh.txt").exists()


def test_write_to_a_non_regular_file_is_refused(ws: Path):
    (ws / "sub").mkdir()
    os.mkfifo(ws / "pipe")
    files = AgentFiles()
    refused("invalid_params", _write, files, ws, ws / "sub", "x")
    refused("invalid_params", _write, files, ws, ws / "pipe", "x")
    assert stat.S_ISFIFO(os.lstat(ws / "pipe").st_mode)


def test_write_keeps_permission_bits(ws: Path):
    target = ws / "script.sh"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    _write(AgentFiles(), ws, target, "new\n")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert target.read_text() == "new\n"


def test_new_file_gets_the_umask_mode(ws: Path):
    old = os.umask(0o027)
    try:
        _write(AgentFiles(), ws, ws / "fresh.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(ws / "fresh.txt").st_mode) == 0o640


@pytest.mark.parametrize("broken", ["replace", "fsync"])
def test_a_write_failing_half_way_leaves_the_original_and_no_temp_file(
    ws: Path, monkeypatch: pytest.MonkeyPatch, broken: str
):
    target = ws / "keep.txt"
    target.write_text("original\n")

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(agent_files.os, broken, boom)
    files = AgentFiles()
    refused("internal", _write, files, ws, target, "new content\n")
    monkeypatch.undo()
    assert target.read_text() == "original\n"
    assert no_temp_files(ws)
    assert files.changes(S, "t1") == []


def test_atomic_write_text_removes_its_temp_file_on_failure(ws: Path, monkeypatch: pytest.MonkeyPatch):
    target = ws / "plain.txt"
    target.write_text("original\n")

    def broken_replace(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write_text(str(target), "new\n", 0o644)
    monkeypatch.undo()
    assert target.read_text() == "original\n" and no_temp_files(ws)
    atomic_write_text(str(target), "new\n", 0o600)
    assert target.read_text() == "new\n" and stat.S_IMODE(os.stat(target).st_mode) == 0o600


def test_oversized_content_is_invalid_params_and_nothing_written(ws: Path):
    refused("invalid_params", _write, AgentFiles(), ws, ws / "big.txt", "a" * (10 * 1024 * 1024 + 1))
    assert not (ws / "big.txt").exists()


# --- changes, diffs, reverts -----------------------------------------------------------------------
def test_changes_per_turn_keep_the_first_before_and_the_last_after_with_read_base(ws: Path):
    target = ws / "code.py"
    target.write_text("a = 1\nz = 0\n")
    files = AgentFiles()
    assert read_file(files, ws, target, line=1, limit=1) == "a = 1\n"  # a window; the base is the whole file
    target.write_text("a = 1\nb = 2\n")  # the user edits after the agent read it
    _write(files, ws, target, "a = 10\n", turn="t1")
    _write(files, ws, target, "a = 100\n", turn="t1")
    _write(files, ws, ws / "new.py", "x = 0\n", turn="t1")
    _write(files, ws, target, "a = 1000\n", turn="t2")
    first, created = files.changes(S, "t1")
    assert first == FileChange("t1", str(target), "a = 1\nb = 2\n", "a = 100\n", "a = 1\nz = 0\n")
    assert created == FileChange("t1", str(ws / "new.py"), None, "x = 0\n", None)
    (second,) = files.changes(S, "t2")
    assert (second.before, second.after) == ("a = 100\n", "a = 1000\n")
    assert files.changes("other-session", "t1") == [] and files.changes(S, "t3") == []


def test_diff_is_unified_against_the_read_base_or_before(ws: Path):
    target = ws / "code.py"
    target.write_text("a = 1\nkeep\n")
    files = AgentFiles()
    read_file(files, ws, target)
    _write(files, ws, target, "a = 2\nkeep\n")
    _write(files, ws, ws / "new.py", "x")
    changed, created = files.changes(S, "t1")
    assert files.diff(changed) == (f"--- {target}\n+++ {target}\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n keep\n")
    assert files.diff(created) == (
        f"--- /dev/null\n+++ {ws / 'new.py'}\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n"
    )


def test_revert_restores_the_original_bytes_and_mode(ws: Path):
    target = ws / "data.txt"
    target.write_bytes(b"latin-1 \xe9\n")  # not UTF-8: restored byte for byte anyway
    os.chmod(target, 0o600)
    files = AgentFiles()
    _write(files, ws, target, "utf-8 \u00e9\n")
    files.revert(S, "t1", str(target))
    assert target.read_bytes() == b"latin-1 \xe9\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert files.changes(S, "t1") == [] and no_temp_files(ws)


def test_revert_is_refused_after_a_later_user_edit(ws: Path):
    target = ws / "data.txt"
    target.write_text("v1\n")
    files = AgentFiles()
    _write(files, ws, target, "v2 by agent\n")
    target.write_text("v3 by user\n")
    refused("invalid_params", files.revert, S, "t1", str(target))
    assert target.read_text() == "v3 by user\n"
    assert len(files.changes(S, "t1")) == 1  # still recorded


def test_revert_of_a_created_file_deletes_it(ws: Path):
    files = AgentFiles()
    _write(files, ws, ws / "made.txt", "made\n")
    files.revert(S, "t1", str(ws / "made.txt"))
    assert not (ws / "made.txt").exists() and files.changes(S, "t1") == []
    refused("resource_not_found", files.revert, S, "t1", str(ws / "made.txt"))


def test_forget_session_drops_reads_and_changes(ws: Path):
    target = ws / "a.txt"
    target.write_text("a\n")
    files = AgentFiles()
    read_file(files, ws, target)
    files.forget_session(S)
    _write(files, ws, target, "b\n")
    assert files.changes(S, "t1")[0].read_base is None
    files.forget_session(S)
    assert files.changes(S, "t1") == []


# --- a folder swapped for a symlink between the check and the use -------------------
# The real race, thousands of times: tests/unit/files/test_agent_files_race.py. Here the swap lands at
# the worst moment on purpose: right after the path was resolved and judged inside, before anything is opened.
def _swap_after_the_check(monkeypatch: pytest.MonkeyPatch, folder: Path, outside: Path) -> None:
    """The first time a path below `folder` is resolved, swap `folder` for a symlink to `outside`."""
    real_canonical = agent_files.canonical

    def resolve_then_swap(path: str) -> str:
        resolved = real_canonical(path)
        if path.startswith(f"{folder}{os.sep}") and not folder.is_symlink():
            folder.rename(folder.with_name(folder.name + ".moved"))
            folder.symlink_to(outside)
        return resolved

    monkeypatch.setattr(agent_files, "canonical", resolve_then_swap)


def test_a_swap_right_after_the_check_never_reads_outside(ws: Path, tmp_path: Path, monkeypatch):
    (ws / "sub").mkdir()
    (ws / "sub" / "f.txt").write_text("inside")
    (tmp_path / "f.txt").write_text("top secret")
    _swap_after_the_check(monkeypatch, ws / "sub", tmp_path)
    error = refused("resource_not_found", read_file, AgentFiles(), ws, ws / "sub" / "f.txt")
    assert "outside the session folder" in str(error) and "top secret" not in str(error)


def test_a_swap_right_after_the_check_never_writes_outside(ws: Path, tmp_path: Path, monkeypatch):
    (ws / "sub").mkdir()
    (tmp_path / "f.txt").write_text("original")
    before = sorted(p.name for p in tmp_path.iterdir())
    _swap_after_the_check(monkeypatch, ws / "sub", tmp_path)
    files = AgentFiles()
    refused("resource_not_found", _write, files, ws, ws / "sub" / "f.txt", "pwned")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "f.txt").read_text() == "original" and files.changes(S, "t1") == []


def test_a_revert_through_a_folder_swapped_since_the_write_touches_nothing_outside(ws: Path, tmp_path: Path):
    (ws / "sub").mkdir()
    (ws / "sub" / "kept.txt").write_text("before\n")
    files = AgentFiles()
    _write(files, ws, ws / "sub" / "made.txt", "after\n")
    _write(files, ws, ws / "sub" / "kept.txt", "after\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("made.txt", "kept.txt"):  # what a revert checks for, planted outside
        (outside / name).write_text("after\n")
    (ws / "sub").rename(ws / "sub.moved")
    (ws / "sub").symlink_to(outside)
    for name in ("made.txt", "kept.txt"):
        error = refused("invalid_params", files.revert, S, "t1", str(ws / "sub" / name))
        assert "changed since the agent wrote it" in str(error)
        assert (outside / name).read_text() == "after\n"  # neither deleted nor overwritten
    assert len(files.changes(S, "t1")) == 2


def test_a_symlinked_folder_pointing_inside_is_followed_and_recorded_at_its_real_path(ws: Path):
    (ws / "real").mkdir()
    (ws / "alias").symlink_to(ws / "real")
    files = AgentFiles()
    _write(files, ws, ws / "alias" / "x.txt", "x\n")
    assert (ws / "real" / "x.txt").read_text() == "x\n"
    assert read_file(files, ws, ws / "alias" / "x.txt") == "x\n"
    (change,) = files.changes(S, "t1")
    assert change.path == str(ws / "real" / "x.txt")
    files.revert(S, "t1", str(ws / "alias" / "x.txt"))
    assert not (ws / "real" / "x.txt").exists()


def test_a_path_through_a_file_does_not_exist(ws: Path):
    (ws / "a.txt").write_text("x")
    files = AgentFiles()
    error = refused("resource_not_found", read_file, files, ws, ws / "a.txt" / "b.txt")
    assert "does not exist" in str(error)
    refused("resource_not_found", _write, files, ws, ws / "a.txt" / "b.txt", "x")
    assert (ws / "a.txt").read_text() == "x"

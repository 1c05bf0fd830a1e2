"""The attachment access boundary: one named test per security case of the issue, against the real file
system (symlinks, a FIFO, a device file, a sparse 2 GB file)."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from app.main.files.attachment_access import (
    AttachmentAccess,
    AttachmentError,
    Refusal,
    display_name,
    identity_of,
)

KEY = "session-a"


class Sessions:
    """The current session as the chat service would report it: a key, a generation and a cwd."""

    def __init__(self, cwd: Path) -> None:
        self.current = (KEY, 1, str(cwd))

    def check(self, key: str, generation: int) -> str | None:
        current_key, current_generation, cwd = self.current
        return cwd if (key, generation) == (current_key, current_generation) else None


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    root.mkdir()
    (root / "notes.md").write_text("# Notes\n")
    (root / "dir").mkdir()
    return root


@pytest.fixture
def sessions(workspace: Path) -> Sessions:
    return Sessions(workspace)


@pytest.fixture
def access(sessions: Sessions) -> AttachmentAccess:
    return AttachmentAccess(sessions.check)


def _refusal(access: AttachmentAccess, reference: str, generation: int = 1) -> Refusal:
    with pytest.raises(AttachmentError) as caught:
        access.resolve(KEY, generation, reference)
    return caught.value.refusal


def test_a_file_in_the_workspace_resolves_with_identity_name_and_size(access, workspace):
    resolution = access.resolve(KEY, 1, str(workspace / "notes.md"))
    assert resolution.kind == "file" and resolution.name == "notes.md" and resolution.size == 8
    assert resolution.identity == identity_of(str(workspace / "notes.md"))
    assert not resolution.outside_workspace
    assert access.resolve(KEY, 1, "notes.md").identity == resolution.identity  # relative to the cwd
    assert access.resolve(KEY, 1, (workspace / "notes.md").as_uri()).identity == resolution.identity
    assert access.resolve(KEY, 1, "file://localhost" + str(workspace / "notes.md")).kind == "file"


def test_dot_dot_segments_are_refused(access, workspace):
    assert _refusal(access, str(workspace / ".." / "work" / "notes.md")) is Refusal.INVALID_REFERENCE
    assert _refusal(access, "../etc/passwd") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "dir\\..\\notes.md") is Refusal.INVALID_REFERENCE


def test_percent_encoded_dot_dot_is_refused(access, workspace):
    assert _refusal(access, f"file://{workspace}/%2e%2e/work/notes.md") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "%2E%2E/secret") is Refusal.INVALID_REFERENCE
    assert _refusal(access, f"file://{workspace}/dir%2F..%2Fnotes.md") is Refusal.INVALID_REFERENCE


def test_unc_paths_are_refused(access):
    assert _refusal(access, "\\\\server\\share\\file.txt") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "//server/share/file.txt") is Refusal.INVALID_REFERENCE


def test_file_urls_on_another_host_are_refused(access, workspace):
    assert _refusal(access, f"file://evil.example{workspace}/notes.md") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "file:relative/notes.md") is Refusal.INVALID_REFERENCE


def test_credentials_in_urls_are_refused(access, workspace):
    assert _refusal(access, "https://user:secret@example.com/a.png") is Refusal.UNSAFE_URL
    assert _refusal(access, "http://user@example.com/a.png") is Refusal.UNSAFE_URL
    assert _refusal(access, f"file://user:pw@localhost{workspace}/notes.md") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "https:///no-host.png") is Refusal.UNSAFE_URL
    remote = access.resolve(KEY, 1, "https://example.com/files/report%20final.pdf")
    assert remote.kind == "remote" and remote.name == "report final.pdf"


def test_javascript_and_data_schemes_are_refused(access):
    assert _refusal(access, "javascript:alert(1)") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "JaVaScRiPt:alert(1)") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "data:text/html;base64,PHNjcmlwdD4=") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "vscode://open?x") is Refusal.INVALID_REFERENCE


def test_empty_nul_and_overlong_references_are_refused(access):
    assert _refusal(access, "") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "   ") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "notes\x00.md") is Refusal.INVALID_REFERENCE
    assert _refusal(access, "a" * 4097) is Refusal.INVALID_REFERENCE


def test_a_symlink_out_of_the_workspace_resolves_labelled_outside(access, workspace, tmp_path):
    secret = tmp_path / "outside.txt"
    secret.write_text("outside")
    (workspace / "link.txt").symlink_to(secret)
    resolution = access.resolve(KEY, 1, str(workspace / "link.txt"))
    assert resolution.kind == "file" and resolution.outside_workspace
    assert resolution.target == str(secret) and resolution.name == "link.txt"
    assert resolution.identity == identity_of(str(secret))  # identity is the canonical target


def test_a_directory_is_system_open_only(access, workspace):
    resolution = access.resolve(KEY, 1, str(workspace / "dir"))
    assert resolution.kind == "directory" and resolution.size is None
    with pytest.raises(AttachmentError) as caught:
        access.read(KEY, 1, str(workspace / "dir"))
    assert caught.value.refusal is Refusal.NOT_A_FILE
    _, url = access.open_target(KEY, 1, str(workspace / "dir"))
    assert url == (workspace / "dir").as_uri()


def test_a_fifo_is_refused_as_not_a_regular_file(access, workspace):
    os.mkfifo(workspace / "pipe")
    assert _refusal(access, str(workspace / "pipe")) is Refusal.NOT_A_FILE
    with pytest.raises(AttachmentError) as caught:
        access.read(KEY, 1, str(workspace / "pipe"))  # must not block waiting for a writer
    assert caught.value.refusal is Refusal.NOT_A_FILE


def test_a_device_file_is_refused_as_not_a_regular_file(access):
    assert _refusal(access, "/dev/null") is Refusal.NOT_A_FILE
    assert _refusal(access, "/dev/zero") is Refusal.NOT_A_FILE


def test_a_missing_file_is_unavailable(access, workspace):
    assert _refusal(access, str(workspace / "gone.txt")) is Refusal.UNAVAILABLE


def test_a_stale_generation_after_switching_sessions_is_refused(access, sessions, workspace):
    reference = str(workspace / "notes.md")
    assert access.resolve(KEY, 1, reference).kind == "file"
    sessions.current = ("session-b", 2, str(workspace))  # the user switched sessions
    assert _refusal(access, reference, generation=1) is Refusal.STALE_SESSION
    sessions.current = (KEY, 3, str(workspace))  # back, but reloaded: a new generation
    assert _refusal(access, reference, generation=1) is Refusal.STALE_SESSION
    with pytest.raises(AttachmentError) as caught:
        access.read(KEY, 1, reference)
    assert caught.value.refusal is Refusal.STALE_SESSION
    with pytest.raises(AttachmentError):
        access.open_target(KEY, 1, reference)
    assert access.resolve(KEY, 3, reference).generation == 3


def test_a_reference_swapped_between_resolve_and_open_is_judged_again(access, workspace):
    target = workspace / "report.txt"
    target.write_text("fine")
    assert access.resolve(KEY, 1, str(target)).kind == "file"
    target.unlink()
    os.mkfifo(target)  # swapped for a FIFO after the card was shown
    with pytest.raises(AttachmentError) as caught:
        access.open_target(KEY, 1, str(target))
    assert caught.value.refusal is Refusal.NOT_A_FILE
    with pytest.raises(AttachmentError):
        access.read(KEY, 1, str(target))
    target.unlink()
    target.mkdir()  # now a directory: open is allowed (system-open), a read is not
    resolution, _url = access.open_target(KEY, 1, str(target))
    assert resolution.kind == "directory"


def test_a_2_gb_file_is_read_bounded_without_a_memory_spike(access, workspace):
    huge = workspace / "huge.bin"
    with open(huge, "wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: 2 GB on paper, nothing on disk
    assert access.resolve(KEY, 1, str(huge)).size == 2 * 1024**3
    tracemalloc.start()
    try:
        result = access.read(KEY, 1, str(huge), max_bytes=1024 * 1024)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(result.data) == 1024 * 1024 and result.truncated
    assert peak < 8 * 1024 * 1024, f"peak {peak} bytes"


def test_a_small_file_is_read_whole(access, workspace):
    result = access.read(KEY, 1, "notes.md")
    assert result.data == b"# Notes\n" and not result.truncated


def test_hostile_names_with_bidi_and_control_characters_are_sanitized(access, workspace):
    hostile = "invoice\u202egnp.exe\x07\n\ttab  name\u200b.txt"
    (workspace / hostile).write_text("x")
    name = access.resolve(KEY, 1, str(workspace / hostile)).name
    assert "\u202e" not in name and "\x07" not in name and "\n" not in name and "\u200b" not in name
    assert "  " not in name and name.startswith("invoice")
    assert len(display_name("x" * 500)) == 160
    assert display_name("\u2066\u2067\u2068\u2069") == "\ufffd\ufffd\ufffd\ufffd"
    assert display_name("") == "attachment"


def test_relative_references_need_a_working_directory(tmp_path):
    access = AttachmentAccess(lambda key, generation: "")
    with pytest.raises(AttachmentError) as caught:
        access.resolve(KEY, 1, "notes.md")
    assert caught.value.refusal is Refusal.INVALID_REFERENCE


async def test_a_session_change_while_a_resolution_is_pending_makes_it_stale(workspace):
    """The file system call runs off the event loop; the session is checked again when it returns."""
    from app.main.files.attachment_service import AttachmentService

    calls = []

    def check(key: str, generation: int) -> str | None:
        calls.append(generation)
        return str(workspace) if len(calls) == 1 else None  # the user switched sessions meanwhile

    service = AttachmentService(check)
    with pytest.raises(AttachmentError) as caught:
        await service.resolve(KEY, 1, "notes.md")
    assert caught.value.refusal is Refusal.STALE_SESSION and len(calls) == 2
    calls.clear()
    with pytest.raises(AttachmentError) as caught:
        await service.preview(KEY, 1, "notes.md")
    assert caught.value.refusal is Refusal.STALE_SESSION


def test_a_folder_swapped_for_a_symlink_between_resolve_and_read_never_reads_outside(
    access, workspace, tmp_path, monkeypatch
):
    """An "inside" card must not show a file from elsewhere: the read walks down from the workspace
    without following a symlink, so a folder of the path swapped after resolving is refused."""
    (workspace / "dir" / "report.txt").write_text("inside")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "report.txt").write_text("top secret")
    real_realpath = os.path.realpath

    def resolve_then_swap(path, *args, **kwargs):
        resolved = real_realpath(path, *args, **kwargs)
        if str(path).endswith("report.txt") and not (workspace / "dir").is_symlink():
            (workspace / "dir").rename(workspace / "dir.moved")
            (workspace / "dir").symlink_to(outside)
        return resolved

    monkeypatch.setattr(os.path, "realpath", resolve_then_swap)
    with pytest.raises(AttachmentError) as caught:
        access.read(KEY, 1, "dir/report.txt")
    assert caught.value.refusal is Refusal.NOT_A_FILE and "top secret" not in str(caught.value)
    monkeypatch.undo()
    resolution = access.resolve(KEY, 1, "dir/report.txt")  # judged again: now it is outside, and says so
    assert resolution.outside_workspace and access.read(KEY, 1, "dir/report.txt").data == b"top secret"

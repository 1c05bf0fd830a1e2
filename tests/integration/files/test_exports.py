"""The main side writing an exported chat where the user chose: whole or not at all, in words."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from app.contract.errors import SaveFailed
from app.main.files.exports import ChatExports


def _save(path, text: str = "# Chat\n") -> None:
    asyncio.run(ChatExports().save_text(str(path), text))


def test_a_new_file_is_written_with_the_users_default_permissions(tmp_path):
    target = tmp_path / "chat.md"
    _save(target, "# Chat\n\nünïcode ✓\n")
    assert target.read_text(encoding="utf-8") == "# Chat\n\nünïcode ✓\n"
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(tmp_path) == ["chat.md"]  # no temporary file left beside it


def test_a_file_replaced_keeps_its_permissions(tmp_path):
    target = tmp_path / "chat.md"
    target.write_text("old")
    target.chmod(0o600)
    _save(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("where", "says"),
    [
        ("missing/chat.md", "does not exist"),
        ("folder", "a folder of that name"),
        ("relative.md", "Choose where"),
    ],
)
def test_a_path_that_cannot_be_written_says_why_and_changes_nothing(tmp_path, where, says):
    (tmp_path / "folder").mkdir()
    before = sorted(os.listdir(tmp_path))
    target = where if where == "relative.md" else tmp_path / where
    with pytest.raises(SaveFailed) as failure:
        _save(target)
    assert says in str(failure.value)
    assert sorted(os.listdir(tmp_path)) == before


def test_a_write_that_fails_midway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "chat.md"
    target.write_text("the earlier export")

    def no_space(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    with pytest.raises(SaveFailed) as failure:
        _save(target, "x" * 100_000)
    assert "No space left on device" in str(failure.value)
    assert target.read_text() == "the earlier export"
    assert os.listdir(tmp_path) == ["chat.md"]

"""`@` mention listing and ranking, and user image handling (pasted images saved, thumbnails bounded)."""

from __future__ import annotations

import io
import os
import time

import pytest
from PIL import Image

from app.main.files.user_images import make_thumbnail, save_pasted_image
from app.main.files.workspace_files import WorkspaceFiles, fuzzy_score, list_workspace_files
from tests.unit.files.folder_swaps import SWAPPER_IDS, SWAPPERS, prepare


def test_listing_skips_vcs_dependency_hidden_dirs_and_symlinked_dirs(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("x")
    for skipped in (".git", "node_modules", "__pycache__", ".hidden"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "inner.py").write_text("x")
    (tmp_path / ".env").write_text("SECRET=1")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "elsewhere.py").write_text("x")
    os.symlink(outside, tmp_path / "linked")
    assert list_workspace_files(str(tmp_path)) == ["src/main.py"]
    assert len(list_workspace_files(str(tmp_path), max_files=0)) <= 1


def test_fuzzy_ranking_prefers_file_names_word_starts_and_short_paths():
    paths = ["docs/apple/main_notes.md", "src/app_main.py", "src/deep/nested/app_main_old.py", "README.md"]
    assert fuzzy_score("xyz", "src/app_main.py") is None
    ranked = sorted(paths, key=lambda p: -(fuzzy_score("appmain", p) or -1e9))
    assert ranked[0] == "src/app_main.py"
    assert fuzzy_score("", "a") > fuzzy_score("", "a/b/c/d")


def test_completion_is_cached_per_cwd_and_limited(tmp_path):
    for i in range(30):
        (tmp_path / f"file{i:02}.txt").write_text("x")
    files = WorkspaceFiles()
    assert len(files.complete(str(tmp_path), "file")) == 12
    (tmp_path / "late.txt").write_text("x")
    assert "late.txt" not in files.complete(str(tmp_path), "late")  # cached for a few seconds


def test_pasted_images_are_saved_under_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAWQT_DATA_DIR", str(tmp_path / "data"))
    path = save_pasted_image(b"\x89PNG\r\n\x1a\nbytes")
    assert path.startswith(str(tmp_path / "data" / "pasted")) and path.endswith(".png")
    with open(path, "rb") as handle:
        assert handle.read() == b"\x89PNG\r\n\x1a\nbytes"


def test_thumbnails_are_bounded_and_refuse_what_is_not_an_image(tmp_path):
    picture = tmp_path / "big.png"
    Image.new("RGB", (800, 400), "green").save(picture)
    thumb = Image.open(io.BytesIO(make_thumbnail(str(picture))))
    assert max(thumb.size) == 96 and thumb.size == (96, 48)
    (tmp_path / "fake.png").write_bytes(b"not an image")
    assert make_thumbnail(str(tmp_path / "fake.png")) is None
    assert make_thumbnail(str(tmp_path / "missing.png")) is None
    bomb = tmp_path / "bomb.png"
    Image.new("1", (12000, 12000)).save(bomb)  # 144 M pixels, tiny on disk
    assert make_thumbnail(str(bomb)) is None


def test_a_mention_never_names_a_path_outside_the_folder(tmp_path):
    from app.main.files.workspace_files import mention_target

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x")
    outside = tmp_path.parent / f"{tmp_path.name}-secret.txt"
    outside.write_text("secret")
    os.symlink(outside, tmp_path / "sneaky.txt")
    assert mention_target(str(tmp_path), "src/a.py") == os.path.join(
        os.path.realpath(tmp_path), "src", "a.py"
    )
    assert mention_target(str(tmp_path), "../" + outside.name) is None
    assert mention_target(str(tmp_path), str(outside)) is None  # absolute
    assert mention_target(str(tmp_path), "sneaky.txt") is None  # symlink out
    assert mention_target(str(tmp_path), ".") is None


@pytest.mark.parametrize("swapper_kind", SWAPPERS, ids=SWAPPER_IDS)
def test_a_folder_swapped_for_a_symlink_while_listing_never_lists_a_name_from_outside(tmp_path, swapper_kind):
    """The listing walks folder descriptors (`os.fwalk`): a folder that is a symlink when it is entered is
    not entered, so a name from outside never shows in the `@` completion (os.walk listed some)."""
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    outside.mkdir()
    prepare(workspace, outside)
    (workspace / "sub" / "a.py").write_text("x")
    (outside / "secret_name.py").write_text("x")
    listed: set[str] = set()
    deadline = time.monotonic() + 5
    with swapper_kind(workspace) as swapper:
        for _ in range(2000):
            listed.update(list_workspace_files(str(workspace)))
            if time.monotonic() > deadline:
                break
    assert not [name for name in listed if "secret_name" in name], sorted(listed)
    assert "sub/a.py" in listed and swapper.swaps > 100, (sorted(listed), swapper.swaps)

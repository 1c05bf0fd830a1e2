"""The confined walker (app/main/files/confined_open.py) on real files: every folder opened in its parent
without following a symlink, the file opened without following one, the temp file and the rename done in
the verified folder's descriptor, so a swap after the check changes nothing; names that are not one plain
component refused; FIFOs and devices never opened; the path fallback (no dir_fd) keeping the same rules."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from app.main.files import confined_open
from app.main.files.confined_open import (
    TEMP_PREFIX,
    Changed,
    Place,
    open_dir,
    open_regular_at,
    open_regular_beneath,
    place_under,
    replace_atomically,
)
from app.main.files.regular_files import NotRegular, read_at_most


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(root, outside): root/a/b/f.txt inside; outside/f.txt and outside/b/f.txt with other content."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.txt").write_text("inside")
    (outside / "b").mkdir(parents=True)
    (outside / "f.txt").write_text("outside")
    (outside / "b" / "f.txt").write_text("outside")
    return root, outside


def _read(place: Place) -> bytes:
    fd, _ = open_regular_beneath(place)
    try:
        return read_at_most(fd, 1024)[0]
    finally:
        os.close(fd)


def _swap_for_link(folder: Path, target: Path) -> Path:
    """Rename `folder` away and put a symlink to `target` in its place; returns where it went."""
    moved = folder.with_name(folder.name + ".moved")
    folder.rename(moved)
    folder.symlink_to(target)
    return moved


# --- where a path lies -------------------------------------------------------------------------------
def test_place_under_picks_the_innermost_root_and_refuses_a_string_prefix():
    roots = ["/work", "/work/sub", "/elsewhere"]
    assert place_under(roots, "/work/sub/x/y.txt") == Place("/work/sub", ("x", "y.txt"))
    assert place_under(roots, "/work/y.txt") == Place("/work", ("y.txt",))
    assert place_under(roots, "/work") == Place("/work", ())
    assert place_under(roots, "/work-evil/y.txt") is None
    assert place_under(roots, "/") is None
    assert Place("/work", ("a", "b")).path == "/work/a/b"


# --- the walk ----------------------------------------------------------------------------------------
def test_a_plain_path_is_walked_and_read(tree):
    root, _ = tree
    assert _read(Place(str(root), ("a", "b", "f.txt"))) == b"inside"
    with open_dir(str(root), ("a", "b")) as folder:
        assert folder.fd is not None and folder.path == str(root / "a" / "b")
        assert stat.S_ISREG(folder.lstat("f.txt").st_mode)


def test_a_symlinked_folder_on_the_way_is_never_followed(tree):
    root, outside = tree
    (root / "out").symlink_to(outside)  # pointing out
    (root / "alias").symlink_to(root / "a")  # pointing in: the caller resolves those, the walk does not
    with pytest.raises(Changed):
        _read(Place(str(root), ("out", "f.txt")))
    with pytest.raises(Changed):
        open_dir(str(root), ("alias", "b"))


def test_a_symlink_as_the_last_component_is_never_followed(tree):
    root, outside = tree
    (root / "a" / "link.txt").symlink_to(outside / "f.txt")
    (root / "a" / "inner.txt").symlink_to(root / "a" / "b" / "f.txt")
    for name in ("link.txt", "inner.txt"):
        with pytest.raises(Changed):
            _read(Place(str(root), ("a", name)))


def test_a_root_that_is_a_symlink_is_refused(tree, tmp_path):
    root, _ = tree
    (tmp_path / "root-link").symlink_to(root)
    with pytest.raises(Changed):
        open_dir(str(tmp_path / "root-link"), ())


@pytest.mark.parametrize("bad", ["..", ".", "", "a/b", "/abs", "nul\x00"])
def test_dot_dot_absolute_and_multi_part_names_are_refused(tree, bad):
    root, _ = tree
    with pytest.raises(ValueError):
        open_dir(str(root), ("a", bad))
    with open_dir(str(root), ()) as folder, pytest.raises(ValueError):
        open_regular_at(folder, bad)


def test_a_path_through_a_file_and_a_missing_one(tree):
    root, _ = tree
    with pytest.raises(NotADirectoryError):
        _read(Place(str(root), ("a", "b", "f.txt", "x")))
    with pytest.raises(FileNotFoundError):
        _read(Place(str(root), ("a", "nope", "f.txt")))
    with pytest.raises(FileNotFoundError):
        _read(Place(str(root), ("a", "b", "nope.txt")))


def test_a_fifo_a_device_and_a_folder_are_refused_without_being_opened(tree, monkeypatch):
    root, _ = tree
    os.mkfifo(root / "pipe")
    opened: list[str] = []
    real_open = os.open

    def spy_open(path, *args, **kwargs):
        opened.append(os.path.basename(str(path)))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy_open)
    places = [Place(str(root), ("pipe",)), Place("/dev", ("null",)), Place(str(root), ("a",))]
    outcomes: list[BaseException | bytes] = []

    def attempt() -> None:  # in a thread: an open that blocked would fail the test, not hang it
        for place in places:
            try:
                outcomes.append(_read(place))
            except BaseException as exc:
                outcomes.append(exc)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(5)
    assert not thread.is_alive(), "an open blocked"
    assert [type(outcome) for outcome in outcomes] == [NotRegular] * 3, outcomes
    assert "pipe" not in opened and "null" not in opened, opened


# --- a swap after the check --------------------------------------------------------------------------
def test_a_folder_swapped_for_a_symlink_after_it_was_opened_keeps_reads_and_writes_inside(tree):
    root, outside = tree
    with open_dir(str(root), ("a", "b")) as folder:
        moved = _swap_for_link(root / "a" / "b", outside / "b")  # `root/a/b` now points outside
        fd, _ = open_regular_at(folder, "f.txt")
        try:
            assert read_at_most(fd, 100)[0] == b"inside"
        finally:
            os.close(fd)
        replace_atomically(folder, "new.txt", b"written", 0o640)
        replace_atomically(folder, "f.txt", b"replaced", 0o600)
    assert (moved / "new.txt").read_bytes() == b"written"
    assert stat.S_IMODE(os.stat(moved / "new.txt").st_mode) == 0o640
    assert (moved / "f.txt").read_bytes() == b"replaced"
    assert sorted(p.name for p in (outside / "b").iterdir()) == ["f.txt"]
    assert (outside / "b" / "f.txt").read_text() == "outside"
    assert not [p for p in moved.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_a_file_swapped_between_the_check_and_the_open_is_refused(tree, monkeypatch):
    root, outside = tree
    target = root / "a" / "b" / "f.txt"
    real_lstat = confined_open.Dir.lstat

    def lstat_then_swap(self, name):
        info = real_lstat(self, name)
        if name == "f.txt" and not target.is_symlink():
            target.unlink()
            target.symlink_to(outside / "f.txt")
        return info

    monkeypatch.setattr(confined_open.Dir, "lstat", lstat_then_swap)
    with pytest.raises(Changed):
        _read(Place(str(root), ("a", "b", "f.txt")))


def test_a_failed_replace_leaves_the_original_and_no_temp_file(tree, monkeypatch):
    root, _ = tree

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with open_dir(str(root), ("a", "b")) as folder:
        monkeypatch.setattr(os, "replace", broken)
        with pytest.raises(OSError):
            replace_atomically(folder, "f.txt", b"new", 0o644)
    assert sorted(p.name for p in (root / "a" / "b").iterdir()) == ["f.txt"]
    assert (root / "a" / "b" / "f.txt").read_text() == "inside"


def test_the_path_fallback_without_dir_fd_keeps_the_rules(tree, monkeypatch):
    """Where os.open takes no dir_fd (Windows) a Dir holds a path and checks each name first."""
    root, outside = tree
    monkeypatch.setattr(confined_open, "DIR_FD", False)
    assert _read(Place(str(root), ("a", "b", "f.txt"))) == b"inside"
    (root / "out").symlink_to(outside)
    with pytest.raises(Changed):
        _read(Place(str(root), ("out", "f.txt")))
    with pytest.raises(NotADirectoryError):
        open_dir(str(root), ("a", "b", "f.txt"))
    with open_dir(str(root), ("a",)) as folder:
        assert folder.fd is None
        replace_atomically(folder, "w.txt", b"w", 0o600)
    assert (root / "a" / "w.txt").read_bytes() == b"w"
    assert not [p for p in (root / "a").iterdir() if p.name.startswith(TEMP_PREFIX)]

"""Snapshots of a real folder: what a second snapshot sees changed, what it leaves out and why, and
that a hostile tree (links out, swaps, huge files, too many files) is said in words, never followed,
never written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.main.review import folder_scan
from app.main.review.blobs import BlobMissing, BlobStore
from app.main.review.change_sets import difference
from app.main.review.folder_scan import scan_folder
from tests.paths import REPO


def tree(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content)
        else:
            path.write_bytes(content)


@pytest.fixture
def blobs(tmp_path: Path) -> BlobStore:
    return BlobStore(tmp_path / "store")


def test_a_second_snapshot_sees_what_changed_and_the_first_kept_what_it_was(tmp_path, blobs):
    root = tmp_path / "work"
    tree(root, {"a.py": "one\n", "pkg/b.py": "two\n", "pkg/img.bin": b"\x00\x01", "gone.txt": "bye\n"})
    first = scan_folder(str(root), None, blobs)
    assert set(first.entries) == {"a.py", "pkg/b.py", "pkg/img.bin", "gone.txt"}
    assert first.entries["pkg/img.bin"].kind == "binary" and first.entries["a.py"].kind == "text"

    (root / "a.py").write_text("one, changed\n")
    (root / "gone.txt").unlink()
    (root / "new.txt").write_text("hello\n")
    second = scan_folder(str(root), first, blobs)
    changes = {d.path: d.status for d in difference(first, second)}
    assert changes == {"a.py": "modified", "gone.txt": "deleted", "new.txt": "created"}
    delta = next(d for d in difference(first, second) if d.path == "a.py")
    assert delta.before is not None and blobs.read(delta.before.digest) == b"one\n"
    assert delta.after is not None and blobs.read(delta.after.digest) == b"one, changed\n"
    assert difference(second, scan_folder(str(root), second, blobs)) == []


def test_an_unchanged_file_is_not_read_again(tmp_path, blobs, monkeypatch):
    root = tmp_path / "work"
    tree(root, {"a.txt": "a\n", "b.txt": "b\n"})
    old = 1_600_000_000_000_000_000  # long before the scan: its time can be trusted
    for name in ("a.txt", "b.txt"):
        os.utime(root / name, ns=(old, old))
    first = scan_folder(str(root), None, blobs)
    read: list[str] = []
    real_read = folder_scan.Scan._read
    monkeypatch.setattr(
        folder_scan.Scan,
        "_read",
        lambda self, where, name, info: read.append(name) or real_read(self, where, name, info),
    )
    (root / "b.txt").write_text("b changed\n")
    scan_folder(str(root), first, blobs)
    assert read == ["b.txt"]


def test_gitignore_rules_and_version_control_folders_are_left_out_and_counted(tmp_path, blobs):
    root = tmp_path / "work"
    tree(
        root,
        {
            ".gitignore": "*.log\nbuild/\n!keep.log\n",
            "app.log": "x",
            "keep.log": "kept",
            "build/out.o": "x",
            "src/.gitignore": "generated.py\n",
            "src/generated.py": "x",
            "src/main.py": "print()\n",
            ".git/HEAD": "ref: refs/heads/main\n",
            "docs/generated.py": "not ignored here\n",
        },
    )
    manifest = scan_folder(str(root), None, blobs)
    assert set(manifest.entries) == {
        ".gitignore",
        "keep.log",
        "src/.gitignore",
        "src/main.py",
        "docs/generated.py",
    }
    assert manifest.notes.ignored == 4  # app.log, build/, src/generated.py, .git/


def test_a_symlink_out_of_the_folder_is_never_followed(tmp_path, blobs):
    outside = tmp_path / "outside"
    tree(outside, {"secret.txt": "secret\n"})
    root = tmp_path / "work"
    tree(root, {"a.txt": "a\n"})
    (root / "linked-dir").symlink_to(outside)
    (root / "linked-file").symlink_to(outside / "secret.txt")
    manifest = scan_folder(str(root), None, blobs)
    assert set(manifest.entries) == {"a.txt"} and manifest.notes.symlinks == 2
    with pytest.raises(BlobMissing):
        blobs.read(__import__("hashlib").sha256(b"secret\n").hexdigest())  # never copied


def test_a_huge_file_is_known_by_size_and_time_only(tmp_path, blobs):
    root = tmp_path / "work"
    root.mkdir()
    with open(root / "disk.img", "wb") as huge:  # 2 GB, sparse: nothing is read
        huge.truncate(2 * 1024**3)
    manifest = scan_folder(str(root), None, blobs)
    entry = manifest.entries["disk.img"]
    assert entry.kind == "large" and entry.digest == "" and manifest.notes.large == ["disk.img"]
    with open(root / "disk.img", "r+b") as huge:
        huge.seek(10)
        huge.write(b"changed")
    again = scan_folder(str(root), manifest, blobs)
    assert [d.path for d in difference(manifest, again)] == ["disk.img"]  # its time moved


def test_a_folder_with_too_many_files_is_not_tracked_and_says_so(tmp_path, blobs, monkeypatch):
    monkeypatch.setattr(folder_scan, "MAX_FILES", 50)
    root = tmp_path / "work"
    tree(root, {f"f{i:03}.txt": "x" for i in range(60)})
    manifest = scan_folder(str(root), None, blobs)
    assert manifest.entries == {}
    assert "more than 50 files" in manifest.notes.too_big and ".gitignore" in manifest.notes.too_big
    assert difference(manifest, manifest) == []


def test_a_file_rewritten_while_it_is_read_is_named_not_half_kept(tmp_path, blobs, monkeypatch):
    root = tmp_path / "work"
    tree(root, {"busy.txt": "0" * 100_000, "calm.txt": "calm\n"})
    real_read = os.read

    def read_while_written(fd, size):  # another writer appends each time busy.txt is read whole
        data = real_read(fd, size)
        if len(data) >= 100_000:
            with open(root / "busy.txt", "ab") as busy:
                busy.write(b"more")
        return data

    monkeypatch.setattr(folder_scan.os, "read", read_while_written)
    manifest = scan_folder(str(root), None, blobs)
    assert manifest.notes.changing == ["busy.txt"] and manifest.entries["busy.txt"].kind == "unreadable"
    assert manifest.entries["calm.txt"].kind == "text"


def test_clawqts_own_folder_and_files_inside_the_chat_folder_are_never_read(tmp_path):
    root = tmp_path / "home"
    store = root / ".local" / "share" / "clawqt" / "review"
    blobs = BlobStore(store / "blobs")
    tree(root, {"notes.txt": "n\n", "trace.jsonl": "{}\n"})  # a trace ClawQt records there
    own = (str(store), str(root / "trace.jsonl"))
    first = scan_folder(str(root), None, blobs, leave_out=own)
    (root / "trace.jsonl").write_text("{}\n{}\n")
    second = scan_folder(str(root), first, blobs, leave_out=own)
    assert set(second.entries) == {"notes.txt"} and (store / "blobs").is_dir()
    assert difference(first, second) == []


def test_a_damaged_copy_is_refused_not_written_back(tmp_path, blobs):
    digest = blobs.keep(b"the old text\n")
    path = blobs.folder / digest[:2] / digest[2:]
    path.write_bytes(b"the old tex")  # cut short (a power cut before the copy reached the disk)
    with pytest.raises(BlobMissing, match="damaged"):
        blobs.read(digest)


def scan_as_the_user(root: Path, store: Path) -> dict:
    """The scan's notes, from a process that cannot read what the user cannot: as root (CI), a child
    without the two capabilities that let root read anything (setpriv); otherwise this process."""
    script = (
        "import json, sys\n"
        "from app.main.review.blobs import BlobStore\n"
        "from app.main.review.folder_scan import scan_folder\n"
        "m = scan_folder(sys.argv[1], None, BlobStore(__import__('pathlib').Path(sys.argv[2])))\n"
        "print(json.dumps({'notes': m.notes.as_dict(), 'entries': sorted(m.entries)}))\n"
    )
    command = [sys.executable, "-c", script, str(root), str(store)]
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) drops root's read-anything capabilities"
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *command]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_folder_or_file_that_cannot_be_read_is_named_and_the_rest_tracked(tmp_path):
    root = tmp_path / "work"
    tree(root, {"ok.txt": "fine\n", "locked/inside.txt": "x\n", "sealed.txt": "sealed\n"})
    (root / "locked").chmod(0)
    (root / "sealed.txt").chmod(0)
    try:
        seen = scan_as_the_user(root, tmp_path / "store")
    finally:
        (root / "locked").chmod(0o755)
        (root / "sealed.txt").chmod(0o644)
    assert seen["entries"] == ["ok.txt", "sealed.txt"]
    assert sorted(seen["notes"]["unreadable"]) == ["locked/", "sealed.txt"]

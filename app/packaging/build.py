"""Running PyInstaller on packaging/clawqt.spec and measuring what came out: the build's time, the
bundle's size, what dominates it, and (optionally) the size of its .tar.gz."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "packaging" / "clawqt.spec"
MB = 1024 * 1024

# what a bundle is made of, by the first rule a file's path inside the bundle matches
GROUPS = (
    ("ICU data (Qt's Unicode and locale tables)", ("libicudata",)),
    ("Qt libraries", ("PySide6/Qt/lib/", "libQt6", "libicu")),
    ("Qt plugins and QML modules", ("PySide6/Qt/plugins/", "PySide6/Qt/qml/")),
    ("PySide6 bindings", ("PySide6/", "shiboken6/", "libpyside6", "libshiboken6")),
    ("Python runtime and standard library", ("libpython", "python3", "base_library.zip", "lib-dynload")),
    ("cryptography (the system keyring's Secret Service)", ("cryptography", "libssl", "libcrypto")),
    ("Pillow (thumbnails)", ("PIL/", "pillow.libs/")),
    ("ClawQt's code and pure-Python packages (the executable's archive)", ("clawqt", "clawqt.exe")),
    ("ClawQt's resources (QML, icons, fonts)", ("resources/",)),
)


@dataclass
class BuildResult:
    bundle: Path  # the onedir folder, or the onefile executable
    executable: Path
    seconds: float
    size_bytes: int
    groups: list[tuple[str, int]] = field(default_factory=list)  # biggest first
    tar_bytes: int | None = None

    def summary(self) -> str:
        lines = [
            f"built {self.bundle} in {self.seconds:.0f} s: {self.size_bytes / MB:.1f} MB"
            + (f", .tar.gz {self.tar_bytes / MB:.1f} MB" if self.tar_bytes is not None else ""),
        ]
        if self.groups:
            lines.append("what dominates:")
            lines += [f"  {size / MB:7.1f} MB  {name}" for name, size in self.groups]
        return "\n".join(lines)


def files_of(bundle: Path) -> list[tuple[str, int]]:
    """Every regular file of a bundle (symlinks not followed nor counted), as (path inside, bytes)."""
    if bundle.is_file():
        return [(bundle.name, bundle.stat().st_size)]
    found = []
    for folder, _dirs, names in os.walk(bundle):
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink():
                found.append((path.relative_to(bundle).as_posix(), path.stat().st_size))
    return found


def group_sizes(files: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Bytes per group of GROUPS (the rest as "other"), biggest first."""
    sizes: dict[str, int] = {}
    for path, size in files:
        inside = path.split("_internal/", 1)[-1]
        name = next((label for label, marks in GROUPS if any(m in inside for m in marks)), "other")
        sizes[name] = sizes.get(name, 0) + size
    return sorted(sizes.items(), key=lambda item: -item[1])


def build(dist: Path, work: Path, onefile: bool = False, tar: bool = False) -> BuildResult:
    """Run PyInstaller with this interpreter; RuntimeError with the end of its output when it fails."""
    command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--clean"]
    command += ["--distpath", str(dist), "--workpath", str(work)]
    if onefile:
        command += ["--", "--onefile"]
    started = time.monotonic()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"PyInstaller exited with {done.returncode}:\n{done.stderr[-4000:]}")
    name = "clawqt.exe" if sys.platform == "win32" else "clawqt"
    bundle = dist / name if onefile else dist / "clawqt"
    executable = bundle if onefile else bundle / name
    files = files_of(bundle)
    groups = [] if onefile else group_sizes(files)  # a onefile executable is one compressed archive
    result = BuildResult(bundle, executable, seconds, sum(size for _p, size in files), groups)
    if tar and not onefile:
        archive = dist / "clawqt-linux-x86_64.tar.gz"
        with tarfile.open(archive, "w:gz") as packed:
            packed.add(bundle, arcname="clawqt")
        result.tar_bytes = archive.stat().st_size
    return result

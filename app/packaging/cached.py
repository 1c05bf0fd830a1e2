"""A bundle built once per state of the sources: `ensure_bundle()` reuses `.cache/frozen/<key>/` when
the key (a digest of the code, resources, spec, Python, PySide6 and PyInstaller versions) matches, else
builds into a staging folder renamed into place under a file lock. The tests and `bench/` use it, so CI
builds once per run and a developer's second run takes no build."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

from app.packaging.build import REPO, BuildResult, build

CACHE = REPO / ".cache" / "frozen"
SOURCES = ("app", "resources", "packaging")
KEPT_BUILDS = 2  # older keys are removed after a new build (each is ~200 MB)


def source_key() -> str:
    """A digest of everything a build depends on (file paths and contents, tool versions)."""
    digest = hashlib.sha256()
    for version in (
        sys.version,
        *(importlib.metadata.version(n) for n in ("pyinstaller", "PySide6-Essentials")),
    ):
        digest.update(version.encode())
    digest.update((REPO / "pyproject.toml").read_bytes())
    for top in SOURCES:
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(REPO).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _read(stamp: Path, root: Path) -> BuildResult | None:
    try:
        saved = json.loads(stamp.read_text())
        return BuildResult(
            root / saved["bundle"],
            root / saved["executable"],
            saved["seconds"],
            saved["size_bytes"],
            [(name, size) for name, size in saved["groups"]],
            saved.get("tar_bytes"),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def ensure_bundle(tar: bool = True) -> BuildResult:
    """The onedir bundle of the current sources, built when there is none yet (the result as measured
    by the build that made it: its time, size, groups and .tar.gz size)."""
    key = source_key()
    root = CACHE / key
    stamp = root / "build.json"
    with _lock(CACHE / "build.lock"):
        found = _read(stamp, root) if stamp.exists() else None
        if found is not None and found.executable.exists():
            return found
        staging = CACHE / f"{key}.staging"
        shutil.rmtree(staging, ignore_errors=True)
        result = build(staging / "dist", staging / "work", tar=tar)
        shutil.rmtree(staging / "work", ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)
        staging.rename(root)
        relative = {
            "bundle": (Path("dist") / result.bundle.name).as_posix(),
            "executable": (Path("dist") / result.executable.relative_to(staging / "dist")).as_posix(),
            "seconds": result.seconds,
            "size_bytes": result.size_bytes,
            "groups": result.groups,
            "tar_bytes": result.tar_bytes,
        }
        stamp.write_text(json.dumps(relative, indent=1))
        _forget_old_builds(keep=root)
        return _read(stamp, root)  # type: ignore[return-value]


def _forget_old_builds(keep: Path) -> None:
    builds = sorted((p for p in CACHE.iterdir() if p.is_dir() and p != keep), key=lambda p: p.stat().st_mtime)
    for old in builds[: max(0, len(builds) - (KEPT_BUILDS - 1))]:
        shutil.rmtree(old, ignore_errors=True)

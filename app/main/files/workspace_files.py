"""`@` mentions: the files under a session's cwd, and a fuzzy ranking of them for a typed query.

The listing is bounded (files and depth) and skips what nobody mentions (VCS, dependency and cache
directories, hidden ones); symlinked directories are not followed (nor a folder swapped for one while
walking), so a listed name is always inside the cwd; `mention_target` checks a picked one again. It is
cached per cwd for a few seconds: typing re-ranks, it does not re-walk."""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from app.main.core.paths import within

MAX_FILES = 20_000
MAX_DEPTH = 12
CACHE_SECONDS = 5.0
SKIPPED_DIRS = {
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", "dist", "build", "target", ".cache", ".idea", ".vscode",
}  # fmt: skip


def list_workspace_files(cwd: str, max_files: int = MAX_FILES) -> list[str]:
    """Relative paths of regular files under `cwd`, shallow ones first. Walked by folder descriptors
    where the platform has them (`os.fwalk`): a folder swapped for a symlink while walking is not
    entered, so no name from outside the cwd is ever listed; elsewhere `os.walk` (checks by path)."""
    found: list[str] = []
    root_depth = cwd.rstrip(os.sep).count(os.sep)
    for directory, dirs, files, is_file in _walk(cwd):
        depth = directory.count(os.sep) - root_depth
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        if depth >= MAX_DEPTH:
            dirs[:] = []
        for name in sorted(files):
            if name.startswith(".") or not is_file(name):
                continue
            found.append(os.path.relpath(os.path.join(directory, name), cwd))
            if len(found) >= max_files:
                return found
    return found


IsFile = Callable[[str], bool]


def _walk(cwd: str) -> Iterator[tuple[str, list[str], list[str], IsFile]]:
    """(folder, its sub-folders (prunable), its other names, whether a name there is a regular file,
    not a symlink), top-down, symlinked folders never entered."""
    if not hasattr(os, "fwalk"):  # Windows
        for directory, dirs, files in os.walk(cwd, followlinks=False):
            yield directory, dirs, files, functools.partial(_is_plain_file, directory)
        return
    for directory, dirs, files, dir_fd in os.fwalk(cwd, follow_symlinks=False):
        yield directory, dirs, files, functools.partial(_is_plain_file_at, dir_fd)


def _is_plain_file(directory: str, name: str) -> bool:
    with contextlib.suppress(OSError):
        return stat.S_ISREG(os.lstat(os.path.join(directory, name)).st_mode)
    return False


def _is_plain_file_at(dir_fd: int, name: str) -> bool:
    with contextlib.suppress(OSError):
        return stat.S_ISREG(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    return False


def fuzzy_score(query: str, path: str) -> float | None:
    """None unless every query character appears in order in `path` (case-insensitive). Higher is
    better: matches in the file name, at word starts and in runs score more; shorter paths win ties."""
    if not query:
        return 1.0 / (1 + len(path))
    lower = path.lower()
    name_start = lower.rfind("/") + 1
    score = 0.0
    position = -1
    previous = -2
    for ch in query.lower():
        position = lower.find(ch, position + 1)
        if position < 0:
            return None
        score += 1.0
        if position == previous + 1:
            score += 2.0  # a run
        if position == 0 or lower[position - 1] in "/._- ":
            score += 3.0  # a word start
        if position >= name_start:
            score += 1.5  # in the file name itself
        previous = position
    return score - len(path) * 0.01


def mention_target(cwd: str, relative: str) -> str | None:
    """The absolute path a mention names, or None when it would leave the cwd (`..`, an absolute path,
    a symlink pointing out, a NUL) or the tree is changing under it: a mention names a file inside the
    session's folder when it is picked. It is a user attachment from then on (read by path when the
    prompt is built, `prompt_blocks.py`, like a file the user attached from anywhere)."""
    try:
        root = os.path.realpath(cwd)
        target = os.path.realpath(os.path.join(root, relative))
    except (OSError, ValueError):  # a NUL, or an entry swapped while resolving
        return None
    inside = within(target, root) and target != root
    return os.path.join(root, os.path.normpath(relative)) if inside else None


@dataclass
class WorkspaceFiles:
    _cache: dict[str, tuple[float, list[str]]] = field(default_factory=dict)

    def files(self, cwd: str) -> list[str]:
        cached = self._cache.get(cwd)
        now = time.monotonic()
        if cached is None or now - cached[0] > CACHE_SECONDS:
            cached = (now, list_workspace_files(cwd))
            self._cache[cwd] = cached
        return cached[1]

    def complete(self, cwd: str, query: str, limit: int = 12) -> list[str]:
        """The best `limit` relative paths for `query`."""
        scored = []
        for path in self.files(cwd):
            score = fuzzy_score(query, path)
            if score is not None:
                scored.append((-score, path))
        scored.sort()
        return [path for _, path in scored[:limit]]

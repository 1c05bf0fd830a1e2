"""Where ClawQt keeps its files; every location can be overridden by an environment variable (tests)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from platformdirs import PlatformDirs

_DIRS = PlatformDirs("clawqt", appauthor=False)


def _dir(env_name: str, default: str) -> Path:
    """The folder, created when missing. Never raises: a folder that cannot be made (a file is in the
    way, no permission) is reported by whoever uses it (the local stores say so in the window)."""
    path = Path(os.environ.get(env_name) or default)
    with contextlib.suppress(OSError):
        path.mkdir(parents=True, exist_ok=True)
    return path


def log_dir() -> Path:
    """Agent stderr logs and the app log."""
    return _dir("CLAWQT_LOG_DIR", _DIRS.user_log_dir)


def data_dir() -> Path:
    """Drafts, the demo agent's sessions."""
    return _dir("CLAWQT_DATA_DIR", _DIRS.user_data_dir)


def config_file() -> Path:
    """The user's config file (JSON); it need not exist."""
    override = os.environ.get("CLAWQT_CONFIG")
    if override:
        return Path(override)
    return Path(_DIRS.user_config_dir) / "config.json"


def own_folders() -> tuple[Path, ...]:
    """Every folder ClawQt writes in by itself: never part of what an agent changed."""
    return (data_dir(), log_dir(), config_file().parent)


def shown(path: Path) -> str:
    """A path as messages show it: under the home folder as `~/…`."""
    try:
        relative = path.relative_to(Path.home())
    except ValueError:
        return str(path)
    return "~" if relative == Path() else f"~/{relative}"


def within(path: str, root: str) -> bool:
    """Whether `path` is `root` or below it, by whole path components (never a string prefix:
    `/work-evil` is not inside `/work`). Both must already be canonical (`realpath`)."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives, or one relative and one absolute
        return False

"""Session persistence: one JSON file per session, written atomically, read defensively (a corrupt
file is logged and skipped, never fatal)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

from app.demo_agent.options import DEFAULT_MODE, DEFAULT_MODEL, MODELS, MODES
from app.demo_agent.session import DemoSession
from app.main.files.atomic import replace_file

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
# Session ids become file names: anything else (slashes, dots) is simply "not found".
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


def is_safe_id(session_id: object) -> bool:
    return isinstance(session_id, str) and bool(_SAFE_ID.match(session_id))


class SessionStore:
    """Reads and writes `<root>/<session id>.json`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, session_id: str) -> Path:
        return self.root / f"{session_id}.json"

    def save(self, session: DemoSession) -> None:
        """Written atomically (app/main/files/atomic.py): a reader never sees half a file."""
        data = {
            "version": FORMAT_VERSION,
            "sessionId": session.session_id,
            "cwd": session.cwd,
            "title": session.title,
            "updatedAt": session.updated_at,
            "modeId": session.mode_id,
            "model": session.model,
            "turns": session.turns,
            "history": session.history,
        }
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        replace_file(self._path(session.session_id), text.encode("utf-8"))

    def load(self, session_id: str) -> DemoSession | None:
        """The stored session, or None when it is unknown, unsafe to name, or corrupt (logged)."""
        if not is_safe_id(session_id):
            return None
        data = self._read(self._path(session_id))
        if data is None:
            return None
        history = data.get("history")
        turns = data.get("turns")
        mode_id = data.get("modeId")
        model = data.get("model")
        return DemoSession(
            session_id=session_id,
            cwd=data["cwd"],
            title=data.get("title") if isinstance(data.get("title"), str) else None,
            updated_at=data["updatedAt"],
            mode_id=mode_id if mode_id in MODES else DEFAULT_MODE,
            model=model if model in MODELS else DEFAULT_MODEL,
            turns=turns if isinstance(turns, int) and turns >= 0 else 0,
            history=[item for item in history if isinstance(item, dict)] if isinstance(history, list) else [],
        )

    def list_infos(self) -> list[dict[str, Any]]:
        """`{sessionId, cwd, title, updatedAt}` for every readable session file (unsorted)."""
        if not self.root.is_dir():
            return []
        infos = []
        for path in self.root.glob("*.json"):
            if not is_safe_id(path.stem):
                continue
            data = self._read(path)
            if data is not None:
                title = data.get("title")
                infos.append(
                    {
                        "sessionId": path.stem,
                        "cwd": data["cwd"],
                        "title": title if isinstance(title, str) else None,
                        "updatedAt": data["updatedAt"],
                    }
                )
        return infos

    def _read(self, path: Path) -> dict[str, Any] | None:
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("demo-agent: skipping unreadable session file %s: %s", path, exc)
            return None
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply
            log.warning("demo-agent: skipping corrupt session file %s: %r", path, exc)
            return None
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("cwd"), str)
            or not isinstance(data.get("updatedAt"), str)
        ):
            log.warning("demo-agent: skipping session file %s: missing cwd/updatedAt", path)
            return None
        return data

"""Which title a session shows, in one place (the sidebar and the window header used to spell it out
twice): the user's local rename, else the agent's `session_info_update` title, else the title
`session/list` gave, else the first thing the user said in it, else "New chat". A title equal to the
session key says nothing (OpenClaw lists keys as titles until it derives one) and is skipped; OpenClaw's
`[Working directory: ...]` prefix at the start of a title is not shown."""

from __future__ import annotations

from app.contract.credentials import redact_text
from app.contract.openclaw_prompts import strip_cwd_prefix

PREVIEW_TITLE_CHARS = 80
NEW_CHAT = "New chat"


def session_title(
    key: str,
    *,
    name: str = "",
    meta_title: str | None = None,
    listed_title: str | None = None,
    preview: str = "",
) -> str:
    for candidate in (name, _shown(meta_title), _shown(listed_title)):
        if candidate and candidate != key:
            return candidate
    preview = _shown(preview)
    return preview[:PREVIEW_TITLE_CHARS] if preview else NEW_CHAT


def _shown(title: str | None) -> str:
    """An agent-made title without OpenClaw's working-directory prefix (it derives titles from the
    first user text, prefix included) and with ClawQt's credentials cut."""
    return redact_text(strip_cwd_prefix(title).strip()) if title else ""

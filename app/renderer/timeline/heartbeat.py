"""Hide heartbeat-only sessions (OpenClaw's `[OpenClaw heartbeat poll]` turns) from the sessions list
and from the startup choice, without deleting anything.

A session is heartbeat-only when some title/label/preview field contains the sentinel and no field
carries real user text. Over ACP, OpenClaw's `session/list` titles are the session key until it derives
one, so the sentinel rarely shows there: the app adds a `preview` field from its own cached summary (the
first user text it sent to or loaded from the session) before asking. After removing the sentinel, a
field counts as NOT user text when it is empty, `HEARTBEAT_OK`, equal to the session key, or `clawx` /
`main` (any case). A title alone such as `main`
never hides a session (the sentinel must be present), and channel or cron sessions
(`agent:<id>:<channel or cron>:...`) are never hidden this way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SENTINEL = "[OpenClaw heartbeat poll]"
TEXT_FIELDS = (
    "title",
    "label",
    "displayName",
    "derivedTitle",
    "preview",
    "lastMessage",
    "lastMessagePreview",
    "lastUserMessage",
    "summary",
    "subject",
)
_NOT_USER_TEXT = {"", "heartbeat_ok", "clawx", "main"}


def is_channel_or_cron(session_key: str) -> bool:
    parts = session_key.split(":")
    return len(parts) >= 4 and parts[0] == "agent"


def _fields(summary: Mapping[str, Any]) -> list[str]:
    values = [summary.get(name) for name in TEXT_FIELDS]
    meta = summary.get("_meta") or summary.get("meta")
    if isinstance(meta, Mapping):
        values.extend(meta.get(name) for name in TEXT_FIELDS)
    return [v for v in values if isinstance(v, str)]


def _is_user_text(value: str, session_key: str) -> bool:
    rest = value.replace(SENTINEL, "").strip()
    return rest.lower() not in _NOT_USER_TEXT and rest != session_key


def is_heartbeat_only(summary: Mapping[str, Any]) -> bool:
    """`summary`: a session/list entry (sessionId, title, _meta ...) plus, where the app has one, the
    `preview` of its cached summary."""
    key = summary.get("sessionId") or summary.get("session_key") or summary.get("key") or ""
    key = key if isinstance(key, str) else ""
    if is_channel_or_cron(key):
        return False
    fields = _fields(summary)
    if not any(SENTINEL in value for value in fields):
        return False
    return not any(_is_user_text(value, key) for value in fields)

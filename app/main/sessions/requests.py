"""The requests the chat service sends about sessions, built from what the agent announced, and what
their answers mean, as pure functions (no I/O): a test can read every rule here."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from app.contract.acp_fields import dict_field, dict_items, str_field
from app.contract.envelopes import AgentInfo, SessionPage, SessionSummary
from app.contract.errors import CapabilityMissing

if TYPE_CHECKING:
    from app.contract.acp import ListSessionsResult, SessionParams


def normalize_cwd(cwd: str) -> str:
    return os.path.realpath(os.path.expanduser(cwd))


def require(info: AgentInfo | None, *path: str, what: str) -> None:
    """CapabilityMissing unless the agent announced `path` (e.g. "sessionCapabilities", "list")."""
    if info is None or not info.supports(*path):
        raise CapabilityMissing(f"The agent does not support {what}.", code=f"no-{path[-1].lower()}")


def honours_session_keys(info: AgentInfo | None) -> bool:
    """OpenClaw takes the key ClawQt proposes (`_meta.sessionKey`); others name sessions by ACP id."""
    return info is not None and info.name.startswith("openclaw")


def open_params(
    method: str, key: str, cwd: str, additional_directories: list[str], info: AgentInfo | None
) -> SessionParams:
    """The params of `session/new` (with the proposed key) or `session/load|resume` (of `key`)."""
    params: SessionParams = {"cwd": cwd, "mcpServers": []}
    if additional_directories and info and info.supports("sessionCapabilities", "additionalDirectories"):
        params["additionalDirectories"] = list(additional_directories)
    if method != "session/new":
        params["sessionId"] = key
    elif honours_session_keys(info):  # others would list it by ACP id anyway
        params["_meta"] = {"sessionKey": key}
    return params


def list_params(cursor: str | None, cwd: str | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if cursor:
        params["cursor"] = cursor
    if cwd:
        params["cwd"] = cwd
    return params


def config_option_params(acp_id: str, config_id: str, value: str | bool) -> dict[str, Any]:
    """`session/set_config_option`: a boolean value says its type."""
    params: dict[str, Any] = {"sessionId": acp_id, "configId": config_id, "value": value}
    if isinstance(value, bool):
        params["type"] = "boolean"
    return params


def session_page(result: ListSessionsResult) -> SessionPage:
    """One `session/list` page; entries without a string session id are skipped."""
    sessions = tuple(
        SessionSummary(
            session_key=entry["sessionId"],
            title=entry.get("title") if isinstance(entry.get("title"), str) else None,
            cwd=str_field(entry, "cwd"),
            updated_at=str_field(entry, "updatedAt"),
            meta=dict_field(entry, "_meta"),
        )
        for entry in dict_items(result, "sessions")
        if isinstance(entry.get("sessionId"), str)
    )
    return SessionPage(sessions, str_field(result, "nextCursor"))

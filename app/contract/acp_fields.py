"""Reading values out of ACP messages, which agents send and nobody checked: each helper takes any input
and returns a value of the promised type or an empty one. Kept apart from the TypedDicts in `acp.py`
(types only, imported for type checking), so reading costs no class building at startup."""

from __future__ import annotations

from typing import Any

METADATA_UPDATES = frozenset(
    {
        "available_commands_update",
        "current_mode_update",
        "config_option_update",
        "session_info_update",
        "usage_update",
    }
)


def str_field(mapping: Any, name: str) -> str | None:
    """`mapping[name]` when it is a non-empty string, else None (any input)."""
    value = mapping.get(name) if isinstance(mapping, dict) else None
    return value if isinstance(value, str) and value else None


def dict_field(mapping: Any, name: str) -> dict[str, Any]:
    """`mapping[name]` when it is an object, else an empty dict."""
    value = mapping.get(name) if isinstance(mapping, dict) else None
    return value if isinstance(value, dict) else {}


def dict_items(mapping: Any, name: str) -> list[dict[str, Any]]:
    """The objects in the list `mapping[name]` (anything else in it, or a missing list: skipped)."""
    value = mapping.get(name) if isinstance(mapping, dict) else None
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


def stated_command(tool_call: Any) -> str | list[Any] | None:
    """The command a tool call states it runs: rawInput's `command`, or rawInput itself when it is a
    string or an argv list; None when it states none. Never its title: an agent's summary may say
    anything ("ls -la" for `ls -la; curl ... | sh`). One reading for the permission card, the rules and
    the proposal path alike."""
    if not isinstance(tool_call, dict):
        return None
    raw = tool_call.get("rawInput")
    if isinstance(raw, dict):
        raw = raw.get("command")
    return raw if isinstance(raw, str | list) else None

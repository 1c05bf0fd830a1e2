"""Session metadata: what updates tell about the session that is not a timeline item (its commands, mode,
config options, title, usage). The reducer applies each metadata update here and reports the field that
changed as a named event, so views never re-read raw updates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.contract.acp_fields import dict_items, str_field
from app.renderer.timeline.rows import MetaField

if TYPE_CHECKING:
    from app.contract.acp import SessionUpdate


@dataclass(eq=False)
class Metadata:
    title: str | None = None
    updated_at: str | None = None
    mode: str | None = None
    commands: list[dict[str, Any]] = field(default_factory=list)
    config_options: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] | None = None


def apply_metadata(meta: Metadata, update: SessionUpdate) -> MetaField | None:
    """Apply one metadata update; the field it set, or None when it carried nothing usable."""
    match update.get("sessionUpdate"):
        case "available_commands_update":
            meta.commands = dict_items(update, "availableCommands")
            return "commands"
        case "current_mode_update":
            mode = str_field(update, "currentModeId")
            if mode is None:
                return None
            meta.mode = mode
            return "mode"
        case "config_option_update":
            if not isinstance(update.get("configOptions"), list):
                return None
            meta.config_options = dict_items(update, "configOptions")
            return "config_options"
        case "session_info_update":
            if isinstance(update.get("updatedAt"), str):
                meta.updated_at = update["updatedAt"]  # type: ignore[typeddict-item]
            if "title" not in update:
                return None
            title = update["title"]  # type: ignore[typeddict-item]
            meta.title = title if isinstance(title, str) else None
            return "title"
        case "usage_update":
            fields: dict[str, Any] = dict(update)  # a usage update's fields are not in the typed union
            meta.usage = {k: fields[k] for k in ("used", "size", "cost") if k in fields}
            return "usage"
    return None

"""The slash commands, modes and model choice the scripted agent offers (scripted_agent.py)."""

from __future__ import annotations

from typing import Any

COMMANDS = [
    {"name": "status", "description": "Show the session status", "input": {"hint": "[verbose]"}},
    {"name": "help", "description": "List the commands"},
]
MODES = {"currentModeId": "a", "availableModes": [{"id": "a", "name": "Ask"}, {"id": "b", "name": "Build"}]}


def model_option(value: str, option_id: str = "model") -> dict[str, Any]:
    return {
        "id": option_id,
        "name": "Model",
        "category": "model",
        "type": "select",
        "currentValue": value,
        "options": [{"value": "m1", "name": "Model one"}, {"value": "m2", "name": "Model two"}],
    }


def session_options(flags: dict[str, str], model: str = "m1", think: bool = False) -> list[dict[str, Any]]:
    """The session's config options: the model, and with --think a boolean "Think harder" switch."""
    options = [model_option(model)]
    if "think" in flags:
        options.append({"id": "think", "name": "Think harder", "category": "other", "type": "boolean",
                        "currentValue": think})  # fmt: skip
    return options

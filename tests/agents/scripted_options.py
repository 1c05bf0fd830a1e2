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

"""Session modes and the model config option: what a client can switch, and how the demo reports it."""

from __future__ import annotations

from acp.schema import (
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
)

DEFAULT_MODE = "code"
MODES: dict[str, SessionMode] = {
    "ask": SessionMode(id="ask", name="Ask", description="Answer questions without touching files"),
    "code": SessionMode(id="code", name="Code", description="Read, edit and run things in the project"),
}

MODEL_OPTION_ID = "model"
DEFAULT_MODEL = "demo-fast"
MODELS: dict[str, SessionConfigSelectOption] = {
    "demo-fast": SessionConfigSelectOption(value="demo-fast", name="Demo fast", description="Quick answers"),
    "demo-thorough": SessionConfigSelectOption(
        value="demo-thorough", name="Demo thorough", description="Same answers, more gravitas"
    ),
}


def mode_state(current_mode_id: str) -> SessionModeState:
    """The `modes` block of session/new, load and resume responses."""
    return SessionModeState(current_mode_id=current_mode_id, available_modes=list(MODES.values()))


def config_options(current_model: str) -> list[SessionConfigOptionSelect | SessionConfigOptionBoolean]:
    """The full `configOptions` list; the model is a config option (category "model"), as ACP v1 wants."""
    return [
        SessionConfigOptionSelect(
            type="select",
            id=MODEL_OPTION_ID,
            name="Model",
            description="Which pretend model answers",
            category="model",
            current_value=current_model,
            options=list(MODELS.values()),
        )
    ]

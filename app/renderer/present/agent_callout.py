"""The failure callout's title: what happened to the agent in plain words, above the sentence the main
side wrote (which keeps the exit code, the command and what ClawQt does next). A user reads "Claude
stopped unexpectedly" faster than "The agent exited with code 1". Pure: no Qt."""

from __future__ import annotations

# the code of a failure (AgentUnavailable.code) as the words after the agent's name
_BY_CODE = {
    "agent-not-found": "is not installed",
    "agent-not-executable": "cannot be run",
    "agent-spawn-failed": "could not be started",
    "initialize-failed": "did not start",
}


def callout_title(label: str, state: str, code: str, exit_code: int, recovering: bool) -> str:
    """ "<agent> stopped unexpectedly", "<agent> is not installed", ...: the agent named first."""
    name = label or "The agent"
    if recovering:
        return f"{name} stopped answering"
    if code in _BY_CODE:
        return f"{name} {_BY_CODE[code]}"
    if state == "exited":
        return f"{name} quit" if exit_code == 0 else f"{name} stopped unexpectedly"
    return f"{name} is not available"

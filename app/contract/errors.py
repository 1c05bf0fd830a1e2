"""Errors the host API raises; each carries a stable `code` the UI can switch on and a human message."""

from __future__ import annotations


class HostError(Exception):
    """Base class: `code` is stable (used by views and tests), `str(exc)` is for people."""

    code = "host-error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class AgentUnavailable(HostError):
    """The agent could not be started, did not initialize, or exited."""

    code = "agent-unavailable"


class PromptRefused(HostError):
    """A prompt was not sent because a main-side rule forbids it (the code says which)."""

    code = "prompt-refused"


class LoadFailed(HostError):
    """`session/new` or `session/load` failed; the previous session stays active."""

    code = "load-failed"


class CapabilityMissing(HostError):
    """The agent did not announce the capability an operation needs."""

    code = "capability-missing"


class AgentRequestFailed(HostError):
    """The agent answered a request with a JSON-RPC error."""

    code = "agent-error"


class FileChangeRefused(HostError):
    """A change the agent made could not be undone (the file changed since, or the write is unknown)."""

    code = "file-change-refused"

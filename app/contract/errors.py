"""Errors the host API raises; each carries a stable `code` the UI can switch on and a human message."""

from __future__ import annotations

from enum import Enum


class HostError(Exception):
    """Base class: `code` is stable (used by views and tests), `str(exc)` is one sentence for people,
    `details` what a curious user or a bug report wants (shown behind a disclosure)."""

    code = "host-error"

    def __init__(self, message: str, *, code: str | None = None, details: str = "") -> None:
        super().__init__(message)
        self.details = details
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
    """The agent answered a request with a JSON-RPC error (`rpc_code`: its number)."""

    code = "agent-error"

    def __init__(self, message: str, *, rpc_code: int, code: str | None = None, details: str = "") -> None:
        super().__init__(message, code=code, details=details)
        self.rpc_code = rpc_code


class SaveFailed(HostError):
    """A file the user chose to write (an exported chat) could not be written; nothing was changed."""

    code = "save-failed"


class TraceUnreadable(HostError):
    """A trace file the user chose to open cannot be read (missing, too large, not a trace)."""

    code = "trace-unreadable"


class AgentTimedOut(HostError):
    """The agent did not answer a request within its deadline (it may still be working on it)."""

    code = "agent-timeout"


class SignInRequired(HostError):
    """The agent refused because nobody is signed in: the sign-in panel (a SignInEnvelope) says how,
    so views need no notice of their own for it."""

    code = "sign-in-required"


class FileChangeRefused(HostError):
    """A change the agent made could not be undone (the file changed since, or the write is unknown)."""

    code = "file-change-refused"


class Refusal(Enum):
    """Why an attachment cannot be used; the value is the text the user sees."""

    INVALID_REFERENCE = "invalid reference"
    UNSAFE_URL = "unsafe URL"
    STALE_SESSION = "stale session"
    NOT_A_FILE = "not a file"
    UNAVAILABLE = "unavailable"
    OPERATION_FAILED = "operation failed"
    NOT_WITHOUT_A_CLICK = "outside the workspace: shown when you click it"


class AttachmentError(HostError):
    """An attachment reference was refused or could not be used (`refusal` says which rule)."""

    def __init__(self, refusal: Refusal, detail: str = "") -> None:
        super().__init__(f"{refusal.value}: {detail}" if detail else refusal.value, code=refusal.name.lower())
        self.refusal = refusal
        self.detail = detail

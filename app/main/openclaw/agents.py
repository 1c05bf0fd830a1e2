"""OpenClaw's own agents, the targets of a new chat: read from the Gateway (`agents.list`, read-only)
and named in the session key ClawQt proposes (`agent:<id>:clawqt-<12 hex>`). A chat keeps its agent for
good: OpenClaw routes by the key, and a loaded chat is loaded by its key.

Authority: only an id of OpenClaw's form (lowercase letters, digits, `_` and `-`, 1-64) goes into a key;
anything else from the Gateway is left out of the list, and a target the renderer names that is not of
that form is refused. System agents (`kind: "system"`) are not offered. Pure but for `gateway_targets`,
which reads through the Gateway reader (bounded, never raising)."""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from app.contract.agents import TARGET_RE, AgentTarget, target_of
from app.contract.errors import HostError
from app.contract.hidden_characters import visible

DEFAULT_TARGET = "main"
MAX_TARGETS = 64
MAX_NAME_CHARS = 80


class _Reader(Protocol):
    async def call(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None: ...


class _Supplements(Protocol):
    @property
    def reader(self) -> _Reader: ...


class _Service(Protocol):
    @property
    def transcripts(self) -> _Supplements | None: ...  # the Gateway access: OpenClaw agents only


def new_session_key(target: str = "") -> str:
    """The key a new chat proposes: OpenClaw's agent `target` (its default, `main`, when none)."""
    if target and not TARGET_RE.fullmatch(target):
        raise HostError(f"{target!r} is not an OpenClaw agent id.", code="bad-target")
    return f"agent:{target or DEFAULT_TARGET}:clawqt-{uuid.uuid4().hex[:12]}"


def parse_agents(payload: Any) -> list[AgentTarget]:
    """The agents of an `agents.list` answer a chat may go to, the default first; [] for anything odd."""
    if not isinstance(payload, dict) or not isinstance(payload.get("agents"), list):
        return []
    default = payload.get("defaultId")
    targets: list[AgentTarget] = []
    for entry in payload["agents"][: MAX_TARGETS * 4]:
        if not isinstance(entry, dict) or entry.get("kind") == "system":
            continue
        target_id = entry.get("id")
        if not isinstance(target_id, str) or not TARGET_RE.fullmatch(target_id):
            continue
        identity = entry.get("identity")
        identity = identity if isinstance(identity, dict) else {}
        name = _text(identity.get("name")) or _text(entry.get("name")) or target_id
        targets.append(AgentTarget(target_id, name, _text(identity.get("emoji"))[:8], target_id == default))
        if len(targets) == MAX_TARGETS:
            break
    targets.sort(key=lambda t: (not t.default, t.name.casefold(), t.target_id))
    return targets


def _text(value: Any) -> str:
    return visible(value)[:MAX_NAME_CHARS].strip() if isinstance(value, str) else ""


async def service_targets(service: _Service) -> list[AgentTarget]:
    """The Gateway's agents of a chat service; [] for an agent that is not OpenClaw, or when the Gateway
    cannot be read (a chat then goes to OpenClaw's default)."""
    if service.transcripts is None:
        return []
    return parse_agents(await service.transcripts.reader.call("agents.list", {}))


__all__ = ["DEFAULT_TARGET", "new_session_key", "parse_agents", "service_targets", "target_of"]

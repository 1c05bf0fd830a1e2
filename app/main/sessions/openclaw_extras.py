"""What ClawQt adds for `openclaw acp` agents only (nothing for any other agent): seed 003's transcript
supplements (`openclaw/supplement.py`) and the bridge restarted when it stays without its gateway
(`bridge_recovery.py`). The Gateway reader's modules (urllib, websockets) load only for OpenClaw."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.contract.envelopes import Envelope
from app.main.openclaw.endpoint import is_openclaw_acp
from app.main.sessions.bridge_recovery import BridgeRecovery
from app.main.sessions.extras import Spawn

if TYPE_CHECKING:
    from app.main.openclaw.supplement import OpenClawSupplements


def openclaw_extras(
    argv: tuple[str, ...],
    emit: Callable[[Envelope], None],
    spawn: Spawn,
    request: Callable[[str, dict[str, Any]], Awaitable[Any]],
    restart: Callable[[], Awaitable[None]],
) -> tuple[OpenClawSupplements | None, BridgeRecovery | None]:
    """The supplements and the recovery of an agent started with `argv` (None, None when it is not
    OpenClaw's bridge, or names no gateway ClawQt can read)."""
    if not is_openclaw_acp(argv):
        return None, None
    from app.main.openclaw.supplement import OpenClawSupplements

    transcripts = OpenClawSupplements.for_command(
        argv, os.environ, emit, lambda work: spawn(work, "transcript-supplement")
    )
    if transcripts is None:
        return None, None
    recovery_spawn = lambda work: spawn(work, "bridge-recovery")  # noqa: E731
    recovery = BridgeRecovery(transcripts.reader.reachable, request, restart, emit, recovery_spawn)
    return transcripts, recovery

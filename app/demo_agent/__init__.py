"""`clawqt demo-agent`: a model-free ACP agent on stdio, the app's default agent and a test fixture.
Given ClawQt's terminal MCP server in `session/new`, its `/terminals` and `/terminal` commands use the
user's shared terminals through it (terminal_commands.py), for users without OpenClaw.

Environment: CLAWQT_DEMO_DELAY_MS (pause between streamed chunks, default 15), CLAWQT_DATA_DIR (sessions
go to <data dir>/demo-agent/sessions), CLAWQT_DEMO_LOG_LEVEL (stderr logging, default INFO).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

DEFAULT_DELAY_MS = 15.0

log = logging.getLogger(__name__)


def delay_from_env() -> float:
    """Seconds between streamed chunks; CLAWQT_DEMO_DELAY_MS overrides (tests use 0)."""
    raw = os.environ.get("CLAWQT_DEMO_DELAY_MS", "").strip()
    if not raw:
        return DEFAULT_DELAY_MS / 1000
    try:
        value = float(raw)
    except ValueError:
        log.warning("demo-agent: ignoring CLAWQT_DEMO_DELAY_MS=%r (not a number)", raw)
        return DEFAULT_DELAY_MS / 1000
    return max(value, 0.0) / 1000


async def _serve() -> None:
    import acp

    from app.demo_agent.agent import DemoAgent
    from app.demo_agent.store import SessionStore
    from app.main.core.paths import data_dir

    store = SessionStore(data_dir() / "demo-agent" / "sessions")
    agent = DemoAgent(store, delay=delay_from_env())
    try:
        reader, writer = await acp.stdio_streams(limit=50 * 1024 * 1024)
    except ValueError as exc:  # asyncio's pipe transports refuse regular files
        raise SystemExit(
            f"demo-agent: stdin and stdout must be pipes (run it from an ACP client): {exc}"
        ) from None
    if os.name == "posix":
        # The SDK's pipe transport already holds the real stdout; anything else that prints would
        # corrupt the JSON-RPC stream, so it goes to stderr instead. (On Windows the SDK writes through
        # sys.stdout itself, so leave it.)
        sys.stdout = sys.stderr
    await acp.run_agent(agent, writer, reader, use_unstable_protocol=True)


def run() -> int:
    """Serve ACP on stdin/stdout until the client closes stdin. Logs go to stderr only."""
    logging.basicConfig(
        stream=sys.stderr,
        level=os.environ.get("CLAWQT_DEMO_LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        asyncio.run(_serve())
    except KeyboardInterrupt:
        return 130
    return 0

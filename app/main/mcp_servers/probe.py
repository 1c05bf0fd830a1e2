"""Whether a server given to an agent can start, checked beside the session it was given to (never
delaying it): a stdio server's program is found and runnable (on the PATH the agent has, or as a path,
relative ones from the chat's folder); an http or sse server's address answers a connection within
PROBE_TIMEOUT_S. The agent starts the servers itself: this only finds what would keep one from
starting, to say it on the chat, in words."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
from urllib.parse import urlsplit

from app.main.mcp_servers.servers import McpServer

PROBE_TIMEOUT_S = 3.0


async def problem_starting(server: McpServer, cwd: str) -> str:
    """Why `server` cannot start ("" when nothing keeps it from starting)."""
    if server.transport == "stdio":
        program = shlex.split(server.command)[0]
        if os.sep in program:
            path = program if os.path.isabs(program) else os.path.join(cwd, program)
            if not os.path.isfile(path):
                return f"its program {program} does not exist."
            return (
                "" if os.access(path, os.X_OK) else f"its program {program} cannot be run (not executable)."
            )
        return "" if shutil.which(program) else f"its program {program} is not on the PATH."
    parts = urlsplit(server.command)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), PROBE_TIMEOUT_S)
    except (OSError, ValueError) as exc:
        return f"its address {server.command} cannot be reached ({getattr(exc, 'strerror', None) or exc})."
    except TimeoutError:
        return f"its address {server.command} did not answer within {PROBE_TIMEOUT_S:g} s."
    writer.close()
    return ""

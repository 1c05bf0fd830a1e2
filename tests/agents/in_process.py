"""An agent served in the test's own process, beside the subprocess ones (like Zed's
`StubAgentConnection`): the demo agent (app/demo_agent, the ACP SDK's agent side) on one end of two
OS pipes, ClawQt's connection on the other, through the same door the app starts a real agent by
(`AgentConnection(launch=...)`). Everything between the pipes is real (the transport, JSON-RPC, the
session machine, the SDK); what is saved is the interpreter's start, for tests of ClawQt's rules that
do not need a child process."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import acp

from app.demo_agent.agent import DemoAgent
from app.demo_agent.store import SessionStore
from app.main.agents.command import AgentCommand
from app.main.agents.stderr_buffer import StderrBuffer

PIPE_LIMIT = 64 * 1024 * 1024


async def _reader(fd: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=PIPE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0))
    return reader


async def _writer(fd: int) -> asyncio.StreamWriter:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), os.fdopen(fd, "wb", 0)
    )
    return asyncio.StreamWriter(transport, protocol, None, loop)


class InProcessAgent:
    """A running in-process agent as the connection sees one (`RunningAgent`)."""

    pid = None  # no process of its own

    def __init__(self, stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader, log: Path | None) -> None:
        self.proc = SimpleNamespace(stdin=stdin, stdout=stdout)
        self.stderr = StderrBuffer(log)
        self.task: asyncio.Task[None] | None = None

    @property
    def returncode(self) -> int | None:
        if self.task is None or not self.task.done():
            return None
        return 0 if self.task.cancelled() or self.task.exception() is None else 1

    async def wait(self) -> int:
        assert self.task is not None
        with contextlib.suppress(BaseException):
            await asyncio.shield(self.task)
        return self.returncode if self.returncode is not None else 0

    async def stop(self, grace: float = 2.0) -> None:
        """Close its input (it ends as a child does at EOF); cancel it if it does not within `grace`."""
        self.proc.stdin.close()
        assert self.task is not None
        try:
            await asyncio.wait_for(asyncio.shield(self.task), grace)
        except Exception:  # it did not end within `grace`, or it failed
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task


def demo_agent_launcher(store_dir: Path) -> Callable[..., object]:
    """A launcher (`app.main.agents.process.Launcher`) that serves the demo agent in this process,
    its sessions kept under `store_dir`."""

    async def launch(
        command: AgentCommand,
        log_path: Path | None,
        on_line: Callable[[str], None] | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> InProcessAgent:
        to_agent_read, to_agent_write = os.pipe()
        to_client_read, to_client_write = os.pipe()
        running = InProcessAgent(await _writer(to_agent_write), await _reader(to_client_read), log_path)
        agent_in, agent_out = await _reader(to_agent_read), await _writer(to_client_write)
        agent = DemoAgent(SessionStore(store_dir), delay=0.0)

        async def serve() -> None:
            try:
                await acp.run_agent(agent, agent_out, agent_in, use_unstable_protocol=True)
            finally:
                agent_out.close()  # the client reads EOF: the agent ended

        running.task = asyncio.get_running_loop().create_task(serve(), name="in-process-agent")
        return running

    return launch


def in_process_command() -> AgentCommand:
    return AgentCommand(("in-process demo agent",), "flag", "served in the test's process")

"""`clawqt smoke`: a headless run of the whole owner side - pick the agent, start it (showing the
"starting agent" state), open a new session, send one prompt and print the streamed reply. It is what
the README's first command runs until the window lands, and a quick check that an agent works."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from app.contract.envelopes import Envelope
from app.contract.errors import HostError
from app.main.agents.command import AgentCommandError
from app.main.host.build import Launch, build_host
from app.main.host.make import Host
from app.main.sessions.hub import AgentHub


class _Printer:
    """Prints agent state, streamed text, and tool/permission activity as they arrive."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.service: AgentHub | None = None

    def __call__(self, envelope: Envelope) -> None:
        if envelope.kind == "agent_state":
            print(f"[agent {envelope.state}] {envelope.message}", file=sys.stderr)
        elif envelope.kind == "session_update":
            update = envelope.notification["update"]
            kind = update.get("sessionUpdate")
            content = update.get("content") if isinstance(update.get("content"), dict) else {}
            if kind == "agent_message_chunk" and content.get("type") == "text":
                self.out.write(content.get("text", ""))
                self.out.flush()
            elif kind == "agent_message_chunk" and content.get("type") == "resource_link":
                self.out.write(f"\n[attachment] {content.get('name')} <{content.get('uri')}>\n")
            elif kind == "tool_call":
                self.out.write(f"\n[tool] {update.get('title')} ({update.get('kind', 'other')})\n")
        elif envelope.kind == "permission_request" and self.service is not None:
            first = next(iter(envelope.options), {})
            print(f"\n[permission] auto-choosing {first.get('name')!r} (headless)", file=sys.stderr)
            self.service.answer_permission(envelope.request_id, first.get("optionId"))
        elif envelope.kind == "diagnostic" and envelope.level == "error":
            print(f"[{envelope.code}] {envelope.message}", file=sys.stderr)


async def _run(host: Host, prompt: str, printer: _Printer) -> int:
    service = host.sessions
    try:
        info = await service.start()
        print(f"[agent] {info.title or info.name} {info.version or ''}".rstrip(), file=sys.stderr)
        session = await service.new_session()
        print(f"[session] {session.session_key}", file=sys.stderr)
        print(f"> {prompt}")
        result = await service.prompt(session.session_key, prompt)
        print(f"\n[turn ended: {result.stop_reason}]", file=sys.stderr)
        return 0
    except HostError as exc:
        print(f"\nerror ({exc.code}): {exc}", file=sys.stderr)
        if exc.details:
            print(exc.details, file=sys.stderr)
        return 1
    finally:
        await host.shutdown()


def run_smoke(args: argparse.Namespace, prompt: str) -> int:
    try:
        host, recorder = build_host(Launch.of(args))  # the main side as the window gets it
    except AgentCommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in host.problems.reported():  # never fatal: said, and the defaults apply
        print(f"warning: {problem.text}", file=sys.stderr)
    command = host.sessions.current_service.connection.command
    print(f"[agent] {command.display} ({command.reason})", file=sys.stderr)
    printer = _Printer(sys.stdout)
    printer.service = host.sessions
    host.sessions.subscribe(printer)
    try:
        return asyncio.run(_run(host, prompt, printer))
    finally:
        if recorder is not None:
            recorder.close()

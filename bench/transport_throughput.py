"""Throughput of the owner side: how long 10,000 streamed updates take from a real agent subprocess
to routed envelopes, compared side by side with the SDK's default client path and a raw json.loads
baseline, in one run. Prints medians and ratios (lower is better)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import acp  # noqa: E402

from app.main.agent_command import AgentCommand  # noqa: E402
from app.main.chat_service import ChatService  # noqa: E402

AGENT = (sys.executable, str(REPO / "tests" / "agents" / "scripted_agent.py"))


async def clawqt_path(updates: int, cwd: str) -> float:
    """ChatService: our transport, in-order interception, routing, one envelope per update."""
    service = ChatService(AgentCommand(AGENT, "flag", "bench"), cwd=cwd, log_path=Path(cwd) / "e.log")
    received = 0

    def count(envelope: Any) -> None:
        nonlocal received
        if envelope.kind == "session_update":
            received += 1

    service.subscribe(count)
    try:
        session = await service.new_session()
        started = time.perf_counter()
        await service.prompt(session.session_key, f"blast {updates}")
        elapsed = time.perf_counter() - started
    finally:
        await service.shutdown()
    assert received == updates, received
    return elapsed


class _CountingClient(acp.Client):
    def __init__(self) -> None:
        self.count = 0

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.count += 1

    async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
        raise acp.RequestError.method_not_found("session/request_permission")


async def sdk_path(updates: int, cwd: str) -> float:
    """The SDK's own client: NdjsonTransport, pydantic validation, one task per message."""
    proc = await asyncio.create_subprocess_exec(
        *AGENT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=64 * 1024 * 1024,
    )
    client = _CountingClient()
    conn = acp.connect_to_agent(client, proc.stdin, proc.stdout)
    try:
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=cwd)
        started = time.perf_counter()
        await conn.prompt(session_id=session.session_id, prompt=[acp.text_block(f"blast {updates}")])
        elapsed = time.perf_counter() - started
    finally:
        await conn.close()
        proc.kill()
        await proc.wait()
    assert client.count >= updates, client.count
    return elapsed


def raw_json_baseline(updates: int) -> float:
    """Parsing the same NDJSON bytes with json.loads, no pipes and no routing: the floor."""
    piece = "lorem ipsum dolor sit amet " * 7
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {
                    "sessionId": "acp-1",
                    "update": {
                        "sessionUpdate": "agent_message_chunk",
                        "content": {"type": "text", "text": f"{i}:{piece}"},
                    },
                },
            }
        )
        for i in range(updates)
    ]
    started = time.perf_counter()
    for line in lines:
        json.loads(line)
    return time.perf_counter() - started


def qasync_run(coro_factory: Any) -> float:
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    with loop:
        return loop.run_until_complete(coro_factory())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    results: dict[str, list[float]] = {
        "raw json.loads": [],
        "SDK client (asyncio)": [],
        "ClawQt (asyncio)": [],
        "ClawQt (qasync)": [],
    }
    with tempfile.TemporaryDirectory() as cwd:
        for _ in range(args.rounds):  # interleaved rounds: noise hits every contender alike
            results["raw json.loads"].append(raw_json_baseline(args.updates))
            results["SDK client (asyncio)"].append(asyncio.run(sdk_path(args.updates, cwd)))
            results["ClawQt (asyncio)"].append(asyncio.run(clawqt_path(args.updates, cwd)))
            results["ClawQt (qasync)"].append(qasync_run(lambda: clawqt_path(args.updates, cwd)))
    medians = {name: statistics.median(times) for name, times in results.items()}
    sdk = medians["SDK client (asyncio)"]
    print(f"{args.updates} agent_message_chunk updates, median of {args.rounds} interleaved rounds")
    print(f"{'path':<24}{'median s':>10}{'x raw json':>12}{'x SDK':>8}")
    for name, median in medians.items():
        print(f"{name:<24}{median:>10.3f}{median / medians['raw json.loads']:>12.1f}{median / sdk:>8.2f}")


if __name__ == "__main__":
    main()

"""Records tests/fixtures/openclaw-session.trace.jsonl: one full session against the real OpenClaw
(`python -m tests.e2e.record_fixture`). The replay tests use the committed file."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.e2e.conftest import EXEC_APPROVALS, NO_PERIODIC_HEARTBEAT
from tests.e2e.fake_model import FakeModel
from tests.e2e.gateway import Gateway, gateway_config
from tests.e2e.openclaw_env import ensure_openclaw

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "openclaw-session.trace.jsonl"


async def record() -> None:
    env = ensure_openclaw()
    model = FakeModel().start()
    work = Path(tempfile.mkdtemp(prefix="clawqt-record-"))
    gateway = Gateway(
        env, work / "state", gateway_config(model.base_url, {**EXEC_APPROVALS, **NO_PERIODIC_HEARTBEAT})
    ).start()
    os.environ.update(gateway.process_env())
    notes = work / "notes.txt"
    notes.write_text("the secret word is pelican\n")
    model.read_path = str(notes)
    FIXTURE.unlink(missing_ok=True)
    recorder = TraceRecorder(FIXTURE)
    service = ChatService(
        AgentCommand(gateway.agent_argv(), "flag", "record"),
        cwd=str(work),
        recorder=recorder,
        log_path=work / "stderr.log",
    )
    service.subscribe(
        lambda e: (
            e.kind == "permission_request"
            and service.answer_permission(
                e.request_id, next(o["optionId"] for o in e.options if o.get("kind") == "allow_once")
            )
        )
    )
    pipeline = HeadlessPipeline(service)
    try:
        timeline = await pipeline.new_session()
        for text in (
            "Say hello please",
            "please think about it",
            "please read file notes",
            "/status",
            "please run command now",
        ):
            await pipeline.prompt(timeline.session_key, text)
    finally:
        await service.shutdown()
        recorder.close()
        gateway.stop()
        model.stop()
    print(f"recorded {FIXTURE} ({FIXTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    asyncio.run(record())

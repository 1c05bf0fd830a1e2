"""The chat service runs on the Qt thread through qasync in the app: subprocess pipes, the pidfd exit
watcher (add_reader -> QSocketNotifier) and timers must all work there, not only on plain asyncio."""

from __future__ import annotations

import asyncio

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from app.contract.errors import AgentUnavailable
from app.main.agents.command import AgentCommand
from app.main.sessions.service import ChatService
from tests.conftest import scripted_agent_argv


@pytest.fixture
def qt_loop():
    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    yield loop
    loop.close()


def test_prompt_permission_and_child_exit_under_qasync(qt_loop, tmp_path):
    async def scenario() -> tuple[str, str, int | None]:
        service = ChatService(
            AgentCommand(scripted_agent_argv(), "flag", "test"),
            cwd=str(tmp_path),
            log_path=tmp_path / "stderr.log",
        )
        seen: list = []
        service.subscribe(seen.append)
        try:
            session = await service.new_session()
            await service.prompt(session.session_key, "hello")
            text = "".join(
                e.notification["update"]["content"]["text"]
                for e in seen
                if e.kind == "session_update"
                and e.notification["update"]["sessionUpdate"] == "agent_message_chunk"
            )
            running = asyncio.ensure_future(service.prompt(session.session_key, "permission"))
            while not [e for e in seen if e.kind == "permission_request"]:
                await asyncio.sleep(0.01)  # the poll's interval
            request = next(e for e in seen if e.kind == "permission_request")
            service.answer_permission(request.request_id, "allow")
            await running
            chunks = [
                e.notification["update"]["content"]["text"]
                for e in seen
                if e.kind == "session_update"
                and e.notification["update"]["sessionUpdate"] == "agent_message_chunk"
            ]
            outcome = chunks[-1]
            with pytest.raises(AgentUnavailable):
                await service.prompt(session.session_key, "exit")
            while service.connection.state != "exited":
                await asyncio.sleep(0.01)  # the poll's interval
            return text, outcome, service.connection.last_exit_code
        finally:
            await service.shutdown()

    with qt_loop:
        text, outcome, code = qt_loop.run_until_complete(asyncio.wait_for(scenario(), 30))
    assert text == "Hello world"
    assert outcome == "outcome: allow"
    assert code == 3

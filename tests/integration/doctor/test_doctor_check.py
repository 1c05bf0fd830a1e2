"""The protocol doctor with real agent processes (app/main/doctor/): its report read from the agent the
window runs and checked against the `initialize` answer on the wire; its check on a connection of its
own, step by step with times (the demo agent; fast-agent); an agent that exits at start reported with
its exit and its stderr, the later steps not tried."""

from __future__ import annotations

import sys
from pathlib import Path

from app.main.agents.profiles import AgentProfile
from app.main.doctor.host_part import Doctor
from app.main.host.make import hub_parts, make_host, own_connection
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from tests.conftest import demo_agent_argv
from tests.fast_agent_support import fast_agent_args

BROKEN = (sys.executable, "-c", "import sys; sys.stderr.write('no model is configured\\n'); sys.exit(3)")


def _hub(tmp_path: Path, *profiles: AgentProfile) -> AgentHub:
    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    return AgentHub(list(profiles), make, **hub_parts(tmp_path / "data"), default_cwd=str(tmp_path))


def _doctor_on_the_wire(hub: AgentHub) -> tuple[Doctor, list[tuple[str, dict]]]:
    """The doctor as the app makes it, its check's connection's traffic kept."""
    wire: list[tuple[str, dict]] = []

    def make(agent_id: str) -> ChatService:
        service = own_connection(hub, agent_id, "doctor")
        service.observe_raw(lambda direction, message: wire.append((direction, message)))
        return service

    return Doctor(hub, make), wire


def _initialize_answer(wire: list[tuple[str, dict]]) -> dict:
    [sent] = [m for d, m in wire if d == "send" and m.get("method") == "initialize"]
    [answer] = [m["result"] for d, m in wire if d == "recv" and m.get("id") == sent["id"] and "result" in m]
    return answer


async def test_the_demo_agent_checked_step_by_step_and_its_report_is_what_it_said(tmp_path):
    hub = _hub(tmp_path, AgentProfile("demo", "Demo", demo_agent_argv(), "demo", "test"))
    host = make_host(hub, tmp_path / "data")
    try:
        assert host.doctor.report("demo") is None  # not started in this window yet
        await hub.start()
        running = host.doctor.report("demo")
        assert running is not None and running.running and running.steps == ()
        assert running.offered["agentCapabilities"] == hub.service("demo").agent_info.capabilities

        doctor, wire = _doctor_on_the_wire(hub)
        said = []
        report = await doctor.check("demo", True, said.append)
        assert [s.name for s in report.steps] == ["Start and initialize", "A new chat", "A short message"]
        assert said == list(report.steps)  # each as it ended
        assert all(s.ok and s.seconds > 0 for s in report.steps), report.steps
        assert report.steps[2].words.startswith("It answered (end_turn): ")
        # its showcase asks to edit a file: nobody answers a check, so the agent's own refusal goes
        assert report.steps[2].words.endswith(
            "It asked for Edit hello.py: refused, as nobody answers a check."
        )
        answer = _initialize_answer(wire)
        assert report.offered["agentCapabilities"] == answer["agentCapabilities"]
        assert report.offered["protocolVersion"] == answer["protocolVersion"]
        assert report.offered["agentInfo"]["name"] == answer["agentInfo"]["name"]
        [sent] = [m["params"] for d, m in wire if d == "send" and m.get("method") == "initialize"]
        assert report.declared["clientCapabilities"] == sent["clientCapabilities"]
        loads = {f.feature: f.on for f in report.findings}["Opening old chats"]
        assert loads == bool(answer["agentCapabilities"].get("loadSession"))
        assert not [m for d, m in wire if d == "send" and m.get("method") == "session/prompt"][1:]

        wire.clear()
        quiet = await doctor.check("demo", False, lambda step: None)
        assert [s.name for s in quiet.steps] == ["Start and initialize", "A new chat"]
        assert not [m for d, m in wire if m.get("method") == "session/prompt"]  # no message unless allowed
    finally:
        await host.shutdown()


async def test_an_agent_that_exits_at_start_is_reported_with_its_exit_and_stderr(tmp_path):
    hub = _hub(tmp_path, AgentProfile("broken", "Broken", BROKEN, "config", "test"))
    host = make_host(hub, tmp_path / "data")
    try:
        report = await host.doctor.check("broken", True, lambda step: None)
        [step] = report.steps
        assert step.name == "Start and initialize" and not step.ok
        assert "3" in step.words, step.words
        assert "no model is configured" in report.stderr_tail
        assert report.offered == {} and report.findings == ()
        assert report.declared["clientCapabilities"]["elicitation"] == {"form": {}, "url": {}}
    finally:
        await host.shutdown()


async def test_fast_agent_checked_with_a_short_message(tmp_path, fast_agent):
    argv = fast_agent.argv + fast_agent_args(tmp_path / "home", "passthrough", shell=False)
    hub = _hub(tmp_path, AgentProfile("fast", "fast-agent", argv, "config", "test"))
    doctor, wire = _doctor_on_the_wire(hub)
    report = await doctor.check("fast", True, lambda step: None)
    assert [(s.name, s.ok) for s in report.steps] == [
        ("Start and initialize", True),
        ("A new chat", True),
        ("A short message", True),
    ], report.steps
    assert "ok" in report.steps[2].words.lower()  # passthrough says back what it was sent
    answer = _initialize_answer(wire)
    assert report.offered["agentCapabilities"] == answer["agentCapabilities"]
    found = {f.feature: f.on for f in report.findings}
    assert found["Opening old chats"] == bool(answer["agentCapabilities"].get("loadSession"))
    assert found["MCP servers over HTTP"] == bool(
        (answer["agentCapabilities"].get("mcpCapabilities") or {}).get("http")
    )
    await hub.shutdown()

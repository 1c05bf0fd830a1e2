"""A trace for a bug report (app/main/acp/bug_trace.py), saved from a real agent's traffic: secrets
planted in ClawQt's environment, in the config's environment for the agent, in a prompt, in a file the
agent reads (and quotes) and in a tool's output appear nowhere in it; the user's home folder is `~`;
its first line says what was taken out; `clawqt replay` reads it."""

from __future__ import annotations

import json

from app.main.agents.command import AgentCommand
from app.main.host.parts import InspectorOfCurrent
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.replay import replay_json
from tests.conftest import scripted_agent_argv

PLANTED = {
    "process env": "envsecret-5be1c0de77",  # ClawQt's own environment (PLANTED_TOKEN)
    "config env": "configsecret-7d1e44aa",  # the config's environment for the agent
    "prompt": "sk-ant-api03-PLANTEDabcdefghijklmnop",  # pasted into a message
    "file": "filesecret-93c2b7f0",  # in a file the agent reads through ClawQt
}


async def test_nothing_planted_is_in_a_trace_for_a_bug_report_and_replay_reads_it(tmp_path, monkeypatch):
    home = tmp_path / "home"
    workspace = home / "project"
    workspace.mkdir(parents=True)
    (workspace / "notes.txt").write_text(f"db password: {PLANTED['file']}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PLANTED_TOKEN", PLANTED["process env"])
    command = AgentCommand(
        scripted_agent_argv(), "config", "test", (("PLANTED_CONFIG", PLANTED["config env"]),)
    )
    service = ChatService(command, cwd=str(workspace), log_path=tmp_path / "agent.log")
    try:
        inspector = InspectorOfCurrent(AgentHub.single(service))
        session = await service.new_session()
        key = session.session_key
        await service.prompt(key, "echo-env PLANTED_TOKEN")  # a tool's output: ClawQt's environment
        await service.prompt(key, "echo-env PLANTED_CONFIG")  # the config's, for this agent
        await service.prompt(key, f"hello, my key is {PLANTED['prompt']}")
        await service.prompt(key, "fs-read notes.txt")  # read through ClawQt, and quoted back
        plain = tmp_path / "plain.jsonl"
        await inspector.save_trace(str(plain))
        assert all(secret in plain.read_text() for secret in PLANTED.values())  # they were said

        trace = tmp_path / "for-a-bug-report.jsonl"
        written, note = await inspector.save_report_trace(str(trace))
        text = trace.read_text()
        assert [name for name, secret in PLANTED.items() if secret in text] == []
        assert str(home) not in text and '"cwd": "~/project"' in text
        first = json.loads(text.splitlines()[0])
        assert first["dir"] == "note" and first["text"] == note
        assert "file contents" in note and "environment and headers" in note and "credentials" in note
        assert written == len(text.splitlines()) - 1
        assert "[file contents: " in text and "[redacted: env PLANTED_TOKEN]" in text

        replayed = replay_json(trace)  # `clawqt replay` renders it
        assert [s["key"] for s in replayed["sessions"]] == [key]
        said = [g["text"] for g in replayed["sessions"][0]["groups"] if g["kind"] == "user"]
        assert said[0] == "echo-env PLANTED_TOKEN" and "[redacted credential]" in said[2]
    finally:
        await service.shutdown()

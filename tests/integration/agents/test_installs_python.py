"""A Python agent installed from a local registry file with a real PyPI package
(app/main/agents/install_kinds.py): fast-agent-mcp into a private venv under a scratch data folder
(pip, with the Python the suite's fast-agent uses; the suite's constraints keep pip to the versions its
cache holds), offered with its program, and a chat opened and answered with it (its `passthrough`
model echoes: no LLM)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from app.main.agents.install_kinds import PYTHON_ENV_VAR
from app.main.agents.installs import ROOT, Installs
from app.main.agents.registry import parse_registry
from tests.fast_agent_support import (
    FAST_AGENT_CONSTRAINTS,
    FAST_AGENT_PACKAGE,
    FAST_AGENT_VERSION,
    fast_agent_args,
    find_python_for_fast_agent,
)


async def test_fast_agent_installed_from_pypi_opens_a_chat_and_answers(
    make_service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PYTHON_ENV_VAR, find_python_for_fast_agent().executable)
    monkeypatch.setenv("PIP_CONSTRAINT", str(FAST_AGENT_CONSTRAINTS))
    entry = {
        "id": "fast-agent",
        "name": "fast-agent",
        "version": FAST_AGENT_VERSION,
        "description": "fast-agent over ACP",
        "distribution": {
            "uvx": {
                "package": f"{FAST_AGENT_PACKAGE}=={FAST_AGENT_VERSION}",
                "cmd": "fast-agent",
                "args": list(fast_agent_args(tmp_path / "home", shell=False)),
            }
        },
    }
    (agent,), skipped = parse_registry(json.dumps({"agents": [entry]}).encode())
    assert skipped == 0 and agent.installs == "uvx"
    installs = Installs(tmp_path / "data")
    lines: list[str] = []
    said = await installs.install(agent, lines.append)
    assert said == "", "\n".join(lines[-20:])
    assert any("-m venv" in line for line in lines) and f"Installed fast-agent {FAST_AGENT_VERSION}." in lines
    assert installs.installed()[0].answered is True  # its first handshake
    (profile,) = installs.profiles()
    program = str(tmp_path / "data" / ROOT / "fast-agent" / "current" / "agent")
    assert profile.argv == (program, *fast_agent_args(tmp_path / "home", shell=False))

    service, envelopes = make_service(profile.argv)
    opened = await service.new_session()
    result = await asyncio.wait_for(service.prompt(opened.session_key, "hello from the registry"), 60)
    assert (
        result.stop_reason == "end_turn" and envelopes.text(opened.session_key) == "hello from the registry"
    )

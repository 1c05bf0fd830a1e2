"""Agents installed from a local registry file with real npm packages from the npm registry
(app/main/agents/installs.py): pi-acp at 0.0.24 installed into a scratch data folder and started (its
`initialize` names the version), updated to 0.0.34, pinned (an update refused), rolled back to 0.0.24
(the same folder, no download) and uninstalled; a cancelled install leaves nothing. The Codex adapter
(an npm package with a native program) installed and a chat started with it (an API key's sign-in)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from app.contract.errors import SignInRequired
from app.contract.registry import RegistryAgent
from app.main.agents.installs import CURRENT, LAUNCHER, MANIFEST, ROOT, Installs
from app.main.agents.registry import parse_registry

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}


def registry_agent(package: str, version: str, agent_id: str = "pi-acp", **extra: object) -> RegistryAgent:
    entry = {
        "id": agent_id,
        "name": agent_id.title(),
        "version": version,
        "description": "an ACP adapter",
        "distribution": {"npx": {"package": package, **extra}},
    }
    agents, skipped = parse_registry(json.dumps({"version": "1.0.0", "agents": [entry]}).encode())
    assert skipped == 0
    return agents[0]


def initialize(argv: tuple[str, ...], env: dict[str, str] | None = None) -> dict:
    """The agent's answer to `initialize`, from its own process."""
    done = subprocess.run(
        list(argv),
        input=json.dumps(INITIALIZE) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )
    for line in done.stdout.splitlines():
        if line.startswith("{") and '"id":1' in line.replace(" ", ""):
            return json.loads(line)["result"]
    raise AssertionError(f"no answer to initialize: {done.stdout[-500:]} {done.stderr[-500:]}")


def test_install_update_pin_roll_back_and_uninstall_a_real_npm_agent(tmp_path: Path) -> None:
    installs = Installs(tmp_path)
    offered = []
    installs.on_installed = offered.append
    lines: list[str] = []

    async def scenario() -> None:
        assert await installs.install(registry_agent("pi-acp", "0.0.24"), lines.append) == ""
        (profile,) = installs.profiles()
        assert [p.id for p in offered] == ["pi-acp"] and profile.source == "registry"
        assert profile.argv == (str(tmp_path / ROOT / "pi-acp" / CURRENT / LAUNCHER),)
        assert initialize(profile.argv)["agentInfo"]["version"] == "0.0.24"
        assert any(line.startswith("$ ") and "npm" in line for line in lines)
        (checked,) = installs.installed()  # its first handshake, kept beside it
        assert checked.answered is True and checked.sign_in == ("Launch pi in the terminal",)
        assert "It answers ACP (version 0.0.24); signing in: Launch pi in the terminal." in lines

        assert await installs.install(registry_agent("pi-acp@0.0.34", "0.0.34"), lines.append) == ""
        (now,) = installs.installed()
        assert (now.version, now.previous, now.pinned) == ("0.0.34", "0.0.24", False)
        assert initialize(profile.argv)["agentInfo"]["version"] == "0.0.34"
        assert len(offered) == 1  # an update is the same agent

        assert installs.pin("pi-acp", True) == ""
        said = await installs.install(registry_agent("pi-acp", "0.0.23"), lines.append)
        assert "pinned at 0.0.34" in said and installs.installed()[0].version == "0.0.34"

        assert installs.roll_back("pi-acp") == ""
        (back,) = installs.installed()
        assert (back.version, back.previous, back.pinned) == ("0.0.24", "0.0.34", True)
        assert initialize(profile.argv)["agentInfo"]["version"] == "0.0.24"
        assert "no earlier version" not in installs.roll_back("pi-acp")  # back and forth

        assert await installs.uninstall("pi-acp") == ""
        assert installs.installed() == [] and not (tmp_path / ROOT / "pi-acp").exists()
        assert json.loads((tmp_path / ROOT / MANIFEST).read_text()) == {"agents": {}}

    asyncio.run(scenario())


def test_a_cancelled_install_leaves_nothing(tmp_path: Path) -> None:
    installs = Installs(tmp_path)
    lines: list[str] = []

    async def scenario() -> str:
        job = asyncio.ensure_future(installs.install(registry_agent("pi-acp", "0.0.34"), lines.append))
        while not any(line.startswith("$ ") for line in lines):
            await asyncio.sleep(0.01)
        assert installs.installing() == ["pi-acp"] and installs.cancel("pi-acp")
        return await job

    said = asyncio.run(scenario())
    assert "cancelled" in said and installs.installed() == [] and installs.installing() == []
    assert not (tmp_path / ROOT / "pi-acp" / "0.0.34").exists()


def test_a_package_without_the_named_program_is_refused_and_removed(tmp_path: Path) -> None:
    installs = Installs(tmp_path)
    agent = registry_agent("pi-acp", "0.0.34", cmd="no-such-program")
    said = asyncio.run(installs.install(agent, lambda line: None))
    assert "has no program 'no-such-program' (it has pi-acp)" in said
    assert installs.installed() == [] and not (tmp_path / ROOT / "pi-acp" / "0.0.34").exists()


async def test_an_installed_codex_adapter_opens_a_chat_once_given_an_api_key(
    make_service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chat started with an agent installed from the registry: Codex refuses until signed in, its
    `openai-api-key` method's value is kept, the agent restarted and told (`authenticate`), and the chat
    opens. Nothing reaches OpenAI: the session opens without a model call."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "home" / ".codex"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("CODEX_API_KEY", raising=False)
    (tmp_path / "home" / ".codex").mkdir(parents=True)
    installs = Installs(tmp_path / "data")
    agent = registry_agent("@zed-industries/codex-acp@0.16.0", "0.16.0", agent_id="codex-acp")
    assert await installs.install(agent, lambda line: None) == ""
    (profile,) = installs.profiles()
    service, envelopes = make_service(profile.argv)
    with pytest.raises(SignInRequired):
        await service.new_session()
    methods = {m.id: m for m in envelopes.of_kind("sign_in")[-1].methods}
    assert methods["openai-api-key"].kind == "env_var"
    assert await service.sign_in.use_env("openai-api-key", {"OPENAI_API_KEY": "sk-test-clawqt"}) is True
    opened = await service.new_session()
    assert opened.session_key and service.agent_info is not None
    assert service.agent_info.version == "0.16.0"

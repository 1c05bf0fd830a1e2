"""Per-project settings with real agents (two processes in a hub): a `.clawqt.json` in the chat's
folder picks the agent a new chat starts with when the user names none, and the mode and model it
starts in (one the agent does not offer is left alone); a name that is not an offered agent falls back
to the agent used last."""

from __future__ import annotations

import json

import pytest

from app.main.agents.profiles import AgentProfile
from app.main.host.make import hub_parts
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from app.main.stores.projects import PROJECT_FILE
from tests.conftest import demo_agent_argv, scripted_agent_argv


def _hub(tmp_path, folder) -> AgentHub:
    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(folder), log_path=tmp_path / f"{profile.id}.log")

    profiles = [
        AgentProfile("demo", "Demo", demo_agent_argv(), "demo", "test"),
        AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test"),
    ]
    return AgentHub(profiles, make, **hub_parts(tmp_path / "data"), default_cwd=str(folder))


async def test_a_projects_agent_mode_and_model_start_its_new_chats(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    hub = _hub(tmp_path, repo)
    try:
        assert hub.agent_for_new_chat(str(repo)) == "demo"  # no project: the agent used last
        (repo / PROJECT_FILE).write_text(json.dumps({"agent": "Scripted", "mode": "b", "model": "m2"}))
        agent = hub.agent_for_new_chat(str(repo))
        assert agent == "scripted"  # named as Settings name it
        result = await hub.new_session_with(agent, str(repo))
        assert result.modes["currentModeId"] == "b"
        [model] = [o for o in result.config_options if o.get("category") == "model"]
        assert model["currentValue"] == "m2"

        (repo / PROJECT_FILE).write_text(json.dumps({"agent": "nobody", "mode": "no-such-mode"}))
        assert hub.agent_for_new_chat(str(repo)) == "scripted"  # not offered: the one used last
        plain = await hub.new_session_with("scripted", str(repo))
        assert plain.modes["currentModeId"] == "a"  # a mode it does not offer is left alone
    finally:
        await hub.shutdown()


async def test_a_projects_folders_and_mcp_servers_are_given_only_once_trusted(tmp_path):
    """What a `.clawqt.json` asks to grant: nothing reaches the agent (session/new's
    additionalDirectories and mcpServers, its fs/* reads) until the user trusts it; trusted, a new
    chat gets them; the file changed, nothing again until trusted anew; a problem said once."""
    from app.main.core.problems import LocalProblems
    from app.main.files.agent_files import AgentFileError
    from app.main.stores.project_grants import ProjectTrust
    from app.main.stores.projects import Projects

    repo, shared = tmp_path / "repo", tmp_path / "shared"
    repo.mkdir()
    shared.mkdir()
    (shared / "notes.txt").write_text("shared notes\n")
    caps = {"loadSession": True, "sessionCapabilities": {"additionalDirectories": {}}}
    folder = str(repo)

    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=folder, log_path=tmp_path / f"{profile.id}.log")

    scripted = AgentProfile(
        "scripted", "Scripted", scripted_agent_argv(f"--caps={json.dumps(caps)}"), "config", "t"
    )
    problems = LocalProblems()
    hub = AgentHub([scripted], make, **hub_parts(tmp_path / "data", problems), default_cwd=folder)
    hub.projects = Projects(problems, trust=ProjectTrust(tmp_path / "data", problems))
    asks = {"additionalDirectories": ["../shared"], "mcpServers": {"git": {"command": "echo mcp-git"}}}
    (repo / PROJECT_FILE).write_text(json.dumps({"mode": "b", **asks}))
    sent: list[dict] = []
    hub.service("scripted").observe_raw(
        lambda way, msg: sent.append(msg["params"]) if msg.get("method") == "session/new" else None
    )
    try:
        first = await hub.new_session_with("scripted", folder)
        assert "additionalDirectories" not in sent[-1] and sent[-1]["mcpServers"] == []
        assert [p.text for p in problems.reported() if "ask to grant" in p.text] == [
            f"The project settings {repo / PROJECT_FILE} ask to grant folders or MCP servers to its chats; "
            "they are not used until you trust them in Settings > Folders."
        ]
        files = hub.service("scripted").files
        with pytest.raises(AgentFileError, match="outside the session folder"):  # nobody trusted it
            await files.read(first.session_key, str(shared / "notes.txt"), None, None)
        shown = hub.project_settings(folder)
        assert shown is not None and shown["trusted"] == "no" and shown["folders"] == str(shared)
        assert shown["servers"] == "git: echo mcp-git"

        assert hub.trust_project(folder, True) == ""
        assert hub.project_settings(folder)["trusted"] == "yes"
        second = await hub.new_session_with("scripted", folder)
        assert sent[-1]["additionalDirectories"] == [str(shared)]
        assert sent[-1]["mcpServers"] == [{"name": "git", "command": "echo", "args": ["mcp-git"], "env": []}]
        assert await files.read(second.session_key, str(shared / "notes.txt"), None, None) == "shared notes\n"

        asks["additionalDirectories"] = ["/"]  # the file changed: its grants are asked about again
        (repo / PROJECT_FILE).write_text(json.dumps(asks))
        await hub.new_session_with("scripted", folder)
        assert "additionalDirectories" not in sent[-1] and sent[-1]["mcpServers"] == []
        assert hub.project_settings(folder)["trusted"] == "no"
        assert len([p for p in problems.reported() if "ask to grant" in p.text]) == 2
    finally:
        await hub.shutdown()

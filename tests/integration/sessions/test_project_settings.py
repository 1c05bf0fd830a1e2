"""Per-project settings with real agents (two processes in a hub): a `.clawqt.json` in the chat's
folder picks the agent a new chat starts with when the user names none, and the mode and model it
starts in (one the agent does not offer is left alone); a name that is not an offered agent falls back
to the agent used last."""

from __future__ import annotations

import json

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

"""Adding and removing agents from Settings: every refusal is a sentence and changes nothing; an added
agent is offered at once and appended to the config's agents with every other entry kept; a config file
ClawQt cannot read is never written (the agent is still offered for this run)."""

from __future__ import annotations

import json

from app.main.agent_profiles import AgentProfile
from app.main.agent_settings import MAX_NAME_CHARS, AgentSettings
from app.main.settings_file import SettingsFile


def _settings(tmp_path, content: object, offered: list[str] | None = None):
    config = tmp_path / "config.json"
    config.write_text(content if isinstance(content, str) else json.dumps(content))
    added: list[AgentProfile] = []
    agents = AgentSettings(
        SettingsFile(config),
        offered=lambda: offered or [],
        which=lambda p: f"/bin/{p}" if p != "gone" else None,
    )
    agents.on_added = added.append
    return config, agents, added


async def test_each_refusal_is_a_sentence_and_adds_nothing(tmp_path):
    config, agents, added = _settings(tmp_path, {"agents": []}, offered=["Claude"])
    assert await agents.add("  ", "x") == "The agent was not added: give it a name."
    assert "at most" in await agents.add("n" * (MAX_NAME_CHARS + 1), "x")
    assert (
        await agents.add("claude", "x")
        == 'The agent was not added: there is an agent named "claude" already.'
    )
    assert "cannot be read" in await agents.add("A", 'x "unclosed')
    assert await agents.add("A", "   ") == "The agent was not added: give the command line that starts it."
    assert await agents.add("A", "gone --acp") == (
        "The agent was not added: there is no program 'gone' on your PATH."
    )
    assert added == [] and json.loads(config.read_text()) == {"agents": []}


async def test_an_added_agent_is_offered_and_appended_and_a_removed_one_leaves_only_its_entry(tmp_path):
    kept = {"name": "Kept", "command": "kept-acp", "env": {"K": "1"}, "future": True}
    config, agents, added = _settings(tmp_path, {"agents": [kept], "other": 1})
    assert await agents.add(" Codex Work ", "codex-acp --profile work") == ""
    assert [(a.id, a.name, a.argv) for a in added] == [
        ("codex-work", "Codex Work", ("codex-acp", "--profile", "work"))
    ]
    data = json.loads(config.read_text())
    assert data == {
        "agents": [kept, {"name": "Codex Work", "command": "codex-acp --profile work"}],
        "other": 1,
    }
    assert agents.configured() == ["Codex Work"]  # this instance was made without the file's list
    assert "not one your config file lists" in await agents.remove("Kept")
    assert await agents.remove("Codex Work") == ""
    assert json.loads(config.read_text()) == {"agents": [kept], "other": 1}


async def test_an_unreadable_config_is_never_written_but_the_agent_is_offered_for_this_run(tmp_path):
    config, agents, added = _settings(tmp_path, "{not json")
    said = await agents.add("Echo", "echo-acp")
    assert "does not write to it" in said and config.read_text() == "{not json"
    assert [a.name for a in added] == ["Echo"]

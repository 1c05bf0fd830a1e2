"""Adding, editing and removing agents from Settings: every refusal is a sentence and changes nothing; an
added agent is offered at once and appended to the config's agents with every other entry kept; an edit
rewrites only its own entry (unknown fields kept, emptied ones taken out); the details shown are the
entry as the file holds it now; a config file ClawQt cannot read is never written (an added agent is
still offered for this run)."""

from __future__ import annotations

import json

from app.main.agents.profiles import AgentProfile, read_agents
from app.main.core.paths import shown
from app.main.stores.agent_settings import MAX_NAME_CHARS, AgentSettings
from app.main.stores.settings_file import SettingsFile


def _settings(tmp_path, content: object, offered: list[str] | None = None, *, listed: bool = False):
    """`listed`: made with the agents the file lists, as app/gui.py makes it from the config read."""
    config = tmp_path / "config.json"
    config.write_text(content if isinstance(content, str) else json.dumps(content, indent=2))
    configured = (
        read_agents(content.get("agents"), config, []) if listed and isinstance(content, dict) else ()
    )
    added: list[AgentProfile] = []
    agents = AgentSettings(
        SettingsFile(config),
        configured,
        offered=lambda: offered or [],
        which=lambda p: f"/bin/{p}" if p != "gone" else None,
        on_added=added.append,
    )
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


FULL = {
    "name": "Work",
    "command": "work-acp --fast",
    "args": ["--profile", "my work"],
    "env": {"ZED": "last", "API_KEY": "a=b", "MIDDLE": ""},
    "cwd": "~/projects",
    "defaultMode": "plan",
    "defaultModel": "big",
    "future": {"kept": True},
}
OTHER = {"name": "Other", "command": "other-acp", "env": {"K": "1"}, "args": ["-v"]}


def test_details_show_a_string_command_as_written_and_args_or_a_list_joined_into_one_line(tmp_path):
    plain = {"name": "Plain", "command": "plain-acp  --flag 'two words'"}
    listed = {"name": "Listed", "command": ["list-acp", "a b"], "args": ["--x"]}
    _, agents, _ = _settings(tmp_path, {"agents": [plain, FULL, listed]})
    assert agents.details("Plain") == {
        "name": "Plain",
        "command": "plain-acp  --flag 'two words'",
        "folder": "",
        "env": "",
        "defaultMode": "",
        "defaultModel": "",
    }
    assert agents.details("Work") == {
        "name": "Work",
        "command": "work-acp --fast --profile 'my work'",
        "folder": "~/projects",
        "env": "ZED=last\nAPI_KEY=a=b\nMIDDLE=",  # the file's order, not sorted
        "defaultMode": "plan",
        "defaultModel": "big",
    }
    assert agents.details("Listed")["command"] == "list-acp 'a b' --x"


async def test_details_are_the_file_as_it_is_now_and_empty_for_an_unknown_name_or_an_unreadable_file(
    tmp_path,
):
    config, agents, _ = _settings(tmp_path, {"agents": [OTHER]}, listed=True)
    assert agents.details("Nobody") == {} and agents.details("other") == {}
    config.write_text(json.dumps({"agents": [{**OTHER, "defaultModel": "changed by hand"}]}))
    assert agents.details("Other")["defaultModel"] == "changed by hand"
    config.write_text("{not json")
    assert agents.details("Other") == {}
    config.unlink()
    assert agents.details("Other") == {}


async def test_each_edit_refusal_is_a_sentence_and_leaves_the_file_byte_for_byte(tmp_path):
    config, agents, _ = _settings(tmp_path, {"agents": [FULL, OTHER], "other": 1}, listed=True)
    before = config.read_bytes()
    folder = str(tmp_path)

    async def edit(command="work-acp", where=folder, env="", name="Work"):
        return await agents.edit(name, command, where, env, "plan", "big")

    assert await edit(name="Nobody") == (
        "The agent 'Nobody' is not one your config file lists; nothing was changed."
    )
    assert await edit(command='x "unclosed') == (
        "The agent was not changed: its command line cannot be read (No closing quotation)."
    )
    assert await edit(command="  ") == "The agent was not changed: give the command line that starts it."
    assert await edit(command="gone --acp") == (
        "The agent was not changed: there is no program 'gone' on your PATH."
    )
    assert await edit(where="projects/work") == (
        "The agent was not changed: its folder must be a full path, and 'projects/work' is not one."
    )
    missing = tmp_path / "missing"
    assert (
        await edit(where=str(missing)) == f"The agent was not changed: there is no folder {shown(missing)}."
    )
    assert await edit(env="A=1\n\nNOEQUALS") == (
        "The agent was not changed: line 3 of its environment is not KEY=value."
    )
    for bad in ("1A", "A B"):
        assert await edit(env=f"OK=1\n{bad}=x") == (
            f"The agent was not changed: line 2 of its environment names {bad!r}, which is not a "
            "variable name (letters, digits and _, not starting with a digit)."
        )
    assert await edit(env="A=1\nA=2") == (
        "The agent was not changed: line 2 of its environment sets A a second time."
    )
    assert config.read_bytes() == before
    config.write_text(json.dumps({"agents": [OTHER]}))  # taken out by hand since ClawQt started
    before = config.read_bytes()
    assert await edit() == "The agent 'Work' is no longer in your config file; nothing was changed."
    assert config.read_bytes() == before


async def test_an_edit_rewrites_only_its_entry_keeping_unknown_fields_and_every_other_entry(tmp_path):
    config, agents, _ = _settings(tmp_path, {"agents": [OTHER, FULL], "other": 1}, listed=True)
    said = await agents.edit(
        "Work", " work-acp --profile 'my home' ", f" {tmp_path} ", "B=2\n\n A = x=y \n", " ask ", "small"
    )
    assert said == ""
    assert json.loads(config.read_text()) == {
        "agents": [
            OTHER,  # its own "args" kept: only the edited entry's are folded into its command
            {
                "name": "Work",
                "command": "work-acp --profile 'my home'",
                "env": {"B": "2", "A": " x=y "},
                "cwd": str(tmp_path),
                "defaultMode": "ask",
                "defaultModel": "small",
                "future": {"kept": True},
            },
        ],
        "other": 1,
    }
    assert agents.details("Work")["command"] == "work-acp --profile 'my home'"
    assert read_agents(json.loads(config.read_text())["agents"], config, [])[1].argv == (
        "work-acp",
        "--profile",
        "my home",
    )


async def test_fields_emptied_in_an_edit_are_taken_out_of_the_entry(tmp_path):
    config, agents, _ = _settings(tmp_path, {"agents": [FULL]}, listed=True)
    assert await agents.edit("Work", "work-acp", "", "\n  \n", "  ", "") == ""
    assert json.loads(config.read_text()) == {
        "agents": [{"name": "Work", "command": "work-acp", "future": {"kept": True}}]
    }


async def test_an_agent_added_with_a_folder_and_environment_is_offered_with_them_and_written(tmp_path):
    config, agents, added = _settings(tmp_path, {"agents": [OTHER]})
    assert await agents.add("Home", "home-acp", folder="relative", env_text="A=1") == (
        "The agent was not added: its folder must be a full path, and 'relative' is not one."
    )
    assert await agents.add("Home", "home-acp", env_text="A B=1") == (
        "The agent was not added: line 1 of its environment names 'A B', which is not a variable name "
        "(letters, digits and _, not starting with a digit)."
    )
    assert added == [] and agents.configured() == []
    assert await agents.add("Home", "home-acp", folder=str(tmp_path), env_text="Z=1\nA=2") == ""
    assert [(a.name, a.argv, a.env, a.cwd) for a in added] == [
        ("Home", ("home-acp",), (("Z", "1"), ("A", "2")), str(tmp_path))
    ]
    assert json.loads(config.read_text())["agents"] == [
        OTHER,
        {"name": "Home", "command": "home-acp", "cwd": str(tmp_path), "env": {"Z": "1", "A": "2"}},
    ]
    assert agents.details("Home")["env"] == "Z=1\nA=2"


async def test_an_entry_whose_name_has_spaces_around_it_is_edited_and_removed(tmp_path):
    spaced = {"name": " Spaced ", "command": "spaced-acp"}
    config, agents, _ = _settings(tmp_path, {"agents": [spaced, OTHER]}, listed=True)
    assert agents.configured() == ["Spaced", "Other"]
    assert agents.details("Spaced")["name"] == "Spaced"
    assert await agents.edit("Spaced", "spaced-acp --v2", "", "", "", "") == ""
    assert json.loads(config.read_text())["agents"][0] == {"name": " Spaced ", "command": "spaced-acp --v2"}
    assert await agents.remove("Spaced") == ""
    assert json.loads(config.read_text())["agents"] == [OTHER]


async def test_an_unreadable_config_is_never_written_by_an_edit(tmp_path):
    config, agents, _ = _settings(tmp_path, {"agents": [OTHER]}, listed=True)
    config.write_text("[1, 2")
    said = await agents.edit("Other", "other-acp --new", "", "", "", "")
    assert "does not write to it" in said and config.read_text() == "[1, 2"
    assert "does not write to it" in await agents.add("New", "new-acp", folder=str(tmp_path), env_text="A=1")
    assert config.read_text() == "[1, 2"

"""Which agents the New chat picker offers: the resolved one, the configured ones, the well-known ones on
PATH and the demo, each once; and how the config's "agents" is read, each wrong value named."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.main.agents.command import AgentCommand, demo_agent_argv, resolve_agent_command
from app.main.agents.profiles import WELL_KNOWN, AgentProfile, agent_profiles, detect_well_known, read_agents
from app.main.stores.config import read_config

ON_PATH = {
    "openclaw": "/opt/bin/openclaw",
    "claude-agent-acp": "/usr/bin/claude-agent-acp",
    "codex-acp": "/usr/local/bin/codex-acp",
    "gemini": "/usr/bin/gemini",
    "fast-agent-acp": "/home/u/.local/bin/fast-agent-acp",
}


def _which(found: dict[str, str]):
    return lambda name: found.get(name)


def _nothing(name: str) -> None:
    return None


def _config(tmp_path: Path, agents: object, **more: object) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"agents": agents, **more}))
    return path


def _texts(config) -> list[str]:
    return [problem.text for problem in config.problems]


# --- reading "agents" -------------------------------------------------------------------------------
def test_every_field_of_an_agent_is_read(tmp_path):
    path = _config(
        tmp_path,
        [
            {
                "name": "My Claude",
                "command": "npx -y '@zed-industries/claude-agent-acp'",
                "args": ["--verbose", "two words"],
                "env": {"ANTHROPIC_API_KEY": "sk-1", "DEBUG": ""},
                "cwd": "~/projects",
                "defaultMode": "plan",
                "defaultModel": "opus",
                "colour": "unknown keys are left alone",
            }
        ],
    )
    config = read_config(path)
    assert config.problems == ()
    [agent] = config.agents
    assert agent == AgentProfile(
        id="my-claude",
        name="My Claude",
        argv=("npx", "-y", "@zed-industries/claude-agent-acp", "--verbose", "two words"),
        source="config",
        reason=f"agents[0] in {path}",
        env=(("ANTHROPIC_API_KEY", "sk-1"), ("DEBUG", "")),
        cwd=os.path.join(os.path.expanduser("~"), "projects"),
        default_mode="plan",
        default_model="opus",
    )
    assert agent.display == "npx -y @zed-industries/claude-agent-acp --verbose 'two words'"


def test_only_name_and_command_are_needed(tmp_path):
    config = read_config(_config(tmp_path, [{"name": "Echo", "command": "python3 echo_agent.py"}]))
    [agent] = config.agents
    assert (agent.argv, agent.env, agent.cwd, agent.default_mode, agent.default_model) == (
        ("python3", "echo_agent.py"),
        (),
        None,
        None,
        None,
    )


def test_no_agents_key_is_no_agents_and_no_problem(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"agent": {"command": "openclaw acp"}}))
    assert read_config(path).agents == ()
    assert read_config(path).problems == ()
    assert read_config(tmp_path / "missing.json").agents == ()
    assert read_agents(None, path, []) == ()


def test_agents_that_is_not_a_list_is_named_and_nothing_is_read(tmp_path):
    path = _config(tmp_path, {"name": "Claude", "command": "claude-agent-acp"})
    config = read_config(path)
    assert config.agents == ()
    assert _texts(config) == [
        f'"agents" in your config file {path} is ignored: it must be a list of agents such as '
        '{"name": "Claude", "command": "claude-agent-acp"}, not an object.'
    ]


@pytest.mark.parametrize(
    ("entry", "key", "says"),
    [
        ("claude-agent-acp", "agents[1]", "it must be an object such as"),
        ({"command": "claude-agent-acp"}, "agents[1]", 'it has no "name"'),
        ({"name": "Claude"}, "agents[1]", 'it has no "command"'),
        (
            {"name": "  ", "command": "x"},
            "agents[1].name",
            "and so is that agent: it must be the name to show",
        ),
        ({"name": 7, "command": "x"}, "agents[1].name", "(text), not a number"),
        ({"name": "C", "command": ["claude-agent-acp"]}, "agents[1].command", "(text), not a list"),
        ({"name": "C", "command": "  "}, "agents[1].command", "and so is that agent: it is empty"),
        ({"name": "C", "command": 'a "unclosed'}, "agents[1].command", "cannot be parsed (No closing"),
    ],
)
def test_an_unusable_entry_is_named_by_index_and_field_and_the_rest_are_kept(tmp_path, entry, key, says):
    good = {"name": "Codex", "command": "codex-acp"}
    also_good = {"name": "Gemini", "command": "gemini --experimental-acp"}
    path = _config(tmp_path, [good, entry, also_good])
    config = read_config(path)
    assert [a.name for a in config.agents] == ["Codex", "Gemini"]
    assert [a.reason for a in config.agents] == [f"agents[0] in {path}", f"agents[2] in {path}"]
    [text] = _texts(config)
    assert text.startswith(f'"{key}" in your config file {path} is ignored'), text
    assert says in text, text


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("args", "--verbose", "it must be a list of arguments (text)"),
        ("args", ["--ok", 3], "it must be a list of arguments (text)"),
        ("env", ["KEY=1"], "it must be an object of text values"),
        ("env", {"KEY": 1}, "it must be an object of text values"),
        ("env", {"": "x"}, 'its names must be variable names (not empty, without "=")'),
        ("env", {"A=B": "x"}, 'its names must be variable names (not empty, without "=")'),
        ("cwd", 5, "it must be a folder path, not a number"),
        ("cwd", "", "it must be a folder path, not empty text"),
        ("defaultMode", ["plan"], "it must be text, not a list"),
        ("defaultModel", False, "it must be text, not true/false"),
    ],
)
def test_a_wrong_optional_field_is_named_and_ignored_and_the_agent_kept(tmp_path, field, value, says):
    path = _config(
        tmp_path, [{"name": "Other", "command": "other"}, {"name": "C", "command": "c acp", field: value}]
    )
    config = read_config(path)
    assert _texts(config) == [f'"agents[1].{field}" in your config file {path} is ignored: {says}.']
    [_, agent] = config.agents
    assert agent == AgentProfile("c", "C", ("c", "acp"), "config", f"agents[1] in {path}")


def test_a_second_agent_of_the_same_name_is_named_and_left_out(tmp_path):
    path = _config(
        tmp_path,
        [
            {"name": "Claude", "command": "claude-agent-acp"},
            {"name": "claude ", "command": "npx @zed-industries/claude-agent-acp"},
            {"name": "Codex", "command": "codex-acp"},
        ],
    )
    config = read_config(path)
    assert [(a.name, a.argv) for a in config.agents] == [
        ("Claude", ("claude-agent-acp",)),
        ("Codex", ("codex-acp",)),
    ]
    assert _texts(config) == [
        f'"agents[1].name" in your config file {path} is ignored, and so is that agent: '
        '"claude" is already the name of agents[0].'
    ]


def test_names_with_the_same_slug_get_distinct_ids(tmp_path):
    path = _config(
        tmp_path,
        [
            {"name": "My Agent", "command": "a"},
            {"name": "my-agent", "command": "b"},
            {"name": "MY_AGENT!", "command": "c"},
            {"name": "日本", "command": "d"},
        ],
    )
    assert [a.id for a in read_config(path).agents] == ["my-agent", "my-agent-2", "my-agent-3", "agent"]


def test_the_agents_problems_come_with_the_rest_of_the_config(tmp_path):
    path = _config(tmp_path, [{"name": "C"}], terminalToolsPort=80)
    texts = _texts(read_config(path))
    assert len(texts) == 2
    assert '"terminalToolsPort"' in texts[0] and '"agents[0]"' in texts[1]


def test_a_home_path_is_shown_with_a_tilde(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    path = _config(tmp_path, [{"name": "C", "command": "c", "env": 3}])
    [text] = _texts(read_config(path))
    assert text == (
        '"agents[0].env" in your config file ~/config.json is ignored: it must be an object of text values.'
    )


# --- the well-known agents ------------------------------------------------------------------------
def test_well_known_agents_are_detected_on_the_injected_path():
    found = detect_well_known(_which(ON_PATH))
    assert [(a.id, a.name, a.argv) for a in found] == [
        ("openclaw", "OpenClaw", ("openclaw", "acp")),
        ("claude", "Claude", ("claude-agent-acp",)),
        ("codex", "Codex", ("codex-acp",)),
        ("gemini", "Gemini", ("gemini", "--experimental-acp")),
        ("fast-agent", "fast-agent", ("fast-agent-acp",)),
    ]
    assert {a.source for a in found} == {"path"}
    assert found[1].reason == "claude-agent-acp found on PATH at /usr/bin/claude-agent-acp"
    assert found[4].reason == "fast-agent-acp found on PATH at /home/u/.local/bin/fast-agent-acp"


def test_only_the_programs_on_path_are_detected():
    assert [a.id for a in detect_well_known(_which({"codex-acp": "/x/codex-acp"}))] == ["codex"]
    assert detect_well_known(_nothing) == ()
    assert len({k.id for k in WELL_KNOWN}) == len(WELL_KNOWN)


# --- what the picker offers ---------------------------------------------------------------------------
def _ids(profiles) -> list[str]:
    return [p.id for p in profiles]


def test_the_order_is_primary_configured_well_known_then_demo(tmp_path):
    path = _config(
        tmp_path,
        [
            {"name": "Echo", "command": "python3 echo.py"},
            {"name": "Work Claude", "command": "claude-agent-acp --x"},
        ],
        agent={"command": "my-agent acp"},
    )
    config = read_config(path)
    primary = resolve_agent_command(None, config, which=_which(ON_PATH))
    offered = agent_profiles(primary, config.agents, which=_which({"codex-acp": "/b/codex-acp", **ON_PATH}))
    assert [(p.id, p.name, p.source) for p in offered] == [
        ("my-agent", "my-agent", "config"),
        ("echo", "Echo", "config"),
        ("work-claude", "Work Claude", "config"),
        ("openclaw", "OpenClaw", "path"),
        ("claude", "Claude", "path"),
        ("codex", "Codex", "path"),
        ("gemini", "Gemini", "path"),
        ("fast-agent", "fast-agent", "path"),
        ("demo", "Demo agent", "demo"),
    ]
    assert offered[0].reason == f"agent.command in {path}"
    assert offered[-1].argv == demo_agent_argv()


def test_openclaw_on_path_is_the_primary_under_its_well_known_name_and_is_offered_once(tmp_path):
    primary = resolve_agent_command(None, read_config(tmp_path / "none.json"), which=_which(ON_PATH))
    offered = agent_profiles(primary, (), which=_which(ON_PATH))
    assert _ids(offered) == ["openclaw", "claude", "codex", "gemini", "fast-agent", "demo"]
    first = offered[0]
    assert (first.name, first.argv, first.source) == ("OpenClaw", ("openclaw", "acp"), "path")
    assert first.reason == "openclaw found on PATH at /opt/bin/openclaw"
    assert first.command() == AgentCommand(("openclaw", "acp"), "path", first.reason, title="OpenClaw")


def test_the_demo_is_offered_once_when_it_is_the_primary(tmp_path):
    primary = resolve_agent_command(None, read_config(tmp_path / "none.json"), which=_nothing)
    offered = agent_profiles(primary, (), which=_nothing)
    assert [(p.id, p.name, p.source) for p in offered] == [("demo", "Demo agent", "demo")]
    assert offered[0].argv == demo_agent_argv() and "demo agent" in offered[0].reason


def test_the_fallback_demo_comes_after_the_configured_and_found_agents(tmp_path):
    path = _config(tmp_path, [{"name": "Echo", "command": "python3 echo.py"}])
    config = read_config(path)
    primary = resolve_agent_command(None, config, which=_nothing)  # no agent.command, no openclaw
    offered = agent_profiles(primary, config.agents, which=_which({"gemini": "/g"}))
    assert _ids(offered) == ["echo", "gemini", "demo"]  # a real agent is what a new chat opens with


def test_the_demo_is_offered_once_when_chosen_with_the_flag(tmp_path):
    primary = AgentCommand(demo_agent_argv(), "flag", "chosen with --agent")
    offered = agent_profiles(primary, (), which=_which({"gemini": "/g"}))
    assert [(p.id, p.name, p.source) for p in offered] == [
        ("demo", "Demo agent", "flag"),
        ("gemini", "Gemini", "path"),
    ]


def test_a_flag_matching_a_well_known_command_takes_its_name():
    primary = AgentCommand(("codex-acp",), "flag", "chosen with --agent")
    offered = agent_profiles(primary, (), which=_which(ON_PATH))
    assert [(p.id, p.name, p.source) for p in offered[:2]] == [
        ("codex", "Codex", "flag"),
        ("openclaw", "OpenClaw", "path"),
    ]
    assert _ids(offered).count("codex") == 1 and len(offered) == 6


def test_a_configured_agent_with_the_primarys_command_describes_it(tmp_path):
    path = _config(
        tmp_path, [{"name": "Claude (work)", "command": "claude-agent-acp", "env": {"K": "v"}, "cwd": "/w"}]
    )
    config = read_config(path)
    primary = AgentCommand(("claude-agent-acp",), "flag", "chosen with --agent")
    offered = agent_profiles(primary, config.agents, which=_nothing)
    assert [(p.name, p.source, p.reason) for p in offered] == [
        ("Claude (work)", "flag", "chosen with --agent"),
        ("Demo agent", "demo", "the built-in demo agent, always offered"),
    ]
    assert offered[0].env == (("K", "v"),) and offered[0].cwd == "/w"


def test_a_well_known_agent_is_left_out_when_a_configured_one_has_its_command_or_name(tmp_path):
    path = _config(
        tmp_path,
        [
            {"name": "Mine", "command": "gemini --experimental-acp"},
            {"name": "claude", "command": "npx claude-acp"},
        ],
    )
    config = read_config(path)
    primary = AgentCommand(("my-agent",), "flag", "chosen with --agent")
    offered = agent_profiles(primary, config.agents, which=_which(ON_PATH))
    assert [p.name for p in offered] == [
        "my-agent",
        "Mine",
        "claude",
        "OpenClaw",
        "Codex",
        "fast-agent",
        "Demo agent",
    ]


def test_ids_are_unique_when_names_clash_across_sources(tmp_path):
    path = _config(
        tmp_path,
        [{"name": "Codex!", "command": "codex-acp --profile work"}, {"name": "demo", "command": "d"}],
    )
    config = read_config(path)
    primary = AgentCommand(("/opt/codex/bin/codex",), "flag", "chosen with --agent")
    offered = agent_profiles(primary, config.agents, which=_which(ON_PATH))
    ids = _ids(offered)
    assert ids == ["codex", "codex-2", "demo-2", "openclaw", "claude", "gemini", "fast-agent", "demo"]
    assert offered[-1].argv == demo_agent_argv()  # the built-in demo keeps its own id


def test_the_command_of_a_profile_carries_its_environment_and_its_name(tmp_path):
    path = _config(
        tmp_path, [{"name": "G", "command": "gemini --experimental-acp", "env": {"GEMINI_API_KEY": "k"}}]
    )
    [agent] = read_config(path).agents
    command = agent.command()
    assert command == AgentCommand(
        ("gemini", "--experimental-acp"), "config", f"agents[0] in {path}", (("GEMINI_API_KEY", "k"),), "G"
    )
    assert command.display == agent.display == "gemini --experimental-acp"
    assert AgentCommand(("x",), "flag", "r").env == ()

"""Which agent runs: --agent flag, then the config file, then `openclaw acp` on PATH, else the demo."""

from __future__ import annotations

import json

import pytest

from app.main.agents.command import AgentCommandError, demo_agent_argv, resolve_agent_command
from app.main.stores.config import read_config


def _no_openclaw(name: str) -> None:
    return None


def test_flag_wins_over_everything(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"agent": {"command": "from-config acp"}}))
    chosen = resolve_agent_command(
        'my-agent --opt "two words"', read_config(config), which=lambda n: "/usr/bin/x"
    )
    assert chosen.argv == ("my-agent", "--opt", "two words")
    assert chosen.source == "flag" and "--agent" in chosen.reason


def test_config_file_is_next(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"agent": {"command": "from-config acp"}}))
    chosen = resolve_agent_command(None, read_config(config), which=lambda n: "/usr/bin/openclaw")
    assert chosen.argv == ("from-config", "acp") and chosen.source == "config"
    assert str(config) in chosen.reason


def test_openclaw_on_path_is_next(tmp_path):
    chosen = resolve_agent_command(
        None, read_config(tmp_path / "missing.json"), which=lambda n: f"/opt/bin/{n}"
    )
    assert chosen.argv == ("openclaw", "acp") and chosen.source == "openclaw"
    assert "/opt/bin/openclaw" in chosen.reason


def test_demo_agent_is_the_fallback(tmp_path):
    chosen = resolve_agent_command(None, read_config(tmp_path / "missing.json"), which=_no_openclaw)
    assert chosen.argv == demo_agent_argv() and chosen.source == "demo"
    assert "demo agent" in chosen.reason


def _config(tmp_path, content: str):
    config = tmp_path / "config.json"
    config.write_text(content)
    return config


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not valid JSON (line 1): it is ignored and the defaults are used until it is"),
        ('{"agent": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "is nested too deeply to read"),
        ("[1, 2]", "holds a list, not a JSON object"),
        (json.dumps({"agent": {"command": 42}}), "must be a command line (text), not a number"),
        (json.dumps({"agent": {"command": "  "}}), "it is empty"),
        (json.dumps({"agent": {"command": 'agent "unclosed'}}), "it cannot be parsed (No closing quotation)"),
        (json.dumps({"agent": ["openclaw", "acp"]}), 'it must be {"command": "CMD ARGS"}, not a list'),
        (json.dumps({"agent": {"cmd": "openclaw acp"}}), '"command" is missing'),
    ],
)
def test_a_bad_config_is_a_named_problem_and_the_default_agent_runs(tmp_path, content, says):
    config = _config(tmp_path, content)
    read = read_config(config)
    [problem] = read.problems
    assert str(config) in problem.text and says in problem.text, problem.text
    chosen = resolve_agent_command(None, read, which=_no_openclaw)
    assert chosen.source == "demo"


def test_an_agent_given_as_a_string_is_taken_as_its_command(tmp_path):
    config = _config(tmp_path, json.dumps({"agent": "openclaw acp --verbose"}))
    read = read_config(config)
    assert read.problems == ()
    chosen = resolve_agent_command(None, read, which=_no_openclaw)
    assert chosen.argv == ("openclaw", "acp", "--verbose") and chosen.source == "config"
    assert f"agent in {config}" in chosen.reason


def test_the_agent_flag_works_whatever_the_config_holds(tmp_path):
    read = read_config(_config(tmp_path, "{broken"))
    chosen = resolve_agent_command("my-agent acp", read, which=_no_openclaw)
    assert chosen.argv == ("my-agent", "acp") and chosen.source == "flag"
    assert len(read.problems) == 1


def test_an_unreadable_config_is_a_named_problem(tmp_path):
    config = tmp_path / "config.json"
    config.mkdir()
    [problem] = read_config(config).problems
    assert problem.text.startswith(f"Your config file {config} cannot be read (")
    assert problem.text.endswith("): it is ignored and the defaults are used until it is fixed.")


def test_the_config_file_is_never_written(tmp_path):
    config = _config(tmp_path, '{"agent": {"command": 42}, "additionalDirectories": 5}')
    before = config.stat().st_mtime_ns, config.read_text()
    assert len(read_config(config).problems) == 2
    assert (config.stat().st_mtime_ns, config.read_text()) == before
    assert [p.name for p in tmp_path.iterdir()] == ["config.json"]


def test_unbalanced_quotes_in_the_flag_are_a_clear_error(tmp_path):
    with pytest.raises(AgentCommandError) as info:
        resolve_agent_command('agent "unclosed', read_config(tmp_path / "none.json"), which=_no_openclaw)
    assert "--agent" in str(info.value)


def test_the_protocol_version_we_send_is_the_sdks():
    import acp

    from app.main.agents.handshake import PROTOCOL_VERSION

    assert acp.PROTOCOL_VERSION == PROTOCOL_VERSION


def test_additional_directories_come_from_the_config_file_and_bad_values_are_named(tmp_path):
    config = tmp_path / "config.json"
    assert read_config(config).additional_directories == ()  # no file: none
    config.write_text(json.dumps({"additionalDirectories": ["/srv/shared", "~/notes"]}))
    assert read_config(config).additional_directories == ("/srv/shared", "~/notes")
    config.write_text(json.dumps({"additionalDirectories": "/srv/shared"}))
    read = read_config(config)
    assert read.additional_directories == ()
    assert [p.text for p in read.problems] == [
        f'"additionalDirectories" in your config file {config} is ignored: it must be a list of folder '
        "paths, not text."
    ]
    config.write_text(json.dumps({"additionalDirectories": ["/srv/shared", 7, None]}))
    read = read_config(config)
    assert read.additional_directories == ("/srv/shared",)
    assert [p.text for p in read.problems] == [
        f'2 entries of "additionalDirectories" in your config file {config} are ignored: each must be '
        "a folder path (text)."
    ]


def test_the_terminal_tools_port_comes_from_the_config_and_a_bad_one_is_named(tmp_path):
    config = tmp_path / "config.json"
    config.write_text('{"terminalToolsPort": 47123}')
    assert read_config(config).terminal_tools_port == 47123
    for bad in ('"47123"', "80", "70000", "true"):
        config.write_text(f'{{"terminalToolsPort": {bad}}}')
        read = read_config(config)
        assert read.terminal_tools_port is None
        assert any(
            '"terminalToolsPort"' in problem.text and "1024 to 65535" in problem.text
            for problem in read.problems
        )

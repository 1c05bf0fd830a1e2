"""Which agent runs: --agent flag, then the config file, then `openclaw acp` on PATH, else the demo."""

from __future__ import annotations

import json

import pytest

from app.main.agent_command import AgentCommandError, demo_agent_argv, resolve_agent_command


def _no_openclaw(name: str) -> None:
    return None


def test_flag_wins_over_everything(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"agent": {"command": "from-config acp"}}))
    chosen = resolve_agent_command('my-agent --opt "two words"', config, which=lambda n: "/usr/bin/x")
    assert chosen.argv == ("my-agent", "--opt", "two words")
    assert chosen.source == "flag" and "--agent" in chosen.reason


def test_config_file_is_next(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"agent": {"command": "from-config acp"}}))
    chosen = resolve_agent_command(None, config, which=lambda n: "/usr/bin/openclaw")
    assert chosen.argv == ("from-config", "acp") and chosen.source == "config"
    assert str(config) in chosen.reason


def test_openclaw_on_path_is_next(tmp_path):
    chosen = resolve_agent_command(None, tmp_path / "missing.json", which=lambda n: f"/opt/bin/{n}")
    assert chosen.argv == ("openclaw", "acp") and chosen.source == "openclaw"
    assert "/opt/bin/openclaw" in chosen.reason


def test_demo_agent_is_the_fallback(tmp_path):
    chosen = resolve_agent_command(None, tmp_path / "missing.json", which=_no_openclaw)
    assert chosen.argv == demo_agent_argv() and chosen.source == "demo"
    assert "demo agent" in chosen.reason


@pytest.mark.parametrize(
    "content",
    ["{not json", json.dumps({"agent": {"command": 42}}), json.dumps({"agent": {"command": "  "}})],
)
def test_bad_config_is_a_clear_error(tmp_path, content):
    config = tmp_path / "config.json"
    config.write_text(content)
    with pytest.raises(AgentCommandError) as info:
        resolve_agent_command(None, config, which=_no_openclaw)
    assert str(config) in str(info.value)


def test_unbalanced_quotes_in_the_flag_are_a_clear_error(tmp_path):
    with pytest.raises(AgentCommandError) as info:
        resolve_agent_command('agent "unclosed', tmp_path / "none.json", which=_no_openclaw)
    assert "--agent" in str(info.value)


def test_the_protocol_version_we_send_is_the_sdks():
    import acp

    from app.main.agent_connection import PROTOCOL_VERSION

    assert acp.PROTOCOL_VERSION == PROTOCOL_VERSION


def test_additional_directories_come_from_the_config_file_and_bad_values_are_named(tmp_path):
    import json

    import pytest

    from app.main.agent_command import AgentCommandError, additional_directories_from_config

    config = tmp_path / "config.json"
    assert additional_directories_from_config(config) == []  # no file: none
    config.write_text(json.dumps({"additionalDirectories": ["/srv/shared", "~/notes"]}))
    assert additional_directories_from_config(config) == ["/srv/shared", "~/notes"]
    config.write_text(json.dumps({"additionalDirectories": "/srv/shared"}))
    with pytest.raises(AgentCommandError, match="must be a list"):
        additional_directories_from_config(config)

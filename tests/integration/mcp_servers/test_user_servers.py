"""The user's MCP servers with the scripted agent as a real subprocess: what session/new carries (stdio
always, http only to an agent declaring mcpCapabilities.http, secrets as env or headers, a server turned
off left out); a server that cannot start is said on the chat (its program not on the PATH, an address
that does not answer); what Settings types is checked before it is kept; a removed server's secrets
leave the keyring."""

from __future__ import annotations

import json

from app.main.mcp_servers.agent import AgentMcpServers
from app.main.mcp_servers.servers import UserMcpServers
from tests.conftest import scripted_agent_argv

HTTP_CAPS = json.dumps({"loadSession": True, "mcpCapabilities": {"http": True}})


async def test_what_each_agent_is_given_and_a_server_that_cannot_start_is_said_on_the_chat(
    make_service, tmp_path
):
    book = UserMcpServers(tmp_path / "data")
    assert book.add("ghost", "stdio", "no-such-program-xyz --flag", {"TOKEN": "s3cret"}) == ""
    assert book.add("down", "http", "http://127.0.0.1:9/mcp", {"Authorization": "Bearer s3cret"}) == ""
    sent: list[dict] = []
    plain, envelopes = make_service(scripted_agent_argv())
    plain.observe_raw(lambda way, msg: sent.append(msg) if msg.get("method") == "session/new" else None)
    plain.mcp_servers = AgentMcpServers(book, "scripted", plain._emit)
    key = (await plain.new_session()).session_key
    [given] = [m["params"]["mcpServers"] for m in sent]
    assert given == [
        {
            "name": "ghost",
            "command": "no-such-program-xyz",
            "args": ["--flag"],
            "env": [{"name": "TOKEN", "value": "s3cret"}],
        }
    ]
    [problem] = await envelopes.wait_for(lambda log: log.of_kind("mcp_server_problem"))
    assert problem.session_key == key
    assert (
        problem.problem
        == "The MCP server “ghost” cannot start: its program no-such-program-xyz is not on the PATH."
    )

    sent.clear()
    web, envelopes = make_service(scripted_agent_argv(f"--caps={HTTP_CAPS}"))
    web.observe_raw(lambda way, msg: sent.append(msg) if msg.get("method") == "session/new" else None)
    web.mcp_servers = AgentMcpServers(book, "web", web._emit)
    book.set_enabled("ghost", "web", False)
    key = (await web.new_session()).session_key
    [given] = [m["params"]["mcpServers"] for m in sent]
    auth = [{"name": "Authorization", "value": "Bearer s3cret"}]
    assert given == [{"type": "http", "name": "down", "url": "http://127.0.0.1:9/mcp", "headers": auth}]
    [problem] = await envelopes.wait_for(lambda log: log.of_kind("mcp_server_problem"))
    assert problem.problem.startswith(
        "The MCP server “down” cannot start: its address http://127.0.0.1:9/mcp cannot be reached"
    )


def test_what_settings_types_is_checked_and_a_removed_servers_secrets_leave_the_keyring(tmp_path):
    import keyring

    book = UserMcpServers(tmp_path / "data")
    assert (
        book.add("bad name!", "stdio", "x", {}) == "A server's name is letters, digits, - and _ (at most 64)."
    )
    assert book.add("web", "http", "ftp://x", {}) == "An address starting with http:// or https://."
    assert (
        book.add("q", "stdio", "say 'unclosed", {})
        == "The command line cannot be read (No closing quotation)."
    )
    assert book.add("q", "stdio", "  ", {}) == "Say how the server starts: its command line, or its address."
    assert book.add("git", "stdio", "uvx mcp-server-git", {"GITHUB_TOKEN": "t0ken"}) == ""
    assert book.add("git", "stdio", "other", {}) == "There is a server named “git” already."
    assert keyring.get_password("ClawQt", "mcp:git:GITHUB_TOKEN") == "t0ken"
    saved = json.loads((tmp_path / "data" / "mcp-servers.json").read_text())
    assert saved == {
        "git": {
            "transport": "stdio",
            "command": "uvx mcp-server-git",
            "secrets": ["GITHUB_TOKEN"],
            "offFor": [],
        }
    }
    assert "t0ken" not in (tmp_path / "data" / "mcp-servers.json").read_text()  # secrets only in the keyring
    assert book.remove("git") and keyring.get_password("ClawQt", "mcp:git:GITHUB_TOKEN") is None
    assert UserMcpServers(tmp_path / "data").servers() == []

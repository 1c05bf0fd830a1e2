"""What a project file asks to grant (app/main/stores/project_grants.py): folders made absolute from
the file's folder, MCP servers of a known shape, everything else left out and said; the digest trust
is given to changes with any grant; trust kept in the data folder across runs."""

from __future__ import annotations

from pathlib import Path

from app.main.stores.project_grants import TRUST_FILE, Grants, ProjectTrust, read_grants


def test_folders_are_made_absolute_and_servers_read_with_what_is_left_out_said(tmp_path: Path) -> None:
    data = {
        "additionalDirectories": ["../shared", "/srv/data", "~/notes", 7, "", "../shared"],
        "mcpServers": {
            "git": {"command": "uvx mcp-server-git"},
            "web": {"transport": "http", "command": "https://example.com/mcp"},
            "clear": {"transport": "http", "command": "ftp://example.com"},
            "bad name!": {"command": "x"},
            "empty": {"command": "  "},
        },
    }
    grants = read_grants(data, tmp_path / "repo")
    assert grants.folders == (str(tmp_path / "shared"), "/srv/data", str(Path.home() / "notes"))
    assert grants.servers == (
        {"name": "git", "transport": "stdio", "command": "uvx mcp-server-git"},
        {"name": "web", "transport": "http", "command": "https://example.com/mcp"},
    )
    assert grants.problems == (
        "the folder 7 is not a path",
        "the folder '' is not a path",
        "the MCP server 'clear' is not {transport, command}",
        "the MCP server 'bad name!' is not {transport, command}",
        "the MCP server 'empty' is not {transport, command}",
    )


def test_a_file_asking_nothing_grants_nothing_and_lists_of_the_wrong_kind_are_said(tmp_path: Path) -> None:
    assert not read_grants({"agent": "codex"}, tmp_path)
    wrong = read_grants({"additionalDirectories": "/", "mcpServers": ["git"]}, tmp_path)
    assert not wrong and len(wrong.problems) == 2


def test_trust_is_given_to_these_grants_exactly_and_kept_across_runs(tmp_path: Path) -> None:
    asked = Grants(("/srv/data",), ({"name": "git", "transport": "stdio", "command": "uvx mcp-server-git"},))
    trust = ProjectTrust(tmp_path)
    assert not trust.trusted("/repo/.clawqt.json", asked)
    trust.trust("/repo/.clawqt.json", asked)
    assert ProjectTrust(tmp_path).trusted("/repo/.clawqt.json", asked)  # read from the data folder
    assert (tmp_path / TRUST_FILE).exists()
    more = Grants(("/srv/data", "/"), asked.servers)
    assert not trust.trusted("/repo/.clawqt.json", more)  # one folder more: asked again
    assert not trust.trusted("/other/.clawqt.json", asked)  # another file
    assert not trust.trusted("/repo/.clawqt.json", Grants())  # nothing to trust
    trust.forget("/repo/.clawqt.json")
    assert not ProjectTrust(tmp_path).trusted("/repo/.clawqt.json", asked)

"""The main side implements the whole host API the renderer is written against: every call of every
Protocol of the host API (app/contract/host_api.py, local_stores.py, terminal_hosts.py) exists on the
object `make_host` builds, with the same parameters (the renderer would otherwise fail only when a
user reaches that call)."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from app.contract import (
    branches,
    doctor,
    host_api,
    local_stores,
    mcp_servers,
    review_host,
    rules,
    search,
    settings_hosts,
    terminal_hosts,
)
from app.main.agents.command import AgentCommand
from app.main.host.make import AgentsShare, hub_parts, make_host
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from tests.conftest import scripted_agent_argv

PARTS = {
    "sessions": host_api.SessionsHost,
    "files": review_host.FileChangesHost,
    "attachments": host_api.AttachmentsHost,
    "composer": host_api.ComposerFilesHost,
    "links": host_api.LinkPolicy,
    "stores": local_stores.LocalStores,
    "sign_in": host_api.SignInHost,
    "problems": local_stores.ProblemsHost,
    "terminals": terminal_hosts.UserTerminalsHost,
    "terminal_access": terminal_hosts.TerminalAccessHost,
    "proposals": terminal_hosts.ProposalsHost,
    "settings": settings_hosts.SettingsHost,
    "agents": host_api.AgentsHost,
    "agent_settings": settings_hosts.AgentSettingsHost,
    "exports": host_api.ExportsHost,
    "inspector": host_api.InspectorHost,
    "notifications": host_api.NotificationsHost,
    "branches": branches.BranchesHost,
    "rules": rules.PermissionRulesHost,
    "mcp_servers": mcp_servers.McpServersHost,
    "search": search.SearchHost,
    "doctor": doctor.DoctorHost,
}


def _members(protocol: type) -> dict[str, object]:
    names = {name: value for name, value in vars(protocol).items() if not name.startswith("_")}
    names.update({name: None for name in getattr(protocol, "__annotations__", {})})
    return names


def _parameters(function: object) -> list[str]:
    return [name for name in inspect.signature(function).parameters if name != "self"]  # type: ignore[arg-type]


@pytest.fixture
def host(tmp_path: Path):
    service = ChatService(AgentCommand(scripted_agent_argv(), "flag", "test"), cwd=str(tmp_path))
    return make_host(service, tmp_path / "data")


def test_the_host_has_every_part_of_the_host_api(host):
    assert set(_members(host_api.HostApi)) == set(PARTS) | {"shutdown"}  # the parts, and the one end
    for part in PARTS:
        assert getattr(host, part) is not None, part
    assert inspect.iscoroutinefunction(type(host).shutdown) and _parameters(type(host).shutdown) == []


@pytest.mark.parametrize("part", sorted(PARTS))
def test_every_call_of_a_part_exists_with_the_same_parameters(host, part):
    implementation = getattr(host, part)
    for name, declared in _members(PARTS[part]).items():
        assert hasattr(implementation, name), f"{part}.{name} is missing"
        actual = getattr(type(implementation), name, None)
        if inspect.isfunction(declared) and callable(actual):
            assert _parameters(actual) == _parameters(declared), f"{part}.{name}"
            assert inspect.iscoroutinefunction(actual) == inspect.iscoroutinefunction(declared), (
                f"{part}.{name}"
            )


def test_the_check_notices_a_missing_or_different_call():
    class Partial:
        def changes(self, session_key: str) -> list:  # a parameter short
            return []

    members = _members(review_host.FileChangesHost)
    assert not all(hasattr(Partial(), name) for name in members)  # `revert` and `turns` are missing
    assert _parameters(Partial.changes) != _parameters(members["changes"])


@pytest.mark.parametrize(
    ("name", "protocol"),
    [
        ("drafts", local_stores.StringStore),
        ("names", local_stores.StringStore),
        ("previews", local_stores.StringStore),
        ("queues", local_stores.QueueStore),
        ("views", local_stores.ViewStateStore),
    ],
)
def test_every_local_store_has_the_calls_of_its_kind(host, name, protocol):
    store = getattr(host.stores, name)
    for call, declared in _members(protocol).items():
        assert _parameters(getattr(type(store), call)) == _parameters(declared), f"{name}.{call}"


def test_the_hub_is_made_whole_with_what_every_agent_shares(tmp_path):
    """Nothing is bound after it was made: the hub makes the parts every agent shares while it is
    made, its first agent's service has them at once, the host takes those same parts, and a hub made
    without them is refused by name."""
    service = ChatService(AgentCommand(scripted_agent_argv(), "flag", "test"), cwd=str(tmp_path))
    hub = AgentHub.single(service, **hub_parts(tmp_path / "data"))
    shared = hub.shared
    assert isinstance(shared, AgentsShare) and service.participation is shared.participation
    assert service.proposals is not None
    assert shared.terminals.workspace_root == os.path.realpath(service.default_cwd)
    host = make_host(hub)
    assert host.terminals is shared.terminals and host.proposals is shared.proposals
    bare = AgentHub.single(
        ChatService(AgentCommand(scripted_agent_argv(), "flag", "test"), cwd=str(tmp_path))
    )
    with pytest.raises(ValueError, match="hub_parts"):
        make_host(bare)

"""The doctor's findings (app/main/doctor/findings.py): each side's features on or off from what its
`initialize` said, in the words a user needs; the agent's sign-in methods; a protocol version apart."""

from __future__ import annotations

from app.contract.envelopes import AgentInfo
from app.main.agents.handshake import CLIENT_CAPABILITIES
from app.main.doctor.findings import AGENT_FEATURES, CLAWQT_FEATURES, findings


def _by_feature(found) -> dict[str, tuple[str, bool, str]]:
    return {f.feature: (f.side, f.on, f.words) for f in found}


def test_a_bare_agent_has_every_feature_of_its_side_off_with_what_that_means():
    info = AgentInfo("bare", None, None, 1, {})
    found = _by_feature(findings(info, CLIENT_CAPABILITIES, 1))
    assert len(found) == len(AGENT_FEATURES) + len(CLAWQT_FEATURES)
    assert found["Opening old chats"] == (
        "agent",
        False,
        "It cannot open an old chat again: ClawQt shows its old chats read-only, from the search index.",
    )
    assert found["MCP servers over HTTP"][:2] == ("agent", False)
    assert "terminal tools reach it only once you connect it" in found["MCP servers over HTTP"][2]
    assert (
        found["Pictures in a message"][1] is False
        and "refused before it is sent" in found["Pictures in a message"][2]
    )
    assert all(on for side, on, _ in found.values() if side == "clawqt")  # ClawQt declares all of its own


def test_what_an_agent_offers_is_on_and_false_or_missing_is_off():
    capabilities = {
        "loadSession": True,
        "sessionCapabilities": {"list": {}, "close": None, "fork": {}},
        "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
        "mcpCapabilities": {"http": True, "sse": False},
        "auth": {"logout": {}},
    }
    methods = ({"id": "api-key", "name": "API key"}, {"id": "oauth"})
    found = _by_feature(
        findings(AgentInfo("rich", "Rich", "2.0", 1, capabilities, methods), CLIENT_CAPABILITIES, 1)
    )
    on = {name for name, (side, is_on, _) in found.items() if side == "agent" and is_on}
    assert on == {
        "Opening old chats",
        "Listing its chats",
        "Continuing from a message",
        "Pictures in a message",
        "Files' contents in a message",
        "MCP servers over HTTP",
        "Signing out",
        "Signing in",
    }
    assert found["Signing in"][2] == "It asks you to sign in: API key, oauth."
    assert "Protocol version" not in found


def test_what_clawqt_leaves_off_is_said_and_a_protocol_version_apart_is_a_finding():
    declared = {**CLIENT_CAPABILITIES, "terminal": False, "elicitation": {"form": {}}}
    found = _by_feature(findings(AgentInfo("old", None, None, 0, {}), declared, 1))
    assert found["Terminals run by ClawQt"][:2] == ("clawqt", False)
    assert "runs its commands itself" in found["Terminals run by ClawQt"][2]
    assert found["Questions as forms"][1] is True and found["Questions answered on a web page"][1] is False
    assert found["Protocol version"] == (
        "agent",
        False,
        "It speaks ACP version 0, ClawQt version 1: what changed between them may not work.",
    )

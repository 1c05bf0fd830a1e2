"""What each side's `initialize` turns on or off, in the words a user needs: the agent's capabilities
(what ClawQt can then do with it) and ClawQt's own (what the agent is then allowed to do). Pure: an
AgentInfo and the capabilities ClawQt declared in, findings out."""

from __future__ import annotations

from typing import Any

from app.contract.doctor import Finding
from app.contract.envelopes import AgentInfo

# (capability path, feature, words when on, words when off), as the agent offered them
AGENT_FEATURES: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (
        ("loadSession",),
        "Opening old chats",
        "Its old chats open again with their history.",
        "It cannot open an old chat again: ClawQt shows its old chats read-only, from the search index.",
    ),
    (
        ("sessionCapabilities", "list"),
        "Listing its chats",
        "The sidebar lists the chats it keeps.",
        "It does not list its chats: the sidebar shows only the chats made in ClawQt.",
    ),
    (
        ("sessionCapabilities", "close"),
        "Closing chats",
        "Close in a chat's menu ends the chat in the agent.",
        "Close is not offered for its chats.",
    ),
    (
        ("sessionCapabilities", "delete"),
        "Deleting chats",
        "Delete in a chat's menu deletes the chat in the agent.",
        "Delete is not offered for its chats.",
    ),
    (
        ("sessionCapabilities", "fork"),
        "Continuing from a message",
        "Continue from here forks the chat in the agent.",
        "Continue from here starts a new chat and hands it the transcript instead.",
    ),
    (
        ("sessionCapabilities", "additionalDirectories"),
        "More than one folder",
        "The folders you add to a chat are handed to it.",
        "It works in the chat's folder only: folders you add are not handed to it.",
    ),
    (
        ("promptCapabilities", "image"),
        "Pictures in a message",
        "Pictures you attach go to it.",
        "It takes no pictures: a message with one is refused before it is sent.",
    ),
    (
        ("promptCapabilities", "audio"),
        "Sound in a message",
        "Audio you attach goes to it.",
        "It takes no audio: a message with a sound file is refused before it is sent.",
    ),
    (
        ("promptCapabilities", "embeddedContext"),
        "Files' contents in a message",
        "The files you attach go with their contents.",
        "Attached files go as links: it reads them itself.",
    ),
    (
        ("mcpCapabilities", "http"),
        "MCP servers over HTTP",
        "Your HTTP MCP servers and ClawQt's terminal tools are offered to it.",
        "It takes no HTTP MCP servers in a chat: your HTTP servers are not offered to it (stdio servers "
        "are), and ClawQt's terminal tools reach it only once you connect it (the terminal bar's Connect).",
    ),
    (
        ("auth", "logout"),
        "Signing out",
        "Sign out in the sidebar's footer signs you out of it.",
        "It offers no sign-out: to sign out, use its own tools.",
    ),
)

# (capability path, feature, words when declared, words when not), as ClawQt declared them
CLAWQT_FEATURES: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (
        ("fs", "readTextFile"),
        "Reading files through ClawQt",
        "It may read files in the chat's folders through ClawQt, which shows what it read.",
        "ClawQt does not read files for it: it reads them itself, unseen.",
    ),
    (
        ("fs", "writeTextFile"),
        "Writing files through ClawQt",
        "It may write files in the chat's folders through ClawQt; each change is kept for review.",
        "ClawQt does not write files for it: it writes them itself, seen only by the review's snapshots.",
    ),
    (
        ("terminal",),
        "Terminals run by ClawQt",
        "Its commands run in terminals ClawQt shows live on their cards.",
        "No terminal library here: it runs its commands itself and ClawQt shows only what it reports.",
    ),
    (
        ("auth", "terminal"),
        "Signing in in a terminal",
        "A sign-in that needs a terminal runs in one ClawQt shows.",
        "A sign-in that needs a terminal must be done outside ClawQt.",
    ),
    (
        ("session", "configOptions", "boolean"),
        "On/off options",
        "Its on/off options show as switches.",
        "It keeps its on/off options to itself.",
    ),
    (
        ("elicitation", "form"),
        "Questions as forms",
        "When it asks you something (Claude's AskUserQuestion, Codex's questions) ClawQt shows a form "
        "and sends your answer.",
        "It cannot ask you questions: agents then skip them or answer themselves.",
    ),
    (
        ("elicitation", "url"),
        "Questions answered on a web page",
        "A question answered on a web page opens on your click, after ClawQt shows the address.",
        "It cannot send you to a web page to answer.",
    ),
)


def _has(capabilities: dict[str, Any], path: tuple[str, ...]) -> bool:
    node: Any = capabilities
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return node is not False and node is not None


def findings(info: AgentInfo, declared: dict[str, Any], protocol_version: int) -> list[Finding]:
    """Every feature of both sides, on or off, the agent's first; then its sign-in and the protocol
    versions when they differ."""
    found = [
        Finding("agent", feature, on, words_on if on else words_off)
        for path, feature, words_on, words_off in AGENT_FEATURES
        for on in (_has(info.capabilities, path),)
    ]
    methods = [str(m.get("name") or m.get("id") or "") for m in info.auth_methods]
    methods = [m for m in methods if m]
    if methods:
        found.append(
            Finding("agent", "Signing in", True, "It asks you to sign in: " + ", ".join(methods) + ".")
        )
    found += [
        Finding("clawqt", feature, on, words_on if on else words_off)
        for path, feature, words_on, words_off in CLAWQT_FEATURES
        for on in (_has(declared, path),)
    ]
    if info.protocol_version != protocol_version:
        words = (
            f"It speaks ACP version {info.protocol_version}, ClawQt version {protocol_version}: "
            "what changed between them may not work."
        )
        found.append(Finding("agent", "Protocol version", False, words))
    return found

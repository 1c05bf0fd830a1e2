"""The ACP messages ClawQt reads, as TypedDicts (wire names, camelCase; protocol v1 plus the drafts and
extensions agents send today).

They are type claims, not validation: at run time each is the dict that came off the wire, so fields
ClawQt does not know (a newer protocol, `_meta`) are kept and forwarded untouched. Agents are
untrusted: code reading these still checks every value's type before using it (`acp_fields.py`).
`total=False` everywhere: an agent may leave out anything. Modules import these for type checking
only (`if TYPE_CHECKING:`): at run time they would cost class building and check nothing.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Meta = dict[str, Any]


# --- content blocks ----------------------------------------------------------------------------------
class TextContent(TypedDict, total=False):
    type: Literal["text"]
    text: str
    _meta: Meta


class ImageContent(TypedDict, total=False):
    type: Literal["image"]
    data: str  # base64
    mimeType: str
    uri: str
    _meta: Meta


class AudioContent(TypedDict, total=False):
    type: Literal["audio"]
    data: str
    mimeType: str


class ResourceLinkContent(TypedDict, total=False):
    type: Literal["resource_link"]
    uri: str
    name: str
    title: str
    description: str
    mimeType: str
    size: int


class EmbeddedResourceBody(TypedDict, total=False):
    uri: str
    mimeType: str
    text: str  # a text resource
    blob: str  # or a base64 blob


class EmbeddedResourceContent(TypedDict, total=False):
    type: Literal["resource"]
    resource: EmbeddedResourceBody


ContentBlock = TextContent | ImageContent | AudioContent | ResourceLinkContent | EmbeddedResourceContent


# --- tool calls --------------------------------------------------------------------------------------
class ToolContentBlock(TypedDict, total=False):
    type: Literal["content"]
    content: ContentBlock


class ToolDiff(TypedDict, total=False):
    type: Literal["diff"]
    path: str
    oldText: str | None
    newText: str


class ToolTerminal(TypedDict, total=False):
    type: Literal["terminal"]
    terminalId: str


ToolCallContent = ToolContentBlock | ToolDiff | ToolTerminal
ToolStatusName = Literal["pending", "in_progress", "completed", "failed"]


class ToolCallLocation(TypedDict, total=False):
    path: str
    line: int


class ToolCallFields(TypedDict, total=False):
    """A `tool_call` (every field) or `tool_call_update` (only the fields that change; `content` and
    `locations` replace). Also the `toolCall` of a permission request."""

    toolCallId: str
    title: str
    kind: str  # read, edit, delete, move, search, execute, think, fetch, switch_mode, other
    status: ToolStatusName
    content: list[ToolCallContent]
    locations: list[ToolCallLocation]
    rawInput: Any
    rawOutput: Any
    _meta: Meta  # terminal_info / terminal_output / terminal_output_delta / terminal_exit live here


# --- session updates (the `update` of a `session/update` notification) -------------------------------
class MessageChunkUpdate(TypedDict, total=False):
    sessionUpdate: Literal["agent_message_chunk", "user_message_chunk", "agent_thought_chunk"]
    content: ContentBlock
    messageId: str
    _meta: Meta  # OpenClaw: openclawDelivery, openclawDisplayContent


class ToolCallUpdate(ToolCallFields, total=False):
    sessionUpdate: Literal["tool_call", "tool_call_update"]


class PlanEntry(TypedDict, total=False):
    content: str
    status: Literal["pending", "in_progress", "completed"]
    priority: Literal["high", "medium", "low"]


class PlanUpdate(TypedDict, total=False):
    sessionUpdate: Literal["plan"]
    entries: list[PlanEntry]


class CommandInput(TypedDict, total=False):
    hint: str


class AvailableCommand(TypedDict, total=False):
    name: str
    description: str
    input: CommandInput


class AvailableCommandsUpdate(TypedDict, total=False):
    sessionUpdate: Literal["available_commands_update"]
    availableCommands: list[AvailableCommand]


class CurrentModeUpdate(TypedDict, total=False):
    sessionUpdate: Literal["current_mode_update"]
    currentModeId: str


class ConfigChoice(TypedDict, total=False):
    value: str
    name: str
    options: list[ConfigChoice]  # a group of choices


class ConfigOption(TypedDict, total=False):
    id: str
    name: str
    type: Literal["select", "boolean"]
    category: str  # "model" is shown as the model picker
    currentValue: str | bool
    options: list[ConfigChoice]


class ConfigOptionUpdate(TypedDict, total=False):
    sessionUpdate: Literal["config_option_update"]
    configOptions: list[ConfigOption]


class SessionInfoUpdate(TypedDict, total=False):
    sessionUpdate: Literal["session_info_update"]
    title: str | None
    updatedAt: str


class Cost(TypedDict, total=False):
    amount: float
    currency: str


class UsageUpdate(TypedDict, total=False):
    sessionUpdate: Literal["usage_update"]
    used: int
    size: int
    cost: Cost


class TerminalStreamUpdate(TypedDict, total=False):
    """ACP v2 draft: `terminal_update` (terminalId, cwd, exitStatus) and `terminal_output_chunk`
    (terminalId, data as base64)."""

    sessionUpdate: Literal["terminal_update", "terminal_output_chunk"]
    terminalId: str
    data: str
    cwd: str
    exitStatus: dict[str, Any]


SessionUpdate = (
    MessageChunkUpdate
    | ToolCallUpdate
    | PlanUpdate
    | AvailableCommandsUpdate
    | CurrentModeUpdate
    | ConfigOptionUpdate
    | SessionInfoUpdate
    | UsageUpdate
    | TerminalStreamUpdate
)


class SessionNotification(TypedDict, total=False):
    """The params of `session/update`."""

    sessionId: str
    update: SessionUpdate
    _meta: Meta


# --- requests the agent makes of the client ----------------------------------------------------------
class PermissionOption(TypedDict, total=False):
    optionId: str
    name: str
    kind: Literal["allow_once", "allow_always", "reject_once", "reject_always"]


class RequestPermissionParams(TypedDict, total=False):
    sessionId: str
    toolCall: ToolCallFields
    options: list[PermissionOption]


class PermissionOutcome(TypedDict, total=False):
    outcome: Literal["selected", "cancelled"]
    optionId: str


class RequestPermissionResult(TypedDict, total=False):
    outcome: PermissionOutcome


# --- requests the client makes, and their results -----------------------------------------------------
class SessionParams(TypedDict, total=False):
    """`session/new` (cwd, mcpServers), `session/load` and `session/resume` (+ sessionId)."""

    sessionId: str
    cwd: str
    mcpServers: list[dict[str, Any]]
    additionalDirectories: list[str]
    _meta: Meta  # OpenClaw reads `sessionKey` here


class SessionMode(TypedDict, total=False):
    id: str
    name: str
    description: str


class SessionModeState(TypedDict, total=False):
    currentModeId: str
    availableModes: list[SessionMode]


class SessionResult(TypedDict, total=False):
    """What `session/new|load|resume` answer (`sessionId` only for new)."""

    sessionId: str
    modes: SessionModeState
    configOptions: list[ConfigOption]
    _meta: Meta


class PromptParams(TypedDict, total=False):
    sessionId: str
    prompt: list[ContentBlock]
    _meta: Meta  # ClawQt sends sessionKey, messageId, prefixCwd


class PromptResponse(TypedDict, total=False):
    stopReason: Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]
    usage: dict[str, Any]


class ListedSession(TypedDict, total=False):
    sessionId: str
    title: str | None
    cwd: str
    updatedAt: str
    _meta: Meta


class ListSessionsResult(TypedDict, total=False):
    sessions: list[ListedSession]
    nextCursor: str


class AgentInfoFields(TypedDict, total=False):
    name: str
    title: str
    version: str


class InitializeResult(TypedDict, total=False):
    protocolVersion: int
    agentCapabilities: dict[str, Any]
    agentInfo: AgentInfoFields
    authMethods: list[dict[str, Any]]


# --- JSON-RPC ------------------------------------------------------------------------------------------
class RpcError(TypedDict, total=False):
    code: int
    message: str
    data: Any


class RpcMessage(TypedDict, total=False):
    """Any JSON-RPC message: a request (id + method), a notification (method) or a response (id +
    result or error)."""

    jsonrpc: str
    id: Any
    method: str
    params: Any
    result: Any
    error: RpcError

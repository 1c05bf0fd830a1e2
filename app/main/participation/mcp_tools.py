"""The terminal tools as the agent sees them: their names, arguments, descriptions and hints, and the
server's instructions. Each tool only names its arguments and hands the call to the server's `answer`,
which resolves the capability and runs it on the owner loop (`terminal_mcp_server`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from app.main.participation.tools_api import TerminalToolsApi

INSTRUCTIONS = (
    "Tools for the terminals the user opened in ClawQt and chose to share with you. A question about a "
    "terminal is read-only intent: read it, do not type. Type into or open a terminal only when the user "
    "asked for that. Each call takes the contextToken from the latest message's terminal context."
)


ContextToken = Annotated[
    str | None,
    Field(
        description="The terminal capability (cqt_...) from the latest message's terminal context. "
        "May be left out only when your connection to this server carries its own Authorization."
    ),
]
TerminalId = Annotated[str, Field(description="The terminal's id, as list_terminals gives it.")]
Call = Callable[[str], Coroutine[Any, Any, dict[str, Any]]]
Answer = Callable[[Context, str | None, Call], Awaitable[CallToolResult]]


def add_terminal_tools(mcp: MCPServer[Any], tools: TerminalToolsApi, answer: Answer) -> None:
    """Registers the five tools on `mcp`; each call goes through `answer(ctx, contextToken, call)`."""

    async def list_terminals(ctx: Context, contextToken: ContextToken = None) -> CallToolResult:
        return await answer(ctx, contextToken, lambda token: tools.list_terminals(token))

    async def open_terminal(
        ctx: Context,
        requestId: Annotated[
            str,
            Field(description="1-128 characters you choose; repeat it to ask for the same terminal again."),
        ],
        contextToken: ContextToken = None,
        title: Annotated[str | None, Field(description="A short tab title.")] = None,
        command: Annotated[
            str | None, Field(description="A command to run once the terminal is ready (none: a shell).")
        ] = None,
        cwd: Annotated[str | None, Field(description="A folder inside the workspace.")] = None,
        agentMode: Annotated[
            Literal["shared", "status-only"],
            Field(description='"shared": you may read and type; "status-only": process status only.'),
        ] = "shared",
    ) -> CallToolResult:
        return await answer(
            ctx,
            contextToken,
            lambda token: tools.open_terminal(token, requestId, title, command, cwd, agentMode),
        )

    async def read_terminal(
        ctx: Context,
        contextToken: ContextToken = None,
        terminalId: Annotated[
            str | None, Field(description="Which terminal (default: the one the user used last).")
        ] = None,
        afterSequence: Annotated[
            int | None, Field(description="The nextSequence of your previous read: only newer output.")
        ] = None,
        maxBytes: Annotated[int | None, Field(description="256 to 65536 (default 32768).")] = None,
        waitMs: Annotated[
            int | None,
            Field(description="With afterSequence: wait up to this long (at most 20000) for new output."),
        ] = None,
    ) -> CallToolResult:
        return await answer(
            ctx,
            contextToken,
            lambda token: tools.read_terminal(token, terminalId, afterSequence, maxBytes, waitMs),
        )

    async def send_terminal_input(
        ctx: Context,
        terminalId: TerminalId,
        contextToken: ContextToken = None,
        text: Annotated[str | None, Field(description='Typed as is; end with "\\n" to press Enter.')] = None,
        interrupt: Annotated[bool, Field(description="Send Ctrl-C instead of text.")] = False,
    ) -> CallToolResult:
        return await answer(
            ctx,
            contextToken,
            lambda token: tools.send_terminal_input(token, terminalId, text, interrupt),
        )

    async def propose_terminal_actions(
        ctx: Context,
        payload: Annotated[
            dict[str, Any],
            Field(
                description='The proposal: {"schema_version":1,"origin":"terminal_agent",'
                '"recommended_choice"?:n,"choices":[{"choice":n,"title","rationale","actions":[...]}]} '
                'with 1-3 choices of 1-3 actions {"type":"send","input"}, {"type":"open","target":"tab",'
                '"cwd"?,"title"?} or {"type":"open_and_send",...,"input"}; never name a terminal.'
            ),
        ],
        contextToken: ContextToken = None,
    ) -> CallToolResult:
        return await answer(ctx, contextToken, lambda token: tools.propose_terminal_actions(token, payload))

    mcp.add_tool(
        propose_terminal_actions,
        description=(
            "Propose terminal actions the user may run: ClawQt shows them as a card and only the user's "
            "confirmation runs anything (a send goes to the terminal the user used last). Answers the "
            "validation and, when the user decides within about 25 s, the decision (else decision null: "
            "the card stays until the user answers)."
        ),
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
        structured_output=False,
    )
    mcp.add_tool(
        list_terminals,
        description=(
            "List the user's terminals you may see (read-only): id, title, folder, process status and "
            'sharing mode ("shared": read and type; "status-only": status only). recentTerminalIds '
            "orders them by the user's own latest use: the first is usually the one the user means."
        ),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
        structured_output=False,
    )
    mcp.add_tool(
        read_terminal,
        description=(
            "Read a terminal's output as plain text (read-only: use it to answer questions about what "
            "the user sees). Pass the previous answer's nextSequence as afterSequence for new output "
            "only, with waitMs to wait for it. excludedOutput: true means the user paused sharing for "
            "part of the output; it is withheld on purpose."
        ),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
        structured_output=False,
    )
    mcp.add_tool(
        send_terminal_input,
        description=(
            "Type into a terminal the user shares with you. Only when the user asked you to run or type "
            "something: a question about a terminal is read-only intent (use read_terminal). terminalId "
            'is required: never guess a target. text is typed as is (end it with "\\n" to press '
            "Enter); interrupt: true sends Ctrl-C. Then read_terminal to see the result."
        ),
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
        structured_output=False,
    )
    mcp.add_tool(
        open_terminal,
        description=(
            "Ask the user's window to open a new terminal (optionally running command in cwd inside "
            "the workspace). Only when the user asked for it. Nothing runs until the window has opened "
            "it; a request not taken within 30 s never runs. Repeat the call with the same requestId "
            'to learn its state; the terminal is open only once state is "started".'
        ),
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
        structured_output=False,
    )

"""A scripted ACP agent for integration tests: raw JSON-RPC over real stdio, standard library only,
so it can also misbehave in ways an SDK would not allow.

Start-up flags: --no-init (never answers initialize), --exit-in-init=CODE, --init-delay=S, --banner
(non-JSON lines on stdout first), --name=NAME (agentInfo.name), --caps=JSON (agentCapabilities),
--fail-new=N (the first N session/new requests fail), --hang-new=N (the first N are never answered),
--no-info (no agentInfo).
Sign-in: --auth=agent (session/new answers -32000 until `authenticate {methodId: "scripted-oauth"}`),
--auth=env (until SCRIPTED_API_KEY is "sk-scripted" in its environment), --auth=terminal (until the file
$SCRIPTED_AUTH_FILE exists; its method, offered only to clients advertising auth.terminal, runs this
script with --login: it asks for a code on the terminal and writes the file when the code is 2468),
--auth=claude (like claude-agent-acp 0.23.1 without a login: a terminal method `--cli` to clients advertising
auth.terminal, and session/new failing -32603 "Query closed before response received", nothing said about
logging in), --auth=words (no methods; session/new fails -32603 with "Not logged in" only on stderr).
Loads: session ids "fail-load" (error), "exit-load" (exits mid-replay), "perm-load" (asks permission
during the load and replays the outcome), "slow-load" (answers after 0.5 s), "slow-fail-load" (fails
after 0.5 s), "flaky-load" (fails the first time, loads after); other ids replay a short history.
Prompts are steered by their first word; see `PROMPTS` below.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

FLAGS: dict[str, str] = {}
for arg in sys.argv[1:]:
    name, _, value = arg.lstrip("-").partition("=")
    FLAGS[name] = value


class PromptFailed(Exception):
    """Raised by a prompt script: the prompt is answered with a JSON-RPC error carrying this message."""


DEFAULT_CAPS = {
    "loadSession": True,
    "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
    "sessionCapabilities": {"list": {}, "resume": {}, "close": {}, "delete": {}},
}


COMMANDS = [
    {"name": "status", "description": "Show the session status", "input": {"hint": "[verbose]"}},
    {"name": "help", "description": "List the commands"},
]
MODES = {"currentModeId": "a", "availableModes": [{"id": "a", "name": "Ask"}, {"id": "b", "name": "Build"}]}


def model_option(value: str, option_id: str = "model") -> dict[str, Any]:
    return {
        "id": option_id,
        "name": "Model",
        "category": "model",
        "type": "select",
        "currentValue": value,
        "options": [{"value": "m1", "name": "Model one"}, {"value": "m2", "name": "Model two"}],
    }


def _hidden(block: Any) -> bool:
    """A text block ClawQt added as hidden machine context (terminal access, the proposal channel)."""
    return (
        isinstance(block, dict)
        and block.get("type") == "text"
        and str(block.get("text", "")).lstrip().startswith("<clawqt_hidden_context>")
    )


class Agent:
    def __init__(self) -> None:
        self.next_id = 1000
        self.sessions: dict[str, dict[str, Any]] = {}
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.cancelled: set[str] = set()
        self.hidden_context: dict[str, list[str]] = {}  # per session: the hidden blocks of its last prompt
        self.counter = 0
        self.authenticated = False
        self.hung_news = 0
        self.failed_news = 0
        self.flaky_loaded = False  # "flaky-load" failed once already
        self.raw_responses: set[int] = set()
        self.proposed: dict[str, list[dict[str, Any]]] = {}  # session -> its proposal CLI call, replayed

    # --- wire ------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.buffer.write((json.dumps(message) + "\n").encode())
        sys.stdout.buffer.flush()

    def raw(self, line: str | bytes) -> None:
        data = line.encode() if isinstance(line, str) else line
        sys.stdout.buffer.write(data + b"\n")
        sys.stdout.buffer.flush()

    def respond(self, msg_id: Any, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def error(self, msg_id: Any, code: int, message: str, data: Any = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": error})

    def update(self, session_id: str, update: dict[str, Any], **extra: Any) -> None:
        params = {"sessionId": session_id, "update": update, **extra}
        self.send({"jsonrpc": "2.0", "method": "session/update", "params": params})

    def chunk(self, session_id: str, text: str, kind: str = "agent_message_chunk") -> None:
        self.update(session_id, {"sessionUpdate": kind, "content": {"type": "text", "text": text}})

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await future

    async def request_raw(self, method: str, params: dict[str, Any]) -> Any:
        """Like request, but returns the whole response (error included)."""
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self.raw_responses.add(self.next_id)
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await future

    async def ask_permission(self, session_id: str, tool_id: str) -> str:
        response = await self.request(
            "session/request_permission",
            {
                "sessionId": session_id,
                "toolCall": {"toolCallId": tool_id, "title": "rm -rf build", "kind": "execute"},
                "options": [
                    {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                    {"optionId": "deny", "name": "Deny", "kind": "reject_once"},
                ],
            },
        )
        outcome = (response or {}).get("outcome", {})
        return outcome.get("optionId") or outcome.get("outcome") or "?"

    # --- dispatch ----------------------------------------------------------------------------------
    async def handle(self, msg: dict[str, Any]) -> None:
        if "method" not in msg:
            future = self.pending.pop(msg.get("id"), None)
            if future is not None and not future.done():
                raw = msg.get("id") in self.raw_responses
                future.set_result(msg if raw else msg.get("result"))
            return
        method, params, msg_id = msg["method"], msg.get("params") or {}, msg.get("id")
        handler = getattr(self, "on_" + method.replace("/", "_"), None)
        if handler is None:
            if msg_id is not None:
                self.error(msg_id, -32601, f"Method not found: {method}")
            return
        await handler(msg_id, params)

    async def on_initialize(self, msg_id: Any, params: dict[str, Any]) -> None:
        self.client_caps = params.get("clientCapabilities")
        sys.stderr.write(f"client capabilities: {json.dumps(self.client_caps)}\n")
        sys.stderr.write(f"env mark: {os.environ.get('CLAWQT_TEST_MARK')}\n")
        sys.stderr.flush()
        if "no-init" in FLAGS:
            return
        if "exit-in-init" in FLAGS:
            sys.stderr.write("fatal: cannot reach the gateway\n")
            sys.stderr.flush()
            os._exit(int(FLAGS["exit-in-init"] or 1))
        await asyncio.sleep(float(FLAGS.get("init-delay") or 0))  # the start-up delay the test asked for
        caps = json.loads(FLAGS["caps"]) if FLAGS.get("caps") else DEFAULT_CAPS
        methods = AUTH_METHODS.get(FLAGS.get("auth") or "", [])
        terminal_auth = ((self.client_caps or {}).get("auth") or {}).get("terminal") is True
        methods = [m for m in methods if m.get("type") != "terminal" or terminal_auth]
        result: dict[str, Any] = {"protocolVersion": 1, "agentCapabilities": caps, "authMethods": methods}
        if "no-info" not in FLAGS:  # --no-info: like agents that do not say who they are
            result["agentInfo"] = {
                "name": FLAGS.get("name") or "scripted",
                "title": "Scripted",
                "version": "1",
            }
        self.respond(msg_id, result)

    async def on_authenticate(self, msg_id: Any, params: dict[str, Any]) -> None:
        if FLAGS.get("auth") == "agent" and params.get("methodId") == "scripted-oauth":
            await asyncio.sleep(0.2)  # the browser round trip
            self.authenticated = True
            self.respond(msg_id, {})
        else:
            self.error(msg_id, -32602, f"Invalid params: unknown method {params.get('methodId')!r}")

    async def on_session_new(self, msg_id: Any, params: dict[str, Any]) -> None:
        if self.hung_news < int(FLAGS.get("hang-new") or 0):  # --hang-new=N: the first N never answer
            self.hung_news += 1
            return
        if not signed_in(self):
            if FLAGS.get("auth") in ("claude", "words"):
                if FLAGS.get("auth") == "words":
                    sys.stderr.write("Not logged in \u00b7 Please run /login\n")
                    sys.stderr.flush()
                    await asyncio.sleep(0.1)  # the line is read before the answer
                self.error(
                    msg_id, -32603, "Internal error", {"details": "Query closed before response received"}
                )
            else:
                self.error(msg_id, -32000, "Authentication required")
            return
        if self.failed_news < int(FLAGS.get("fail-new") or 0):  # --fail-new=N: the first N fail
            self.failed_news += 1
            self.error(msg_id, -32603, "Internal error: the workspace is locked by another agent")
            return
        self.counter += 1
        sid = f"acp-{self.counter}"
        self.sessions[sid] = {"cwd": params.get("cwd"), "meta": params.get("_meta")}
        self.update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": COMMANDS})
        self.respond(msg_id, {"sessionId": sid, "modes": MODES, "configOptions": [model_option("m1")]})

    async def on_session_load(self, msg_id: Any, params: dict[str, Any]) -> None:
        sid = params.get("sessionId", "")
        if sid == "fail-load":
            self.error(msg_id, -32002, "Resource not found: fail-load")
            return
        if sid == "slow-fail-load":
            await asyncio.sleep(0.5)  # a slow load: the test acts meanwhile
            self.error(msg_id, -32002, "Resource not found: slow-fail-load")
            return
        if sid == "flaky-load" and not self.flaky_loaded:
            self.flaky_loaded = True
            self.error(msg_id, -32603, "Internal error: the session store is busy")
            return
        self.update(sid, {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "q1"}})
        for update in self.proposed.get(sid, []):
            self.update(sid, update)
        if sid == "exit-load":
            os._exit(5)
        if sid == "perm-load":
            outcome = await self.ask_permission(sid, "load-tool")
            self.chunk(sid, f"permission during load: {outcome}")
        if sid == "slow-load":
            await asyncio.sleep(0.5)  # a slow load: the test acts meanwhile
        if sid.startswith("big-"):
            self.replay_big(sid, int(sid.split("-")[1]))  # big-N, or big-N-name for another such chat
            self.sessions[sid] = {"cwd": params.get("cwd")}
            self.respond(msg_id, {})
            return
        self.chunk(sid, "a1")
        self.update(sid, {"sessionUpdate": "brand_new_kind", "payload": 1})
        self.sessions[sid] = {"cwd": params.get("cwd")}
        self.respond(msg_id, {})

    def replay_big(self, sid: str, turns: int) -> None:
        """`big-N`: N turns of 20 updates each (benchmarks): question, thought, 10 chunks, a tool call
        with 2 updates, 5 more chunks."""
        piece = "lorem ipsum dolor sit amet " * 4
        for turn in range(turns):
            self.update(
                sid,
                {
                    "sessionUpdate": "user_message_chunk",
                    "content": {"type": "text", "text": f"question {turn}?"},
                },
            )
            self.chunk(sid, f"thinking about {turn}", "agent_thought_chunk")
            for i in range(10):
                self.chunk(sid, f"{i}:{piece}")
            tool_id = f"t{turn}"
            self.update(
                sid,
                {
                    "sessionUpdate": "tool_call",
                    "toolCallId": tool_id,
                    "title": "grep -r x",
                    "kind": "search",
                    "status": "in_progress",
                },
            )
            self.update(
                sid,
                {
                    "sessionUpdate": "tool_call_update",
                    "toolCallId": tool_id,
                    "content": [{"type": "content", "content": {"type": "text", "text": "3 hits"}}],
                },
            )
            self.update(
                sid, {"sessionUpdate": "tool_call_update", "toolCallId": tool_id, "status": "completed"}
            )
            for i in range(5):
                self.chunk(sid, f"after {i} ")

    async def on_session_resume(self, msg_id: Any, params: dict[str, Any]) -> None:
        self.sessions[params.get("sessionId", "")] = {"cwd": params.get("cwd")}
        self.respond(msg_id, {})

    async def on_session_close(self, msg_id: Any, params: dict[str, Any]) -> None:
        self.sessions.pop(params.get("sessionId", ""), None)
        self.respond(msg_id, {})

    async def on_session_delete(self, msg_id: Any, params: dict[str, Any]) -> None:
        self.respond(msg_id, {"_meta": {"deleted": params.get("sessionId")}})

    async def on_session_list(self, msg_id: Any, params: dict[str, Any]) -> None:
        offset = int(params.get("cursor") or 0)
        everything = [
            {"sessionId": f"listed-{i}", "title": f"Session {i}", "cwd": "/tmp", "updatedAt": "2026-11-30"}
            for i in range(25)
        ]
        if "heartbeat-list" in FLAGS:
            everything.insert(0, {"sessionId": "agent:main:main", "title": "[OpenClaw heartbeat poll]"})
        page = everything[offset : offset + 10]
        result: dict[str, Any] = {"sessions": page}
        if offset + 10 < len(everything):
            result["nextCursor"] = str(offset + 10)
        self.respond(msg_id, result)

    async def on_session_set_mode(self, msg_id: Any, params: dict[str, Any]) -> None:
        sys.stderr.write(f"set_mode {params.get('modeId')}\n")
        sys.stderr.flush()
        self.update(
            params["sessionId"], {"sessionUpdate": "current_mode_update", "currentModeId": params["modeId"]}
        )
        self.respond(msg_id, {})

    async def on_session_set_config_option(self, msg_id: Any, params: dict[str, Any]) -> None:
        sys.stderr.write(f"set_config_option {params.get('configId')}={params.get('value')}\n")
        sys.stderr.flush()
        self.respond(msg_id, {"configOptions": [model_option(params["value"], params["configId"])]})

    async def on_session_cancel(self, msg_id: Any, params: dict[str, Any]) -> None:
        self.cancelled.add(params.get("sessionId", ""))

    async def on_session_prompt(self, msg_id: Any, params: dict[str, Any]) -> None:
        sid = params.get("sessionId", "")
        blocks = params.get("prompt") or []
        # scripted by the user's own words: ClawQt's hidden machine-context blocks are not part of them
        self.hidden_context[sid] = [b.get("text", "") for b in blocks if _hidden(b)]
        text = " ".join(
            b.get("text", "") for b in blocks if b.get("type") == "text" and not _hidden(b)
        ).strip()
        word = text.split(" ", 1)[0] if text else ""
        self.cancelled.discard(sid)
        if word == "fail":
            self.error(msg_id, -32603, "Internal error: the model provider is unreachable")
            return
        handler = PROMPTS.get(word, Agent.prompt_hello)
        try:
            stop = await handler(self, sid, params, text)
        except PromptFailed as exc:  # a script that fails after it has begun to answer
            self.error(msg_id, -32603, str(exc))
            return
        self.respond(msg_id, {"stopReason": stop})

    # --- prompt scripts ----------------------------------------------------------------------------
    async def prompt_hello(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.chunk(sid, "Hello")
        self.chunk(sid, " world")
        return "end_turn"

    async def prompt_echo_meta(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.chunk(sid, json.dumps({"meta": params.get("_meta"), "prompt": params.get("prompt")}))
        return "end_turn"

    async def prompt_garbage(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.raw("this is not json")
        self.raw("{broken json")
        self.raw("[1, 2, 3]")
        self.raw('{"jsonrpc": "2.0", "id": 987654, "result": {}}')
        self.update(sid, {"sessionUpdate": "future_kind_v9", "whatever": [1, 2]})
        self.update(
            "nobody-knows-this-session",
            {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "lost"}},
        )
        self.send({"jsonrpc": "2.0", "method": "session/update", "params": {"update": {}}})
        self.chunk(sid, "survived")
        return "end_turn"

    async def prompt_bigline(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.raw(b"x" * (20 * 1024 * 1024))
        self.chunk(sid, "y" * (20 * 1024 * 1024))
        self.chunk(sid, "after the big line")
        return "end_turn"

    async def prompt_stderrflood(self, sid: str, params: dict[str, Any], text: str) -> str:
        line = ("E" * 1023 + "\n").encode()
        for _ in range(5 * 1024):
            sys.stderr.buffer.write(line)
        sys.stderr.buffer.flush()
        self.chunk(sid, "flooded")
        return "end_turn"

    async def prompt_exit(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.update(
            sid,
            {"sessionUpdate": "tool_call", "toolCallId": "t-exit", "title": "work", "status": "in_progress"},
        )
        self.chunk(sid, "about to die")
        sys.stderr.write("segfault-ish: goodbye\n")
        sys.stderr.flush()
        await asyncio.sleep(0.05)  # its last words reach ClawQt before the crash
        os._exit(3)

    async def prompt_permission(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-perm",
                "title": "rm -rf build",
                "kind": "execute",
                "status": "pending",
            },
        )
        outcome = await self.ask_permission(sid, "t-perm")
        status = "completed" if outcome == "allow" else "failed"
        self.update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": "t-perm", "status": status})
        self.chunk(sid, f"outcome: {outcome}")
        return "cancelled" if sid in self.cancelled else "end_turn"

    async def prompt_propose(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`propose [CHANNEL] [hold]`: runs the proposal CLI as OpenClaw's exec tool sends it (the
        canonical invocation, PROPOSAL_PAYLOAD), says so and ends the turn; with `hold` it waits until
        cancelled instead. A later session/load of this session replays the call."""
        words = text.split()
        channel = words[1] if len(words) > 1 and words[1] != "hold" else f"v1.{'0' * 32}.{'0' * 32}"
        command = (
            f'"/opt/clawqt/bin/clawqt" propose-terminal-actions --channel {channel} '
            f"--payload-json '{PROPOSAL_PAYLOAD}'"
        )
        call = {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-propose",
            "title": "exec",
            "kind": "execute",
            "status": "in_progress",
            "rawInput": {"command": command, "name": "exec"},
        }
        done = {"sessionUpdate": "tool_call_update", "toolCallId": "t-propose", "status": "completed"}
        self.update(sid, call)
        self.update(sid, done)
        self.proposed[sid] = [call, done]
        self.chunk(sid, "I proposed two ways on; pick one on the card.")
        if "hold" in words:
            return await self.prompt_silent(sid, params, text)
        return "end_turn"

    async def prompt_silent(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Says nothing until cancelled (Stop before any reply)."""
        for _ in range(600):
            if sid in self.cancelled:
                return "cancelled"
            await asyncio.sleep(0.05)  # the poll's interval
        return "end_turn"

    async def prompt_term_stop(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Starts a client terminal that runs for minutes, shows it in a tool card, and when cancelled
        answers `cancelled` WITHOUT killing or releasing it (like fast-agent)."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        created = await self.request(
            "terminal/create",
            {
                "sessionId": sid,
                "command": "bash",
                "args": ["-c", "echo started; echo $$ > stop.pid; exec sleep 300"],
                "cwd": cwd,
            },
        )
        terminal_id = created.get("terminalId") if isinstance(created, dict) else None
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-stop",
                "title": "sleep 300",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": terminal_id}],
            },
        )
        for _ in range(600):
            if sid in self.cancelled:
                return "cancelled"
            await asyncio.sleep(0.05)  # the poll's interval
        return "end_turn"

    async def prompt_slow(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-slow",
                "title": "long job",
                "status": "in_progress",
            },
        )
        for i in range(500):
            if sid in self.cancelled:
                return "cancelled"
            self.chunk(sid, f"tick {i} ")
            await asyncio.sleep(0.02)  # the agent's pace
        return "end_turn"

    async def prompt_other(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Streams 30 chunks slowly (for switching away and back during a live prompt)."""
        for i in range(30):
            self.chunk(sid, f"bg{i} ")
            await asyncio.sleep(0.03)  # the agent's pace
        return "end_turn"

    async def prompt_blast(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`blast N`: N agent_message_chunk updates as fast as the pipe takes them (benchmarks)."""
        count = int(text.split()[1]) if len(text.split()) > 1 else 10_000
        piece = "lorem ipsum dolor sit amet " * 7
        for i in range(count):
            self.chunk(sid, f"{i}:{piece}")
        return "end_turn"

    async def prompt_paced(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`paced [CHARS_PER_S] [CHARS]`: a Markdown reply (headings, lists, a 40-line code block, a table)
        of about CHARS characters (default 20,000) in chunks of 5-20 characters at CHARS_PER_S (default
        1,000), like a real model's pace; the schedule is kept against the start, never drifting."""
        words = text.split()
        rate = float(words[1]) if len(words) > 1 else 1_000.0
        reply = paced_markdown(int(words[2]) if len(words) > 2 else 20_000)
        loop = asyncio.get_running_loop()
        started, sent, state = loop.time(), 0, 1
        while sent < len(reply):
            if sid in self.cancelled:
                return "cancelled"
            state = (state * 1_103_515_245 + 12_345) % 2**31  # the same 5..20 sizes every run
            size = 5 + (state >> 16) % 16
            self.chunk(sid, reply[sent : sent + size])
            sent += size
            delay = started + sent / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)  # the pause the prompt asked for
        return "end_turn"

    async def prompt_noreply(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Like OpenClaw without a model: the turn ends with nothing said."""
        return "end_turn"

    async def wait_unless_cancelled(self, sid: str, seconds: float) -> bool:
        """Wait `seconds`; False as soon as the turn is cancelled."""
        for _ in range(max(1, round(seconds / 0.05))):
            if sid in self.cancelled:
                return False
            await asyncio.sleep(0.05)  # the poll's interval
        return True

    async def prompt_permission_later(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`permission-later [S]`: says it starts, waits S seconds (default 1.5), then asks permission
        like `permission` (for asking while the user is in another chat)."""
        words = text.split()
        self.chunk(sid, "Starting; I will need your approval. ")
        if not await self.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 1.5):
            return "cancelled"
        return await self.prompt_permission(sid, params, text)

    async def prompt_fail_later(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`fail-later [S]`: starts to answer, waits S seconds (default 1.5), then the prompt fails."""
        words = text.split()
        self.chunk(sid, "Working on it")
        await self.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 1.5)
        raise PromptFailed("Internal error: the model provider went away mid-reply")

    # --- terminal variants (issue: terminal cards) ------------------------------------------------
    def tool_update(self, sid: str, tool_id: str, **fields: Any) -> None:
        self.update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": tool_id, **fields})

    async def prompt_ansi(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Terminal escapes where no terminal is: in a tool's text output and in the reply."""
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-ansi",
                "title": "\x1b[1mpytest\x1b[0m",
                "kind": "execute",
                "status": "completed",
                "content": [
                    {
                        "type": "content",
                        "content": {
                            "type": "text",
                            "text": "\x1b[32m3 passed\x1b[0m, \x1b[31;1m1 failed\x1b[0m\n",
                        },
                    }
                ],
            },
        )
        self.chunk(
            sid, "The run said \x1b[31mFAILED\x1b[0m for \x1b]8;;file:///t.py\x1b\\t.py\x1b]8;;\x1b\\."
        )
        return "end_turn"

    async def prompt_hostile_lines(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Lines a reader must survive: nesting too deep to parse, ids JSON-RPC does not allow, methods
        and params of the wrong type. Then a normal reply, which must still arrive."""
        deep = 5000
        bad = [
            '{"jsonrpc":"2.0","method":"session/update","params":' + "[" * deep + "]" * deep + "}",
            '{"jsonrpc":"2.0","id":[1,2],"result":{}}',
            '{"jsonrpc":"2.0","id":{"x":1},"result":{}}',
            '{"jsonrpc":"2.0","id":true,"result":{}}',
            '{"jsonrpc":"2.0","id":{"x":1},"method":"fs/read_text_file","params":{}}',
            '{"jsonrpc":"2.0","id":[7],"error":{"code":1,"message":"x"}}',
            '{"jsonrpc":"2.0","method":123,"params":{}}',
            '{"jsonrpc":"2.0","method":["session/update"],"params":{}}',
            '{"jsonrpc":"2.0","method":"session/update","params":"not an object"}',
            '{"jsonrpc":"2.0","id":90001,"method":"fs/read_text_file","params":[1,2]}',
            '{"jsonrpc":"2.0","id":90002,"method":"terminal/output","params":null}',
            '{"jsonrpc":"2.0","id":1.5,"result":{}}',
        ]
        for line in bad:
            self.raw(line)
        await asyncio.sleep(0.05)  # the bad lines are read before the next update
        self.chunk(sid, "survived")
        return "end_turn"

    async def prompt_close_stdout(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Closes its stdout and keeps running: it can never answer again."""
        self.chunk(sid, "closing my output")
        sys.stdout.flush()
        os.close(1)
        await asyncio.sleep(300)  # alive with its output closed, until it is killed
        return "end_turn"

    async def prompt_term_hostile(self, sid: str, params: dict[str, Any], text: str) -> str:
        """terminal/create with what no process can be started with: each answer, as JSON lines."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        attempts = [
            {"env": [{"name": "A=B", "value": "x"}]},
            {"env": [{"name": "GOOD", "value": "nul\u0000inside"}]},
            {"args": ["-c", "echo a\u0000b"]},
            {"env": [{"name": "", "value": "x"}]},
            {"env": ["not an object"]},
            {"args": ["-c", 42]},
        ]
        answers = []
        for attempt in attempts:
            request = {"sessionId": sid, "command": "bash", "args": ["-c", "echo hi"], "cwd": cwd, **attempt}
            answer = await self.request_raw("terminal/create", request)
            answers.append(
                answer.get("error", {}).get("message") if "error" in answer else answer.get("result")
            )
        self.chunk(sid, json.dumps(answers))
        return "end_turn"

    async def prompt_term_escape(self, sid: str, params: dict[str, Any], text: str) -> str:
        """A client terminal whose command starts processes that leave its process group: one with
        setsid, one double-forked (its parent exits); their pids go to escaped.pid / orphan.pid."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        script = (
            "setsid sleep 300 & echo $! > escaped.pid; "
            "(sleep 300 & echo $! > orphan.pid); "
            "echo started; exec sleep 300"
        )
        created = await self.request(
            "terminal/create", {"sessionId": sid, "command": "bash", "args": ["-c", script], "cwd": cwd}
        )
        self.chunk(sid, json.dumps(created))
        return "end_turn"

    async def prompt_agent_escape(self, sid: str, params: dict[str, Any], text: str) -> str:
        """The agent itself starts a process in a session of its own (pid in agent-escaped.pid)."""
        import subprocess

        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        child = subprocess.Popen(["sleep", "300"], start_new_session=True, cwd=cwd)
        with open(os.path.join(cwd, "agent-escaped.pid"), "w") as handle:
            handle.write(str(child.pid))
        self.chunk(sid, "started a daemon")
        return "end_turn"

    async def prompt_edit(self, sid: str, params: dict[str, Any], text: str) -> str:
        """An edit tool call with diff content: `edit` changes two lines of a small file, `edit long`
        rewrites 300 lines (a diff long enough to be collapsed)."""
        size = 300 if "long" in text else 24
        old = "".join(f"value_{n} = compute({n})\n" for n in range(1, size + 1))
        if size == 300:
            new = old.replace("compute(", "calculate(")
        else:
            new = old.replace("value_5 = compute(5)", "value_5 = compute(5, cache=True)").replace(
                "value_18 = compute(18)\n", "value_18 = compute(18)\nvalue_18b = compute(18.5)\n"
            )
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-edit",
                "title": "Edit values.py",
                "kind": "edit",
                "status": "completed",
                "locations": [{"path": "/work/values.py"}],
                "content": [{"type": "diff", "path": "/work/values.py", "oldText": old, "newText": new}],
            },
        )
        self.chunk(sid, "Edited values.py.")
        return "end_turn"

    async def prompt_term_end(self, sid: str, params: dict[str, Any], text: str) -> str:
        """claude-agent-acp style: the card first, all output once at the end, then the exit."""
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-end",
                "title": "ls --color",
                "kind": "execute",
                "status": "in_progress",
                "content": [
                    {"type": "content", "content": {"type": "text", "text": "List the files"}},
                    {"type": "terminal", "terminalId": "T-end"},
                ],
                "_meta": {"terminal_info": {"terminal_id": "T-end", "cwd": "/work"}},
            },
        )
        out = "\x1b[0m\x1b[01;34mdir\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt\n"
        self.tool_update(sid, "t-end", _meta={"terminal_output": {"terminal_id": "T-end", "data": out}})
        self.tool_update(
            sid,
            "t-end",
            status="completed",
            _meta={"terminal_exit": {"terminal_id": "T-end", "exit_code": 0, "signal": None}},
        )
        return "end_turn"

    async def prompt_term_delta(self, sid: str, params: dict[str, Any], text: str) -> str:
        """codex-acp style: streamed terminal_output_delta (sent even without the capability), a progress
        bar redrawn with carriage returns, exit code 2."""
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-delta",
                "title": "make",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": "T-delta"}],
                "_meta": {"terminal_info": {"terminal_id": "T-delta", "cwd": "/src"}},
            },
        )
        for pct in (10, 50, 100):
            self.tool_update(
                sid,
                "t-delta",
                _meta={"terminal_output_delta": {"terminal_id": "T-delta", "data": f"\rbuilding {pct:3d}%"}},
            )
            await asyncio.sleep(0.01)  # the agent's pace
        self.tool_update(
            sid,
            "t-delta",
            _meta={"terminal_output_delta": {"terminal_id": "T-delta", "data": "\nerror: missing file\n"}},
        )
        self.tool_update(
            sid,
            "t-delta",
            status="failed",
            _meta={"terminal_exit": {"terminal_id": "T-delta", "exit_code": 2, "signal": None}},
        )
        return "end_turn"

    async def prompt_term_big(self, sid: str, params: dict[str, Any], text: str) -> str:
        """1 MB of coloured output streamed as 4 KB deltas (benchmarks and the large-output test)."""
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-big",
                "title": "cat big.log",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": "T-big"}],
                "_meta": {"terminal_info": {"terminal_id": "T-big", "cwd": "/logs"}},
            },
        )
        line = "\x1b[32mINFO\x1b[0m \x1b[1mworker\x1b[0m processed item {:06d} " + "." * 40 + "\n"
        data = "".join(line.format(i) for i in range(1024 * 1024 // 80))
        for start in range(0, len(data), 4096):
            self.tool_update(
                sid,
                "t-big",
                _meta={"terminal_output_delta": {"terminal_id": "T-big", "data": data[start : start + 4096]}},
            )
        self.tool_update(
            sid,
            "t-big",
            status="completed",
            _meta={"terminal_exit": {"terminal_id": "T-big", "exit_code": 0}},
        )
        return "end_turn"

    async def prompt_term_console(self, sid: str, params: dict[str, Any], text: str) -> str:
        """No terminal data at all: the ```console fallback agents send to clients without the capability."""
        body = "```console\n$ make\n\x1b[31merror:\x1b[0m missing rule\n```"
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-console",
                "title": "make",
                "kind": "execute",
                "status": "completed",
                "content": [{"type": "content", "content": {"type": "text", "text": body}}],
            },
        )
        return "end_turn"

    async def prompt_term_v2(self, sid: str, params: dict[str, Any], text: str) -> str:
        """ACP v2 draft: terminal_output_chunk (base64; chunks split a UTF-8 character and an escape
        sequence) and terminal_update snapshots; killed by SIGKILL."""
        import base64

        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-v2",
                "title": "top",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": "T-v2"}],
            },
        )
        data = "h\u00e9llo \x1b[31mred\x1b[0m\n".encode()
        for piece in (data[:2], data[2:9], data[9:]):  # splits "é" and "\x1b[31m"
            self.update(
                sid,
                {
                    "sessionUpdate": "terminal_output_chunk",
                    "terminalId": "T-v2",
                    "data": base64.b64encode(piece).decode(),
                },
            )
        self.update(
            sid,
            {
                "sessionUpdate": "terminal_update",
                "terminalId": "T-v2",
                "cwd": "/v2",
                "exitStatus": {"exitCode": None, "signal": "SIGKILL"},
            },
        )
        self.tool_update(sid, "t-v2", status="failed")
        return "end_turn"

    async def prompt_term_early(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Output and exit before the card, and output for an id nobody ever names."""
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-other",
                "title": "other",
                "status": "in_progress",
            },
        )
        self.tool_update(
            sid,
            "t-other",
            title="other (still applied)",
            status="completed",
            _meta={
                "terminal_output": {"terminal_id": "T-early", "data": "early output\n"},
                "terminal_exit": {"terminal_id": "T-early", "exit_code": 0},
                "terminal_output_delta": {"terminal_id": "T-nobody", "data": "lost"},
            },
        )
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-early",
                "title": "late card",
                "kind": "execute",
                "status": "completed",
                "_meta": {"terminal_info": {"terminal_id": "T-early", "cwd": "/late"}},
            },
        )
        return "end_turn"

    async def prompt_term_create(self, sid: str, params: dict[str, Any], text: str) -> str:
        """The client's own terminal: terminal/create with a byte limit, embedded in a tool card, then
        output, wait_for_exit and release; reports what it saw as JSON."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        created = await self.request(
            "terminal/create",
            {
                "sessionId": sid,
                "command": "bash",
                "args": [
                    "-c",
                    "for i in $(seq 1 400); do printf '\u00e9t\u00e9-%03d ' $i; done; echo; echo done",
                ],
                "env": [{"name": "CLAWQT_TERM_MARK", "value": "merged"}],
                "cwd": cwd,
                "outputByteLimit": 1000,
            },
        )
        terminal_id = created.get("terminalId") if isinstance(created, dict) else None
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-create",
                "title": "bash -c loop",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": terminal_id}],
            },
        )
        status = await self.request("terminal/wait_for_exit", {"sessionId": sid, "terminalId": terminal_id})
        output = await self.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
        await self.request("terminal/release", {"sessionId": sid, "terminalId": terminal_id})
        self.tool_update(sid, "t-create", status="completed")
        text = output.get("output", "") if isinstance(output, dict) else ""
        self.chunk(
            sid,
            json.dumps(
                {
                    "terminalId": terminal_id,
                    "status": status,
                    "bytes": len(text.encode()),
                    "truncated": output.get("truncated") if isinstance(output, dict) else None,
                    "tail": text[-12:],
                    "valid_utf8_start": not text[:1].isspace(),
                }
            ),
        )
        return "end_turn"

    async def prompt_term_kill(self, sid: str, params: dict[str, Any], text: str) -> str:
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        created = await self.request(
            "terminal/create",
            {"sessionId": sid, "command": "bash", "args": ["-c", "echo started; sleep 30"], "cwd": cwd},
        )
        terminal_id = created.get("terminalId")
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-kill",
                "title": "sleep 30",
                "kind": "execute",
                "status": "in_progress",
                "content": [{"type": "terminal", "terminalId": terminal_id}],
            },
        )
        for _ in range(200):  # until the shell has spoken (a loaded machine can take a while)
            seen = await self.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
            if "started" in (seen or {}).get("output", ""):
                break
            await asyncio.sleep(0.05)  # the poll's interval
        await self.request("terminal/kill", {"sessionId": sid, "terminalId": terminal_id})
        status = await self.request("terminal/wait_for_exit", {"sessionId": sid, "terminalId": terminal_id})
        output = await self.request("terminal/output", {"sessionId": sid, "terminalId": terminal_id})
        self.chunk(sid, json.dumps({"status": status, "output": output}))
        return "end_turn"

    async def prompt_term_outside(self, sid: str, params: dict[str, Any], text: str) -> str:
        response = await self.request_raw("terminal/create", {"sessionId": sid, "command": "ls", "cwd": "/"})
        self.chunk(sid, json.dumps(response))
        return "end_turn"

    async def prompt_term_hold(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Starts a long-running client terminal and ends the turn without releasing it."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "."
        created = await self.request(
            "terminal/create",
            {
                "sessionId": sid,
                "command": "bash",
                "args": ["-c", "echo $$ > held.pid; exec sleep 300"],
                "cwd": cwd,
            },
        )
        self.chunk(sid, json.dumps(created))
        return "end_turn"

    # --- client file access (fs/read_text_file, fs/write_text_file) ------------------------------
    def session_path(self, sid: str, relative: str) -> str:
        """An absolute path built from the session's cwd (not normalized: `..` stays in it)."""
        return os.path.join(self.sessions.get(sid, {}).get("cwd") or ".", relative)

    async def fs_read(self, sid: str, relative: str, *counts: str) -> None:
        request: dict[str, Any] = {"sessionId": sid, "path": self.session_path(sid, relative)}
        for name, value in zip(("line", "limit"), counts, strict=False):
            request[name] = int(value)
        response = await self.request_raw("fs/read_text_file", request)
        self.chunk(sid, json.dumps({"result": response.get("result"), "error": response.get("error")}))

    async def fs_write(self, sid: str, relative: str, content: str) -> None:
        request = {"sessionId": sid, "path": self.session_path(sid, relative), "content": content}
        response = await self.request_raw("fs/write_text_file", request)
        self.chunk(sid, json.dumps({"result": response.get("result"), "error": response.get("error")}))

    async def prompt_rpc_hostile(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`rpc-hostile`: requests ClawQt cannot answer as asked (unknown and extension methods, params
        that are no object, fields of the wrong type or missing), an unknown notification, then a good
        read; reports each answer's error (or result) as a JSON list."""
        path = self.session_path(sid, "notes.txt")
        asks: list[tuple[str, Any]] = [
            ("no/such_method", {"sessionId": sid}),
            ("_vendor/extension", {"sessionId": sid}),
            ("mcp/connect", {"sessionId": sid}),
            ("fs/read_text_file", [sid, path]),
            ("fs/read_text_file", {"sessionId": sid, "path": 42}),
            ("fs/read_text_file", {"sessionId": sid, "path": path, "line": "2"}),
            ("fs/write_text_file", {"sessionId": sid, "path": path}),
            ("terminal/output", {"sessionId": sid}),
            ("session/request_permission", {"sessionId": sid, "toolCall": {}, "options": "allow"}),
        ]
        self.send({"jsonrpc": "2.0", "method": "no/such_notification", "params": {"sessionId": sid}})
        answers = []
        for method, request in asks:
            response = await self.request_raw(method, request)
            answers.append(
                {"method": method, "result": response.get("result"), "error": response.get("error")}
            )
        good = await self.request_raw("fs/read_text_file", {"sessionId": sid, "path": path})
        answers.append(
            {"method": "fs/read_text_file", "result": good.get("result"), "error": good.get("error")}
        )
        self.chunk(sid, json.dumps(answers))
        return "end_turn"

    async def prompt_fs_read(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`fs-read <relative> [line] [limit]`: reports {"result": ..., "error": ...} as JSON."""
        words = text.split()
        await self.fs_read(sid, words[1] if len(words) > 1 else "notes.txt", *words[2:4])
        return "end_turn"

    async def prompt_fs_write(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`fs-write <relative> <content>` (a literal \\n in the content is a newline)."""
        words = text.split(" ", 2)
        relative = words[1] if len(words) > 1 else "notes.txt"
        content = (words[2] if len(words) > 2 else "").replace("\\n", "\n")
        await self.fs_write(sid, relative, content)
        return "end_turn"

    async def prompt_fs_read_outside(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`fs-read-outside [name]`: reads `<cwd>/../<name>` (default outside.txt)."""
        words = text.split()
        await self.fs_read(sid, os.path.join("..", words[1] if len(words) > 1 else "outside.txt"))
        return "end_turn"

    async def prompt_fs_write_outside(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`fs-write-outside [name]`: writes `<cwd>/../<name>` (default outside.txt)."""
        words = text.split()
        name = words[1] if len(words) > 1 else "outside.txt"
        await self.fs_write(sid, os.path.join("..", name), "written by the agent\n")
        return "end_turn"

    async def prompt_attach_mix(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Prose, then resource links: four workspace files, a missing one, a `javascript:` reference
        and a web page (attachment cards in every state)."""
        self.chunk(sid, "Here are the files.")
        references = [
            *(self.session_path(sid, name) for name in ("notes.md", "pic.png", "data.csv", "archive.zip")),
            self.session_path(sid, "missing.txt"),
            "javascript:alert(1)",
            "https://example.com/page",
        ]
        for uri in references:
            name = uri.rstrip("/").rsplit("/", 1)[-1]
            link = {"type": "resource_link", "uri": uri, "name": name}
            self.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
        return "end_turn"

    async def prompt_images_inline(self, sid: str, params: dict[str, Any], text: str) -> str:
        """Prose with inline image blocks: embedded data (a 2x2 PNG), a workspace file by file:// URI,
        and a remote URL (which a client must not fetch by itself)."""
        png = (
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAA"
            "AABJRU5ErkJggg=="
        )
        picture = "file://" + self.session_path(sid, "pic.png")
        self.chunk(sid, "Three pictures:")
        for block in (
            {"type": "image", "data": png, "mimeType": "image/png"},
            {"type": "image", "uri": picture, "mimeType": "image/png"},
            {"type": "image", "uri": "https://example.com/cat.png", "mimeType": "image/png"},
        ):
            self.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
        return "end_turn"

    async def prompt_outside_files(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`outside-files IMAGE`: the image file IMAGE (outside the workspace) as an inline image block
        and as a resource link, the workspace's pic.png as a link too, and an embedded resource whose uri
        names the workspace's notes.md but whose text is the agent's own ("EMBEDDED COPY")."""
        outside = text.split(maxsplit=1)[1]
        self.chunk(sid, "Files:")
        notes = "file://" + self.session_path(sid, "notes.md")
        for block in (
            {"type": "image", "uri": "file://" + outside, "mimeType": "image/png"},
            {"type": "resource_link", "uri": outside, "name": "outside.png"},
            {"type": "resource_link", "uri": self.session_path(sid, "pic.png"), "name": "pic.png"},
            {
                "type": "resource",
                "resource": {"uri": notes, "mimeType": "text/markdown", "text": "# EMBEDDED COPY\n"},
            },
        ):
            self.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
        return "end_turn"

    async def prompt_media_mix(self, sid: str, params: dict[str, Any], text: str) -> str:
        """MEDIA lines (one relative, one inside a fence that must stay prose), a native resource link
        naming the same file as the relative line by its absolute path, and OpenClaw's transcript form
        (`_meta.openclawDelivery.mediaUrls`) for another file."""
        self.chunk(sid, "Here is the chart.\nMEDIA: chart.png\n```\nMEDIA: /fenced/ignored.png\n```\nDone.")
        chart = self.session_path(sid, "chart.png")
        self.update(
            sid,
            {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "resource_link", "uri": "file://" + chart, "name": "chart.png"},
            },
        )
        self.update(
            sid,
            {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": ""},
                "_meta": {"openclawDelivery": {"mediaUrls": [self.session_path(sid, "report.pdf"), 7]}},
            },
        )
        return "end_turn"

    async def prompt_meta(self, sid: str, params: dict[str, Any], text: str) -> str:
        self.update(
            sid,
            {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": "m"},
                "futureField": {"x": 1},
                "_meta": {"vendor": {"k": "v"}},
            },
            _meta={"envelope": True},
        )
        return "end_turn"

    # --- hostile content for the renderer ------------------------------------------------------
    async def prompt_hostile_render(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-render CASE [CHUNK]`: one reply that is costly to lay out (`hostile_text`), in one
        chunk or in chunks of CHUNK characters."""
        words = text.split()
        body = hostile_text(words[1] if len(words) > 1 else "unbroken-10")
        size = int(words[2]) if len(words) > 2 else len(body)
        for start in range(0, len(body), size):
            self.chunk(sid, body[start : start + size])
        return "end_turn"

    async def prompt_hostile_diff(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-diff [LINES]`: an edit whose diff content rewrites every line of a LINES-line file."""
        words = text.split()
        lines = int(words[1]) if len(words) > 1 else 60_000
        old = "".join(f"value_{n} = compute({n})\n" for n in range(lines))
        new = "".join(f"value_{n} = calculate({n}, cache=True)\n" for n in range(lines))
        content = [{"type": "diff", "path": "/work/big.py", "oldText": old, "newText": new}]
        self.update(
            sid,
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "t-big-diff",
                "title": "Edit big.py",
                "kind": "edit",
                "status": "completed",
                "content": content,
            },
        )
        self.chunk(sid, "Rewrote big.py.")
        return "end_turn"

    async def prompt_hostile_options(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-options [N]`: a permission request with N options (answered by the test)."""
        words = text.split()
        count = int(words[1]) if len(words) > 1 else 10_000
        options = [
            {"optionId": f"o{n}", "name": f"Option {n} " + "x" * 40, "kind": "allow_once"}
            for n in range(count)
        ]
        options.append({"optionId": "deny", "name": "Deny", "kind": "reject_once"})
        call = {"toolCallId": "t-options", "title": "many options", "kind": "execute"}
        answer = await self.request(
            "session/request_permission", {"sessionId": sid, "toolCall": call, "options": options}
        )
        self.chunk(sid, f"answered: {json.dumps((answer or {}).get('outcome'))}")
        return "end_turn"

    async def prompt_hostile_parked(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-parked [IDS] [KB]`: terminal output (KB each) for IDS terminal ids no tool names."""
        words = text.split()
        ids = int(words[1]) if len(words) > 1 else 200
        size = int(words[2]) if len(words) > 2 else 2048
        self.update(sid, {"sessionUpdate": "tool_call", "toolCallId": "t-park", "title": "park"})
        piece = ("parked output " * 74 + "\n")[:1024] * 64
        for n in range(ids):
            for _ in range(size // 64):
                meta = {"terminal_output_delta": {"terminal_id": f"T-nobody-{n}", "data": piece}}
                self.tool_update(sid, "t-park", _meta=meta)
        self.chunk(sid, "parked")
        return "end_turn"

    async def prompt_hostile_burst(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-burst [N] [unbroken]`: N tiny agent_message_chunk updates, as fast as the pipe takes
        them: a word each and a paragraph every 100 (or, with `unbroken`, one digit each: one endless
        line, which is costly to lay out rather than to deliver)."""
        words = text.split()
        count = int(words[1]) if len(words) > 1 else 100_000
        unbroken = "unbroken" in words[2:]
        for n in range(count):
            if unbroken:
                self.chunk(sid, f"{n % 10}")
            else:
                self.chunk(sid, f"w{n % 10}" + ("\n\n" if n % 100 == 99 else " "))
        return "end_turn"

    async def prompt_hostile_write(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-write [LINES]`: big.py (LINES lines) is on disk before the turn; the agent rewrites
        every line of it through fs/write_text_file."""
        words = text.split()
        lines = int(words[1]) if len(words) > 1 else 60_000
        path = self.session_path(sid, "big.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("".join(f"value_{n} = compute({n})\n" for n in range(lines)))
        new = "".join(f"value_{n} = calculate({n}, cache=True)\n" for n in range(lines))
        await self.fs_write(sid, "big.py", new)
        return "end_turn"

    async def prompt_hostile_images(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`hostile-images [N] [SIDE]`: N distinct inline PNG images of SIDE x SIDE pixels."""
        import base64
        import struct
        import zlib

        words = text.split()
        count = int(words[1]) if len(words) > 1 else 40
        side = int(words[2]) if len(words) > 2 else 2048
        self.chunk(sid, "Pictures:")
        for n in range(count):
            row = b"\x00" + bytes((n * 7 + x) % 256 for x in range(side * 3))
            raw = zlib.compress(row * side, 1)

            def part(kind: bytes, data: bytes) -> bytes:
                body = kind + data
                return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

            png = b"\x89PNG\r\n\x1a\n" + part(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            png += part(b"IDAT", raw) + part(b"IEND", b"")
            block = {"type": "image", "data": base64.b64encode(png).decode(), "mimeType": "image/png"}
            self.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
        return "end_turn"

    async def prompt_tool_group_wait(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`tool-group-wait [S]`: two tool calls finish at once, then the turn goes on S seconds
        (default 2) before the reply: the group must stay open until the turn ends."""
        words = text.split()
        for n in (1, 2):
            tool_id = f"t-wait-{n}"
            self.update(
                sid,
                {"sessionUpdate": "tool_call", "toolCallId": tool_id, "title": f"step {n}", "kind": "read"},
            )
            self.tool_update(sid, tool_id, status="completed")
        await self.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 2.0)
        self.chunk(sid, "Both steps done.")
        return "end_turn"

    async def prompt_tool_chunks(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`tool-chunks`: a tool's content arrives item by item (`tool_call_content_chunk`, one of them
        not an object), then the call fails with the agent's `error` field."""
        self.update(sid, {"sessionUpdate": "tool_call", "toolCallId": "t-chunks", "title": "fetch docs"})
        chunk = {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "t-chunks"}
        for piece in ("first page", "second page"):
            text_block = {"type": "text", "text": piece}
            self.update(sid, {**chunk, "content": {"type": "content", "content": text_block}})
        self.update(sid, {**chunk, "content": 7})
        self.tool_update(sid, "t-chunks", status="failed", error="Rate limited by the docs server")
        return "end_turn"

    async def prompt_echo_cwd(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`echo-cwd`: echoes the prompt as OpenClaw replays it, behind its `[Working directory: <cwd>]`
        prefix (the prefix again inside the text, which stays), then answers."""
        cwd = self.sessions.get(sid, {}).get("cwd") or "/work"
        echoed = f"[Working directory: {cwd}]\n\n{text}\n[Working directory: kept]\n\nend"
        self.update(sid, {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": echoed}})
        self.chunk(sid, "Echoed.")
        return "end_turn"

    async def prompt_attach_folder(self, sid: str, params: dict[str, Any], text: str) -> str:
        """`attach-folder`: links to a folder it made (`out`), a file in it, and `later.txt`, a file it
        names before it exists (the test writes it afterwards)."""
        os.makedirs(self.session_path(sid, "out"), exist_ok=True)
        with open(self.session_path(sid, "out/report.txt"), "w", encoding="utf-8") as handle:
            handle.write("report\n")
        self.chunk(sid, "The results:")
        for relative in ("out", "out/report.txt", "later.txt"):
            link = {"type": "resource_link", "uri": self.session_path(sid, relative), "name": relative}
            self.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
        return "end_turn"


def hostile_text(case: str) -> str:
    """Replies that are costly to lay out: `unbroken-KB` (no space at all), `table`
    (10,000 columns), `links` / `autolinks` (50,000), `bidi` (610 KB of bidi controls, RTL and ZWJ
    sequences), `nested` (a list 10,000 levels deep), `dataimage` (a Markdown image with a 100 MB `data:`
    URL), `divs` (20,000 raw `<div>`s)."""
    if case.startswith("unbroken-"):
        return "0123456789abcdef" * 64 * int(case.split("-", 1)[1])
    if case == "table":
        columns = range(10_000)
        rows = ["| " + " | ".join(f"c{n}" for n in columns) + " |", "|" + "---|" * len(columns)]
        rows += ["| " + " | ".join(f"v{r}" for _ in columns) + " |" for r in range(3)]
        return "\n".join(rows) + "\n"
    if case == "links":
        return " ".join(f"[link {n}](https://example.com/{n})" for n in range(50_000))
    if case == "autolinks":
        return " ".join(f"https://example.com/page/{n}" for n in range(50_000))
    if case == "bidi":
        piece = (
            "\u202eevil\u202c \u05e9\u05dc\u05d5\u05dd \U0001f468\u200d\U0001f469\u200d\U0001f467 "
            "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u2067x\u2069 "
        )
        return (piece * (610_000 // len(piece) + 1))[:610_000]
    if case == "nested":
        return "".join("  " * n + "- level\n" for n in range(10_000))
    if case == "dataimage":
        return "![chart](data:image/png;base64," + "A" * (100 * 1024 * 1024) + ")"
    if case == "divs":
        return "<div>" * 20_000
    raise ValueError(f"unknown hostile case {case!r}")


# what `propose` proposes (the compact JSON the canonical invocation carries: no single quote)
PROPOSAL_PAYLOAD = json.dumps(
    {
        "schema_version": 1,
        "origin": "terminal_agent",
        "recommended_choice": 2,
        "choices": [
            {"choice": 1, "title": "List", "rationale": "Look", "actions": [{"type": "send", "input": "ls"}]},
            {
                "choice": 2,
                "title": "Run the tests",
                "rationale": "They say what broke",
                "actions": [{"type": "send", "input": "pytest -q"}, {"type": "open", "cwd": "/work"}],
            },
        ],
    },
    separators=(",", ":"),
)


def paced_markdown(size: int) -> str:
    """Sections of a typical long answer (a heading, prose, a list, a 40-line code block, a table),
    repeated to about `size` characters."""
    code = "\n".join(f"    total_{n} = compute(items[{n}], scale={n % 7})  # step {n}" for n in range(40))
    rows = "\n".join(f"| item {n} | {n * 3} ms | {'ok' if n % 3 else 'slow'} |" for n in range(8))
    parts, n = [], 0
    while sum(map(len, parts)) < size:
        n += 1
        parts.append(
            f"## Part {n}: what changes\n\nThe service keeps **one** connection per agent and *reuses* it; "
            f"each request carries `session-{n}` so replies find their chat. It retries twice, then says "
            "why in one sentence.\n\n"
            "- read the configuration\n- open the connection\n  - with a deadline\n- send the prompt\n\n"
            f"```python\ndef step_{n}(items):\n{code}\n    return total_0\n```\n\n"
            f"| name | time | state |\n|---|---|---|\n{rows}\n\n"
        )
    return "".join(parts)[:size]


PROMPTS = {
    "hello": Agent.prompt_hello,
    "attach-mix": Agent.prompt_attach_mix,
    "images-inline": Agent.prompt_images_inline,
    "outside-files": Agent.prompt_outside_files,
    "media-mix": Agent.prompt_media_mix,
    "echo-meta": Agent.prompt_echo_meta,
    "garbage": Agent.prompt_garbage,
    "bigline": Agent.prompt_bigline,
    "stderrflood": Agent.prompt_stderrflood,
    "exit": Agent.prompt_exit,
    "permission": Agent.prompt_permission,
    "slow": Agent.prompt_slow,
    "silent": Agent.prompt_silent,
    "propose": Agent.prompt_propose,
    "term-stop": Agent.prompt_term_stop,
    "edit": Agent.prompt_edit,
    "ansi": Agent.prompt_ansi,
    "hostile-lines": Agent.prompt_hostile_lines,
    "close-stdout": Agent.prompt_close_stdout,
    "term-hostile": Agent.prompt_term_hostile,
    "term-escape": Agent.prompt_term_escape,
    "agent-escape": Agent.prompt_agent_escape,
    "background": Agent.prompt_other,
    "meta": Agent.prompt_meta,
    "blast": Agent.prompt_blast,
    "paced": Agent.prompt_paced,
    "noreply": Agent.prompt_noreply,
    "term-end": Agent.prompt_term_end,
    "term-delta": Agent.prompt_term_delta,
    "term-v2": Agent.prompt_term_v2,
    "term-big": Agent.prompt_term_big,
    "term-console": Agent.prompt_term_console,
    "term-early": Agent.prompt_term_early,
    "term-create": Agent.prompt_term_create,
    "term-kill": Agent.prompt_term_kill,
    "term-outside": Agent.prompt_term_outside,
    "term-hold": Agent.prompt_term_hold,
    "fs-read": Agent.prompt_fs_read,
    "rpc-hostile": Agent.prompt_rpc_hostile,
    "fs-write": Agent.prompt_fs_write,
    "fs-read-outside": Agent.prompt_fs_read_outside,
    "fs-write-outside": Agent.prompt_fs_write_outside,
    "hostile-render": Agent.prompt_hostile_render,
    "hostile-diff": Agent.prompt_hostile_diff,
    "hostile-options": Agent.prompt_hostile_options,
    "hostile-parked": Agent.prompt_hostile_parked,
    "hostile-images": Agent.prompt_hostile_images,
    "hostile-burst": Agent.prompt_hostile_burst,
    "hostile-write": Agent.prompt_hostile_write,
    "permission-later": Agent.prompt_permission_later,
    "fail-later": Agent.prompt_fail_later,
    "tool-group-wait": Agent.prompt_tool_group_wait,
    "tool-chunks": Agent.prompt_tool_chunks,
    "echo-cwd": Agent.prompt_echo_cwd,
    "attach-folder": Agent.prompt_attach_folder,
}
try:  # run as a script: this folder is on sys.path
    from credential_prompts import PROMPTS as CREDENTIAL_PROMPTS
    from document_prompts import PROMPTS as DOCUMENT_PROMPTS
    from find_prompts import PROMPTS as FIND_PROMPTS
    from markup_prompts import PROMPTS as MARKUP_PROMPTS
    from slow_path_prompts import PROMPTS as SLOW_PATH_PROMPTS
    from stop_prompts import PROMPTS as STOP_PROMPTS
    from user_words_prompts import PROMPTS as USER_WORDS_PROMPTS
except ImportError:  # imported by the tests as a module
    from tests.agents.credential_prompts import PROMPTS as CREDENTIAL_PROMPTS
    from tests.agents.document_prompts import PROMPTS as DOCUMENT_PROMPTS
    from tests.agents.find_prompts import PROMPTS as FIND_PROMPTS
    from tests.agents.markup_prompts import PROMPTS as MARKUP_PROMPTS
    from tests.agents.slow_path_prompts import PROMPTS as SLOW_PATH_PROMPTS
    from tests.agents.stop_prompts import PROMPTS as STOP_PROMPTS
    from tests.agents.user_words_prompts import PROMPTS as USER_WORDS_PROMPTS
PROMPTS.update(MARKUP_PROMPTS)
PROMPTS.update(FIND_PROMPTS)
PROMPTS.update(SLOW_PATH_PROMPTS)
PROMPTS.update(USER_WORDS_PROMPTS)
PROMPTS.update(CREDENTIAL_PROMPTS)
PROMPTS.update(STOP_PROMPTS)
PROMPTS.update(DOCUMENT_PROMPTS)


AUTH_METHODS = {
    "agent": [{"id": "scripted-oauth", "name": "Log in with Scripted", "description": "Opens your browser"}],
    "env": [
        {
            "type": "env_var",
            "id": "scripted-key",
            "name": "Use an API key",
            "description": "From your Scripted account page",
            "vars": [{"name": "SCRIPTED_API_KEY", "label": "API key"}],
        }
    ],
    "claude": [
        {
            "type": "terminal",
            "id": "claude-login",
            "name": "Log in with Claude",
            "description": "Run `claude /login` in the terminal",
            "args": ["--cli"],
        }
    ],
    "terminal": [
        {
            "type": "terminal",
            "id": "scripted-login",
            "name": "Log in in a terminal",
            "description": "Runs the Scripted login",
            "args": ["--login"],
            "env": {"SCRIPTED_LOGIN_MODE": "device"},
        }
    ],
}
LOGIN_CODE = "2468"


def signed_in(agent: Agent) -> bool:
    mode = FLAGS.get("auth")
    if mode == "agent":
        return agent.authenticated
    if mode == "env":
        return os.environ.get("SCRIPTED_API_KEY") == "sk-scripted"
    if mode == "terminal":
        return os.path.exists(os.environ.get("SCRIPTED_AUTH_FILE", "/nonexistent"))
    return mode not in ("claude", "words")


def login() -> int:
    """`--login`: the agent's own login command, run by the client on a terminal."""
    mode = os.environ.get("SCRIPTED_LOGIN_MODE", "?")
    print(f"Scripted login ({mode} mode)", flush=True)
    code = input("Enter the code 2468 to sign in: ").strip()
    if code != LOGIN_CODE:
        print("\x1b[31mWrong code.\x1b[0m", flush=True)
        return 3
    with open(os.environ["SCRIPTED_AUTH_FILE"], "w") as token:
        token.write("token\n")
    print("\x1b[32mSigned in.\x1b[0m", flush=True)
    return 0


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    agent = Agent()
    if "banner" in FLAGS:
        agent.raw("Welcome to the scripted agent v1 (this banner is not JSON)")
        agent.raw("")
    tasks: set[asyncio.Task[None]] = set()
    while True:
        line = await reader.readline()
        if not line:
            break
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        task = loop.create_task(agent.handle(msg))
        tasks.add(task)
        task.add_done_callback(tasks.discard)


if __name__ == "__main__":
    if "login" in FLAGS:
        sys.exit(login())
    asyncio.run(main())

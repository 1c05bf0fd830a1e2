"""A scripted ACP agent for integration tests: raw JSON-RPC over real stdio, standard library only,
so it can also misbehave in ways an SDK would not allow.

Start-up flags: --no-init (never answers initialize), --exit-in-init=CODE, --init-delay=S, --banner
(non-JSON lines on stdout first), --name=NAME (agentInfo.name), --caps=JSON (agentCapabilities),
--fail-new=N (the first N session/new requests fail), --hang-new=N (the first N are never answered),
--no-info (no agentInfo), --ids=PREFIX (session ids PREFIX-N instead of acp-N), --think (a boolean
config option, "Think harder").
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
Prompts are steered by their first word: the scripts live beside this file, one module per kind of
script (`PROMPT_MODULES`: ordinary turns, terminals, terminal output, hostile input, files, ...).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
from typing import Any

FLAGS: dict[str, str] = {}
for arg in sys.argv[1:]:
    name, _, value = arg.lstrip("-").partition("=")
    FLAGS[name] = value


DEFAULT_CAPS = {
    "loadSession": True,
    "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
    "sessionCapabilities": {"list": {}, "resume": {}, "close": {}, "delete": {}, "fork": {}},
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
        if not signed_in(FLAGS.get("auth"), self.authenticated):
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
        sid = f"{FLAGS.get('ids') or 'acp'}-{self.counter}"  # --ids=PREFIX: ids unlike another agent's
        self.sessions[sid] = {"cwd": params.get("cwd"), "meta": params.get("_meta")}
        self.update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": COMMANDS})
        self.respond(msg_id, {"sessionId": sid, "modes": MODES, "configOptions": session_options(FLAGS)})

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
            replay_big(self, sid, int(sid.split("-")[1]))  # big-N, or big-N-name for another such chat
            self.sessions[sid] = {"cwd": params.get("cwd")}
            self.respond(msg_id, {})
            return
        self.chunk(sid, "a1")
        self.update(sid, {"sessionUpdate": "brand_new_kind", "payload": 1})
        self.sessions[sid] = {**self.sessions.get(sid, {}), "cwd": params.get("cwd")}  # what it was told
        self.respond(msg_id, {})

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
        said = f"{params.get('configId')}={params.get('value')} {params.get('type')}"
        sys.stderr.write(f"set_config_option {said}\n")
        sys.stderr.flush()
        if params.get("configId") == "think":  # --think's switch: a boolean, said with its type
            self.respond(msg_id, {"configOptions": session_options(FLAGS, think=params.get("value") is True)})
            return
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
        self.sessions.setdefault(sid, {}).setdefault("said", []).append(text)  # what a fork carries
        self.cancelled.discard(sid)
        if word == "fail":
            self.error(msg_id, -32603, "Internal error: the model provider is unreachable")
            return
        handler = PROMPTS.get(word, PROMPTS["hello"])
        try:
            stop = await handler(self, sid, params, text)
        except PromptFailed as exc:  # a script that fails after it has begun to answer
            self.error(msg_id, -32603, str(exc))
            return
        usage = self.__dict__.pop("next_usage", None)  # a script's token count for this turn
        self.respond(msg_id, {"stopReason": stop, **({"usage": usage} if usage else {})})

    # --- prompt scripts ----------------------------------------------------------------------------
    async def wait_unless_cancelled(self, sid: str, seconds: float) -> bool:
        """Wait `seconds`; False as soon as the turn is cancelled."""
        for _ in range(max(1, round(seconds / 0.05))):
            if sid in self.cancelled:
                return False
            await asyncio.sleep(0.05)  # the poll's interval
        return True

    def tool_update(self, sid: str, tool_id: str, **fields: Any) -> None:
        self.update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": tool_id, **fields})

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


# the prompt scripts, by what they script (each module's PROMPTS: first word -> script)
PROMPT_MODULES = (
    "turn_prompts",
    "terminal_prompts",
    "terminal_output_prompts",
    "hostile_prompts",
    "file_prompts",
    "markup_prompts",
    "find_prompts",
    "slow_path_prompts",
    "user_words_prompts",
    "credential_prompts",
    "stop_prompts",
    "document_prompts",
    "branch_prompts",
    "protocol_prompts",
    "question_prompts",
    "rule_prompts",
)


def _sibling(name: str) -> Any:
    try:  # run as a script: this folder is on sys.path
        return importlib.import_module(name)
    except ImportError:  # imported by the tests as a module
        return importlib.import_module(f"tests.agents.{name}")


PROMPTS: dict[str, Any] = {}
for _module in PROMPT_MODULES:
    PROMPTS.update(_sibling(_module).PROMPTS)
    for _method, _handler in getattr(_sibling(_module), "HANDLERS", {}).items():  # requests they answer
        setattr(Agent, "on_" + _method.replace("/", "_"), _handler)
_options = _sibling("scripted_options")
COMMANDS, MODES, model_option = _options.COMMANDS, _options.MODES, _options.model_option
session_options = _options.session_options
PromptFailed = _sibling("turn_prompts").PromptFailed
_sign_in = _sibling("scripted_sign_in")
AUTH_METHODS, login, signed_in = _sign_in.AUTH_METHODS, _sign_in.login, _sign_in.signed_in
replay_big = _sibling("scripted_history").replay_big


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

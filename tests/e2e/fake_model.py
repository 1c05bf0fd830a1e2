"""A fake OpenAI-compatible chat-completions server (SSE streaming) on loopback, for OpenClaw's real
gateway to call offline. The only fake in the e2e suite: no test can reach a real LLM. Scripted by the
user's text (the message before OpenClaw's trailing context block):

- contains "think": reasoning deltas, then text;
- contains "read file": a `read` tool call, then (after the tool result) text with a `MEDIA:` line;
- contains "write media": a `write` tool call (`media_path`, `media_text`), then text whose middle line is
  `MEDIA: <media_path>` (OpenClaw strips it from the stream and keeps it in its transcript);
- contains "media only": the same `write` tool call, then a reply that is only the `MEDIA:` line (OpenClaw
  strips it: the turn has no assistant text at all);
- contains "slow": 200 chunks 50 ms apart (for cancel);
- contains "run command": an `exec` tool call (the gateway asks for approval), then text;
- contains "run shell: COMMAND": an `exec` tool call of COMMAND (the rest of that line, as written), then
  "The shell command ran.";
- the heartbeat sentinel: "HEARTBEAT_OK";
- contains "propose COMMAND": an `exec` tool call running the proposal command ClawQt's hidden context
  gives (its executable and channel, the payload proposing COMMAND for the user's terminal) with the
  `yieldMs` it asks for ("propose yieldMs=N COMMAND" asks another), the way a model follows that text;
  after the result, a reply quoting what the command printed. Without the hidden context's command, a
  reply says so;
- contains "terminal read [ID]" or "terminal type ID TEXT" (ClawQt's terminal tools, an MCP server
  configured on the gateway): a call to the tool whose name ends with `read_terminal` (terminal ID, else
  the first snapshot's) or `send_terminal_input` (TEXT + Enter), with the `contextToken` read from
  ClawQt's hidden context at the end of the user's message; after the tool result, text that quotes the
  tool's answer in it. The tool is called directly when the request offers it, else through OpenClaw's
  Tool Search (`tool_search`, then `tool_call` with the id found: the gateway's default surface for MCP
  tools). When neither finds it, or there is no contextToken, a reply says so (naming the tools offered
  or what the search answered) instead;
- contains "draw": an `image_generate` tool call (OpenClaw's image tool; the image comes from this
  server's `/images/generations`, a 120 x 80 PNG, when the gateway is configured with it as an image
  provider), then "I started drawing it." after the tool's result;
- OpenClaw's background-task completion (its "[Internal task completion event]" context): a reply
  delivering the generated files, one `MEDIA:` line each, as the event asks;
- anything else: "Hello from the fake model." streamed in pieces.
Only the user's own words script a reply: ClawQt's hidden block (terminal snapshots) never does.
Every request is appended to `requests` so tests can see what the gateway sent; each terminal tool
result the model quoted is appended to `tool_results` (`name` and `arguments` of the call, `content`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from app.contract.hidden_context import OPEN as HIDDEN_OPEN
from app.demo_agent.proposal_command import proposal_template
from tests.e2e.fake_images import catalog_id, completion_reply, draw_step, images_answer, is_completion
from tests.e2e.fake_model_requests import (
    CONTEXT_TOKEN,
    INPUT_TOOL,
    READ_TOOL,
    SNAPSHOT_ID,
    YIELD_HINT,
    current_turn,
    offered_tools,
    tool_answer,
    turn_tool_results,
)


class FakeModel:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.tool_results: list[dict[str, str]] = []  # what the terminal tools answered the model
        self.proposal_results: list[dict[str, Any]] = []  # what the proposal command's exec answered
        self._call_ids = itertools.count(1)
        self.read_path = "notes.txt"  # what the `read` tool call asks for (tests point it at a real file)
        self.media_path = "report.txt"  # what "write media" writes and names in its MEDIA line
        self.media_text = "quarterly numbers\n"
        self.image_requests: list[dict[str, Any]] = []  # what the gateway asked /images/generations
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True, name="fake-model")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeModel:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                body = json.dumps(
                    {"object": "list", "data": [{"id": "fake-model", "object": "model"}]}
                ).encode()
                self._send_json(body)

            def _send_json(self, body: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    request = {}
                if self.path.rstrip("/").endswith("/images/generations"):
                    model.image_requests.append(request)
                    self._send_json(images_answer(request))
                    return
                model.requests.append(request)
                messages = request.get("messages") or []
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    model.respond(self, messages, offered_tools(request))
                self.close_connection = True

        return Handler

    # --- scripted replies ------------------------------------------------------------------------
    def respond(
        self, handler: BaseHTTPRequestHandler, messages: list[dict[str, Any]], tools: list[str] | None = None
    ) -> None:
        current, done_tool = current_turn(messages)
        text = current.split(HIDDEN_OPEN)[0].lower()  # the user's words, not ClawQt's hidden block
        if is_completion(text, messages):
            self._stream_text(handler, completion_reply(messages, current))
        elif "[openclaw heartbeat poll]" in text and "say hello" not in text:
            self._stream_text(handler, ["HEARTBEAT_OK"])
        elif "propose " in text:
            self._propose_turn(handler, messages, current)
        elif "terminal read" in text or "terminal type" in text:
            self._terminal_turn(handler, messages, current, tools or [])
        elif "draw" in text:
            self._draw_turn(handler, messages, tools or [])
        elif "read file" in text and not done_tool:
            self._tool_call(handler, "read", {"path": self.read_path})
        elif "read file" in text:
            self._stream_text(handler, ["I read it.\n", "MEDIA: ./chart.png\n", "That was the chart."])
        elif "write media" in text and not done_tool:
            self._tool_call(handler, "write", {"path": self.media_path, "content": self.media_text})
        elif "write media" in text:
            self._stream_text(handler, ["Wrote it.\n", f"MEDIA: {self.media_path}\n", "Have a look."])
        elif "media only" in text and not done_tool:
            self._tool_call(handler, "write", {"path": self.media_path, "content": self.media_text})
        elif "media only" in text:
            self._stream_text(handler, [f"MEDIA: {self.media_path}\n"])
        elif "run shell:" in text and not done_tool:  # the command as the user wrote it, after the colon
            command = current.split(HIDDEN_OPEN)[0].split("run shell:", 1)[1].strip().splitlines()[0]
            self._tool_call(handler, "exec", {"command": command})
        elif "run shell:" in text:
            self._stream_text(handler, ["The shell command ran."])
        elif "run command" in text and not done_tool:
            self._tool_call(handler, "exec", {"command": "echo approved-run"})
        elif "run command" in text:
            self._stream_text(handler, ["The command finished."])
        elif "think" in text:
            self._stream(
                handler,
                [
                    {"reasoning_content": "Let me think "},
                    {"reasoning_content": "about it."},
                    {"content": "Thought done, "},
                    {"content": "here is the answer."},
                ],
            )
        elif "slow" in text:
            self._stream_text(handler, [f"slow-{i} " for i in range(200)], delay=0.05)
        else:
            self._stream_text(handler, ["Hello ", "from the ", "fake model."])

    def _terminal_turn(
        self,
        handler: BaseHTTPRequestHandler,
        messages: list[dict[str, Any]],
        current: str,
        tools: list[str],
    ) -> None:
        """One call to ClawQt's read or input tool with the capability from the hidden context, then a
        reply quoting what the tool answered. The tool is called directly when the gateway offered it
        (a name ending with its MCP name), else through OpenClaw's Tool Search (`tool_search`, then
        `tool_call` with the id found): the gateway's default surface for MCP tools."""
        words = current.split(HIDDEN_OPEN)[0]
        typing = re.search(r"terminal type (\S+) (.+)", words, re.IGNORECASE)
        suffix = INPUT_TOOL if typing else READ_TOOL
        results = turn_tool_results(messages)
        if results and results[-1]["name"] != "tool_search":
            result = results[-1]
            self.tool_results.append(result)
            answer = tool_answer(result["content"])
            self._stream_text(handler, [f"The tool {result['name']} answered:\n\n```json\n", answer, "\n```"])
            return
        token = CONTEXT_TOKEN.search(current)
        if token is None:
            self._stream_text(handler, ["No contextToken in the message: no ClawQt hidden context."])
            return
        arguments: dict[str, Any] = {"contextToken": token.group(1)}
        if typing:
            arguments["terminalId"] = typing.group(1)
            arguments["text"] = typing.group(2).strip() + "\r"
        else:
            named = re.search(r"terminal read (t\d+)", words, re.IGNORECASE)
            snapshot = SNAPSHOT_ID.search(current)
            if named or snapshot:
                arguments["terminalId"] = (named or snapshot).group(1)  # type: ignore[union-attr]
        direct = next((tool for tool in tools if tool.endswith(suffix)), None)
        call_id = f"call_terminal_{next(self._call_ids)}"
        if direct is not None:
            self._tool_call(handler, direct, arguments, call_id)
        elif results:  # the search answered: call what it found
            found = catalog_id(results[-1]["content"], suffix)
            if found is None:
                answer = results[-1]["content"][:2000]
                self._stream_text(handler, [f"Tool Search found no tool ending with {suffix}: {answer}"])
            else:
                self._tool_call(handler, "tool_call", {"id": found, "args": arguments}, call_id)
        elif "tool_search" in tools and "tool_call" in tools:
            query = "send input text to terminal" if typing else "read terminal output"
            self._tool_call(handler, "tool_search", {"query": query}, call_id)
        else:
            offered = ", ".join(tools) or "none"
            self._stream_text(handler, [f"No tool ending with {suffix} was offered (tools: {offered})."])

    def _draw_turn(
        self, handler: BaseHTTPRequestHandler, messages: list[dict[str, Any]], tools: list[str]
    ) -> None:
        """`image_generate` (directly when offered, else found through Tool Search), then a reply."""
        results = turn_tool_results(messages)
        if results and results[-1]["name"] != "tool_search":
            self.tool_results.append(results[-1])
        name, arguments, text = draw_step(results, tools)
        if name:
            self._tool_call(handler, name, arguments, f"call_draw_{next(self._call_ids)}")
        else:
            self._stream_text(handler, [text])

    def _propose_turn(
        self, handler: BaseHTTPRequestHandler, messages: list[dict[str, Any]], current: str
    ) -> None:
        """The proposal command of the hidden context run through OpenClaw's `exec` (which asks the
        client's approval first), with the wait the hidden context asks for (`yieldMs N`; the user's
        words may set another: "propose yieldMs=N COMMAND"), then a reply quoting what it printed."""
        results = turn_tool_results(messages)
        if results and results[-1]["name"] == "exec":
            self.proposal_results.append(results[-1])
            quoted = ["The proposal command printed:\n\n```\n", results[-1]["content"], "\n```"]
            self._stream_text(handler, quoted)
            return
        words = current.split(HIDDEN_OPEN)[0]
        asked = re.search(r"propose (?:yieldMs=(\d+) )?(.+)", words, re.IGNORECASE | re.DOTALL)
        hidden = current[max(current.find(HIDDEN_OPEN), 0) :]
        template = proposal_template(current)  # read the way the demo agent reads it
        if asked is None or template is None:
            self._stream_text(handler, ["No proposal command in the message: no ClawQt hidden context."])
            return
        action = {"type": "send", "input": asked.group(2).strip()}
        choice = {"choice": 1, "title": "Run it", "rationale": "Runs it where you work.", "actions": [action]}
        payload = {
            "schema_version": 1,
            "origin": "terminal_agent",
            "recommended_choice": 1,
            "choices": [choice],
        }
        arguments: dict[str, Any] = {"command": template.command(payload)}
        wait = asked.group(1) or (YIELD_HINT.search(hidden) or [None, None])[1]
        if wait:
            arguments["yieldMs"] = int(wait)
        self._tool_call(handler, "exec", arguments, f"call_propose_{next(self._call_ids)}")

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": "fake-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(payload)}\n\n".encode()

    def _stream(
        self, handler: BaseHTTPRequestHandler, deltas: list[dict[str, Any]], delay: float = 0.01
    ) -> None:
        handler.wfile.write(self._chunk({"role": "assistant", "content": ""}))
        for delta in deltas:
            handler.wfile.write(self._chunk(delta))
            handler.wfile.flush()
            time.sleep(delay)  # the model's pace the test asked for
        handler.wfile.write(self._chunk({}, "stop"))
        usage = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "choices": [],
            "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19},
        }
        handler.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())
        handler.wfile.flush()

    def _stream_text(self, handler: BaseHTTPRequestHandler, pieces: list[str], delay: float = 0.01) -> None:
        self._stream(handler, [{"content": piece} for piece in pieces], delay)

    def _tool_call(
        self,
        handler: BaseHTTPRequestHandler,
        name: str,
        arguments: dict[str, Any],
        call_id: str | None = None,
    ) -> None:
        handler.wfile.write(self._chunk({"role": "assistant", "content": None}))
        call = {
            "index": 0,
            "id": call_id or f"call_{name}_1",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        handler.wfile.write(self._chunk({"tool_calls": [call]}))
        handler.wfile.write(self._chunk({}, "tool_calls"))
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()

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
- the heartbeat sentinel: "HEARTBEAT_OK";
- anything else: "Hello from the fake model." streamed in pieces.
Every request is appended to `requests` so tests can see what the gateway sent.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def current_turn(messages: list[dict[str, Any]]) -> tuple[str, bool]:
    """(the user's text of the current turn, whether a tool result followed it). OpenClaw appends an
    internal context block as the last user message; the user's turn is the one before it."""
    index = None
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user" and INTERNAL not in _text(messages[i]):
            index = i
            break
    if index is None:
        return "", False
    tool_after = any(m.get("role") == "tool" for m in messages[index + 1 :])
    return _text(messages[index]), tool_after


class FakeModel:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.read_path = "notes.txt"  # what the `read` tool call asks for (tests point it at a real file)
        self.media_path = "report.txt"  # what "write media" writes and names in its MEDIA line
        self.media_text = "quarterly numbers\n"
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
                model.requests.append(request)
                messages = request.get("messages") or []
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    model.respond(self, messages)
                self.close_connection = True

        return Handler

    # --- scripted replies ------------------------------------------------------------------------
    def respond(self, handler: BaseHTTPRequestHandler, messages: list[dict[str, Any]]) -> None:
        current, done_tool = current_turn(messages)
        text = current.lower()
        if "[openclaw heartbeat poll]" in text and "say hello" not in text:
            self._stream_text(handler, ["HEARTBEAT_OK"])
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
            time.sleep(delay)
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

    def _tool_call(self, handler: BaseHTTPRequestHandler, name: str, arguments: dict[str, Any]) -> None:
        handler.wfile.write(self._chunk({"role": "assistant", "content": None}))
        call = {
            "index": 0,
            "id": f"call_{name}_1",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        handler.wfile.write(self._chunk({"tool_calls": [call]}))
        handler.wfile.write(self._chunk({}, "tool_calls"))
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()

"""A small MCP server over stdio (newline-delimited JSON-RPC), for the user's-MCP-servers tests: one
tool, `shout`, that answers its `text` in capitals followed by the value of the SHOUT_SUFFIX environment
variable (a secret the test keeps in the keyring: seeing it proves the environment reached the server).
Each call is also appended to the file named by SHOUT_LOG, when set."""

from __future__ import annotations

import json
import os
import sys

TOOL = {
    "name": "shout",
    "description": "Repeat the text in capitals.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def answer(msg_id: object, result: dict) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, msg_id = msg.get("method"), msg.get("id")
    if msg_id is None:
        continue  # notifications (initialized, cancelled)
    if method == "initialize":
        version = (msg.get("params") or {}).get("protocolVersion", "2025-06-18")
        answer(msg_id, {"protocolVersion": version, "capabilities": {"tools": {}},
                        "serverInfo": {"name": "shouter", "version": "1.0"}})  # fmt: skip
    elif method == "tools/list":
        answer(msg_id, {"tools": [TOOL]})
    elif method == "tools/call":
        text = str(((msg.get("params") or {}).get("arguments") or {}).get("text", ""))
        said = text.upper() + os.environ.get("SHOUT_SUFFIX", "")
        if os.environ.get("SHOUT_LOG"):
            with open(os.environ["SHOUT_LOG"], "a", encoding="utf-8") as log:
                log.write(said + "\n")
        answer(msg_id, {"content": [{"type": "text", "text": said}], "isError": False})
    elif method == "ping":
        answer(msg_id, {})
    else:
        sys.stdout.write(
            json.dumps(
                {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": "no such method"}}
            )
            + "\n"
        )
        sys.stdout.flush()

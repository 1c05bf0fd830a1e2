"""Prompt scripts of the scripted agent that misbehave: garbage and huge lines on stdout, stderr floods, an
exit or closed output mid-turn, escape sequences, hostile JSON-RPC, replies costly to lay out, hostile
diffs, options, bursts, writes and images. Registered in scripted_agent.py's PROMPTS."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
from typing import Any


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
    if case == "links" or case.startswith("links-"):  # `links-N`: N of them
        count = int(case.split("-", 1)[1]) if "-" in case else 50_000
        return " ".join(f"[link {n}](https://example.com/{n})" for n in range(count))
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


async def prompt_garbage(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.raw("this is not json")
    agent.raw("{broken json")
    agent.raw("[1, 2, 3]")
    agent.raw('{"jsonrpc": "2.0", "id": 987654, "result": {}}')
    agent.update(sid, {"sessionUpdate": "future_kind_v9", "whatever": [1, 2]})
    agent.update(
        "nobody-knows-this-session",
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "lost"}},
    )
    agent.send({"jsonrpc": "2.0", "method": "session/update", "params": {"update": {}}})
    agent.chunk(sid, "survived")
    return "end_turn"


async def prompt_bigline(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.raw(b"x" * (20 * 1024 * 1024))
    agent.chunk(sid, "y" * (20 * 1024 * 1024))
    agent.chunk(sid, "after the big line")
    return "end_turn"


async def prompt_stderrflood(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    line = ("E" * 1023 + "\n").encode()
    for _ in range(5 * 1024):
        sys.stderr.buffer.write(line)
    sys.stderr.buffer.flush()
    agent.chunk(sid, "flooded")
    return "end_turn"


async def prompt_exit(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.update(
        sid,
        {"sessionUpdate": "tool_call", "toolCallId": "t-exit", "title": "work", "status": "in_progress"},
    )
    agent.chunk(sid, "about to die")
    sys.stderr.write("segfault-ish: goodbye\n")
    sys.stderr.flush()
    await asyncio.sleep(0.05)  # its last words reach ClawQt before the crash
    os._exit(3)


async def prompt_close_stdout(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Closes its stdout and keeps running: it can never answer again."""
    agent.chunk(sid, "closing my output")
    sys.stdout.flush()
    os.close(1)
    await asyncio.sleep(300)  # alive with its output closed, until it is killed
    return "end_turn"


async def prompt_hostile_lines(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
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
        agent.raw(line)
    await asyncio.sleep(0.05)  # the bad lines are read before the next update
    agent.chunk(sid, "survived")
    return "end_turn"


async def prompt_ansi(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Terminal escapes where no terminal is: in a tool's text output and in the reply."""
    agent.update(
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
    agent.chunk(sid, "The run said \x1b[31mFAILED\x1b[0m for \x1b]8;;file:///t.py\x1b\\t.py\x1b]8;;\x1b\\.")
    return "end_turn"


async def prompt_rpc_hostile(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`rpc-hostile`: requests ClawQt cannot answer as asked (unknown and extension methods, params
    that are no object, fields of the wrong type or missing), an unknown notification, then a good
    read; reports each answer's error (or result) as a JSON list."""
    path = agent.session_path(sid, "notes.txt")
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
    agent.send({"jsonrpc": "2.0", "method": "no/such_notification", "params": {"sessionId": sid}})
    answers = []
    for method, request in asks:
        response = await agent.request_raw(method, request)
        answers.append({"method": method, "result": response.get("result"), "error": response.get("error")})
    good = await agent.request_raw("fs/read_text_file", {"sessionId": sid, "path": path})
    answers.append({"method": "fs/read_text_file", "result": good.get("result"), "error": good.get("error")})
    agent.chunk(sid, json.dumps(answers))
    return "end_turn"


async def prompt_hostile_render(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-render CASE [CHUNK]`: one reply that is costly to lay out (`hostile_text`), in one
    chunk or in chunks of CHUNK characters."""
    words = text.split()
    body = hostile_text(words[1] if len(words) > 1 else "unbroken-10")
    size = int(words[2]) if len(words) > 2 else len(body)
    for start in range(0, len(body), size):
        agent.chunk(sid, body[start : start + size])
    return "end_turn"


async def prompt_hostile_diff(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-diff [LINES]`: an edit whose diff content rewrites every line of a LINES-line file."""
    words = text.split()
    lines = int(words[1]) if len(words) > 1 else 60_000
    old = "".join(f"value_{n} = compute({n})\n" for n in range(lines))
    new = "".join(f"value_{n} = calculate({n}, cache=True)\n" for n in range(lines))
    content = [{"type": "diff", "path": "/work/big.py", "oldText": old, "newText": new}]
    agent.update(
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
    agent.chunk(sid, "Rewrote big.py.")
    return "end_turn"


async def prompt_hostile_options(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-options [N]`: a permission request with N options (answered by the test)."""
    words = text.split()
    count = int(words[1]) if len(words) > 1 else 10_000
    options = [
        {"optionId": f"o{n}", "name": f"Option {n} " + "x" * 40, "kind": "allow_once"} for n in range(count)
    ]
    options.append({"optionId": "deny", "name": "Deny", "kind": "reject_once"})
    call = {"toolCallId": "t-options", "title": "many options", "kind": "execute"}
    answer = await agent.request(
        "session/request_permission", {"sessionId": sid, "toolCall": call, "options": options}
    )
    agent.chunk(sid, f"answered: {json.dumps((answer or {}).get('outcome'))}")
    return "end_turn"


async def prompt_hostile_parked(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-parked [IDS] [KB]`: terminal output (KB each) for IDS terminal ids no tool names."""
    words = text.split()
    ids = int(words[1]) if len(words) > 1 else 200
    size = int(words[2]) if len(words) > 2 else 2048
    agent.update(sid, {"sessionUpdate": "tool_call", "toolCallId": "t-park", "title": "park"})
    piece = ("parked output " * 74 + "\n")[:1024] * 64
    for n in range(ids):
        for _ in range(size // 64):
            meta = {"terminal_output_delta": {"terminal_id": f"T-nobody-{n}", "data": piece}}
            agent.tool_update(sid, "t-park", _meta=meta)
    agent.chunk(sid, "parked")
    return "end_turn"


async def prompt_hostile_burst(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-burst [N] [unbroken]`: N tiny agent_message_chunk updates, as fast as the pipe takes
    them: a word each and a paragraph every 100 (or, with `unbroken`, one digit each: one endless
    line, which is costly to lay out rather than to deliver)."""
    words = text.split()
    count = int(words[1]) if len(words) > 1 else 100_000
    unbroken = "unbroken" in words[2:]
    for n in range(count):
        if unbroken:
            agent.chunk(sid, f"{n % 10}")
        else:
            agent.chunk(sid, f"w{n % 10}" + ("\n\n" if n % 100 == 99 else " "))
    return "end_turn"


async def prompt_hostile_write(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-write [LINES]`: big.py (LINES lines) is on disk before the turn; the agent rewrites
    every line of it through fs/write_text_file."""
    words = text.split()
    lines = int(words[1]) if len(words) > 1 else 60_000
    path = agent.session_path(sid, "big.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(f"value_{n} = compute({n})\n" for n in range(lines)))
    new = "".join(f"value_{n} = calculate({n}, cache=True)\n" for n in range(lines))
    await agent.fs_write(sid, "big.py", new)
    return "end_turn"


async def prompt_hostile_images(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`hostile-images [N] [SIDE]`: N distinct inline PNG images of SIDE x SIDE pixels."""
    import struct
    import zlib

    words = text.split()
    count = int(words[1]) if len(words) > 1 else 40
    side = int(words[2]) if len(words) > 2 else 2048
    agent.chunk(sid, "Pictures:")
    for n in range(count):
        row = b"\x00" + bytes((n * 7 + x) % 256 for x in range(side * 3))
        raw = zlib.compress(row * side, 1)

        def part(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        png = b"\x89PNG\r\n\x1a\n" + part(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
        png += part(b"IDAT", raw) + part(b"IEND", b"")
        block = {"type": "image", "data": base64.b64encode(png).decode(), "mimeType": "image/png"}
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
    return "end_turn"


PROMPTS = {
    "garbage": prompt_garbage,
    "bigline": prompt_bigline,
    "stderrflood": prompt_stderrflood,
    "exit": prompt_exit,
    "ansi": prompt_ansi,
    "hostile-lines": prompt_hostile_lines,
    "close-stdout": prompt_close_stdout,
    "rpc-hostile": prompt_rpc_hostile,
    "hostile-render": prompt_hostile_render,
    "hostile-diff": prompt_hostile_diff,
    "hostile-options": prompt_hostile_options,
    "hostile-parked": prompt_hostile_parked,
    "hostile-images": prompt_hostile_images,
    "hostile-burst": prompt_hostile_burst,
    "hostile-write": prompt_hostile_write,
}

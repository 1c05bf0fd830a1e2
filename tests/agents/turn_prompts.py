"""Prompt scripts of the scripted agent for ordinary turns: a reply, the prompt's `_meta` and cwd echoed,
a permission asked (now or later), a proposal, a silent or slow turn, a paced stream, a turn that ends
without a reply or fails after a while, tool groups and tool chunks, updates of another session.
Registered in scripted_agent.py's PROMPTS."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any


class PromptFailed(Exception):
    """Raised by a prompt script: the prompt is answered with a JSON-RPC error carrying this message."""


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


def paced_chunks(text: str) -> Iterator[tuple[str, int]]:
    """`text` in chunks of 5-20 characters, the same sizes every run, each with the characters sent
    once it is (the schedule `paced` keeps, and the benchmark's bare window follows)."""
    sent, state = 0, 1
    while sent < len(text):
        state = (state * 1_103_515_245 + 12_345) % 2**31
        size = 5 + (state >> 16) % 16
        sent += size
        yield text[sent - size : sent], sent


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


async def prompt_hello(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.chunk(sid, "Hello")
    agent.chunk(sid, " world")
    return "end_turn"


async def prompt_echo_meta(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.chunk(sid, json.dumps({"meta": params.get("_meta"), "prompt": params.get("prompt")}))
    return "end_turn"


async def prompt_permission(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-perm",
            "title": "rm -rf build",
            "kind": "execute",
            "status": "pending",
        },
    )
    outcome = await agent.ask_permission(sid, "t-perm")
    status = "completed" if outcome == "allow" else "failed"
    agent.update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": "t-perm", "status": status})
    agent.chunk(sid, f"outcome: {outcome}")
    return "cancelled" if sid in agent.cancelled else "end_turn"


async def prompt_propose(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
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
    agent.update(sid, call)
    agent.update(sid, done)
    agent.proposed[sid] = [call, done]
    agent.chunk(sid, "I proposed two ways on; pick one on the card.")
    if "hold" in words:
        return await prompt_silent(agent, sid, params, text)
    return "end_turn"


async def prompt_silent(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Says nothing until cancelled (Stop before any reply)."""
    for _ in range(600):
        if sid in agent.cancelled:
            return "cancelled"
        await asyncio.sleep(0.05)  # the poll's interval
    return "end_turn"


async def prompt_slow(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t-slow",
            "title": "long job",
            "status": "in_progress",
        },
    )
    for i in range(500):
        if sid in agent.cancelled:
            return "cancelled"
        agent.chunk(sid, f"tick {i} ")
        await asyncio.sleep(0.02)  # the agent's pace
    return "end_turn"


async def prompt_other(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Streams 30 chunks slowly (for switching away and back during a live prompt)."""
    for i in range(30):
        agent.chunk(sid, f"bg{i} ")
        await asyncio.sleep(0.03)  # the agent's pace
    return "end_turn"


async def prompt_blast(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`blast N`: N agent_message_chunk updates as fast as the pipe takes them (benchmarks)."""
    count = int(text.split()[1]) if len(text.split()) > 1 else 10_000
    piece = "lorem ipsum dolor sit amet " * 7
    for i in range(count):
        agent.chunk(sid, f"{i}:{piece}")
    return "end_turn"


async def prompt_paced(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`paced [CHARS_PER_S] [CHARS]`: a Markdown reply (headings, lists, a 40-line code block, a table)
    of about CHARS characters (default 20,000) in chunks of 5-20 characters at CHARS_PER_S (default
    1,000), like a real model's pace; the schedule is kept against the start, never drifting."""
    words = text.split()
    rate = float(words[1]) if len(words) > 1 else 1_000.0
    reply = paced_markdown(int(words[2]) if len(words) > 2 else 20_000)
    loop = asyncio.get_running_loop()
    started = loop.time()
    for chunk, sent in paced_chunks(reply):
        if sid in agent.cancelled:
            return "cancelled"
        agent.chunk(sid, chunk)
        delay = started + sent / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)  # the pause the prompt asked for
    return "end_turn"


async def prompt_noreply(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Like OpenClaw without a model: the turn ends with nothing said."""
    return "end_turn"


async def prompt_permission_later(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`permission-later [S]`: says it starts, waits S seconds (default 1.5), then asks permission
    like `permission` (for asking while the user is in another chat)."""
    words = text.split()
    agent.chunk(sid, "Starting; I will need your approval. ")
    if not await agent.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 1.5):
        return "cancelled"
    return await prompt_permission(agent, sid, params, text)


async def prompt_fail_later(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`fail-later [S]`: starts to answer, waits S seconds (default 1.5), then the prompt fails."""
    words = text.split()
    agent.chunk(sid, "Working on it")
    await agent.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 1.5)
    raise PromptFailed("Internal error: the model provider went away mid-reply")


async def prompt_meta(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    agent.update(
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


async def prompt_tool_group_wait(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`tool-group-wait [S]`: two tool calls finish at once, then the turn goes on S seconds
    (default 2) before the reply: the group must stay open until the turn ends."""
    words = text.split()
    for n in (1, 2):
        tool_id = f"t-wait-{n}"
        agent.update(
            sid,
            {"sessionUpdate": "tool_call", "toolCallId": tool_id, "title": f"step {n}", "kind": "read"},
        )
        agent.tool_update(sid, tool_id, status="completed")
    await agent.wait_unless_cancelled(sid, float(words[1]) if len(words) > 1 else 2.0)
    agent.chunk(sid, "Both steps done.")
    return "end_turn"


async def prompt_tool_chunks(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`tool-chunks`: a tool's content arrives item by item (`tool_call_content_chunk`, one of them
    not an object), then the call fails with the agent's `error` field."""
    agent.update(sid, {"sessionUpdate": "tool_call", "toolCallId": "t-chunks", "title": "fetch docs"})
    chunk = {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "t-chunks"}
    for piece in ("first page", "second page"):
        text_block = {"type": "text", "text": piece}
        agent.update(sid, {**chunk, "content": {"type": "content", "content": text_block}})
    agent.update(sid, {**chunk, "content": 7})
    agent.tool_update(sid, "t-chunks", status="failed", error="Rate limited by the docs server")
    return "end_turn"


async def prompt_tool_details(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`tool-details`: a fetch whose input has fields (one nested) and whose output is Markdown with a
    fenced block, and a read whose file text looks like Markdown (it stays as written)."""
    fields = {"url": "https://docs.example/api", "format": "markdown", "headers": {"Accept": "text/markdown"}}
    page = "## The API\n\nCall **hello** first:\n\n```python\nclient.hello()\n```\n"
    calls = (
        ("t-fetch", "Fetch the API page", "fetch", fields, page, "Read it."),
        ("t-read", "Read setup.py", "read", {"path": "setup.py"}, "# not a heading\nx = 1", "Done."),
    )
    for tool_id, title, kind, raw, output, words in calls:
        content = [{"type": "content", "content": {"type": "text", "text": output}}]
        call = {"toolCallId": tool_id, "title": title, "kind": kind, "rawInput": raw, "content": content}
        agent.update(sid, {"sessionUpdate": "tool_call", "status": "completed", **call})
        agent.chunk(sid, words)
    return "end_turn"


async def prompt_echo_cwd(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`echo-cwd`: echoes the prompt as OpenClaw replays it, behind its `[Working directory: <cwd>]`
    prefix (the prefix again inside the text, which stays), then answers."""
    cwd = agent.sessions.get(sid, {}).get("cwd") or "/work"
    echoed = f"[Working directory: {cwd}]\n\n{text}\n[Working directory: kept]\n\nend"
    agent.update(sid, {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": echoed}})
    agent.chunk(sid, "Echoed.")
    return "end_turn"


PROMPTS = {
    "hello": prompt_hello,
    "echo-meta": prompt_echo_meta,
    "permission": prompt_permission,
    "slow": prompt_slow,
    "silent": prompt_silent,
    "propose": prompt_propose,
    "background": prompt_other,
    "meta": prompt_meta,
    "blast": prompt_blast,
    "paced": prompt_paced,
    "noreply": prompt_noreply,
    "permission-later": prompt_permission_later,
    "fail-later": prompt_fail_later,
    "tool-group-wait": prompt_tool_group_wait,
    "tool-chunks": prompt_tool_chunks,
    "tool-details": prompt_tool_details,
    "echo-cwd": prompt_echo_cwd,
}

"""Prompt scripts of the scripted agent about files: `fs/*` reads and writes (inside and outside the
workspace), edits with diffs, the attachments and images a prompt carried, media in a reply.
Registered in scripted_agent.py's PROMPTS."""

from __future__ import annotations

import asyncio
import os
from typing import Any


async def prompt_fs_read(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`fs-read <relative> [line] [limit]`: reports {"result": ..., "error": ...} as JSON."""
    words = text.split()
    await agent.fs_read(sid, words[1] if len(words) > 1 else "notes.txt", *words[2:4])
    return "end_turn"


async def prompt_fs_write(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`fs-write <relative> <content>` (a literal \\n in the content is a newline)."""
    words = text.split(" ", 2)
    relative = words[1] if len(words) > 1 else "notes.txt"
    content = (words[2] if len(words) > 2 else "").replace("\\n", "\n")
    await agent.fs_write(sid, relative, content)
    return "end_turn"


async def prompt_fs_read_outside(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`fs-read-outside [name]`: reads `<cwd>/../<name>` (default outside.txt)."""
    words = text.split()
    await agent.fs_read(sid, os.path.join("..", words[1] if len(words) > 1 else "outside.txt"))
    return "end_turn"


async def prompt_fs_write_outside(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`fs-write-outside [name]`: writes `<cwd>/../<name>` (default outside.txt)."""
    words = text.split()
    name = words[1] if len(words) > 1 else "outside.txt"
    await agent.fs_write(sid, os.path.join("..", name), "written by the agent\n")
    return "end_turn"


async def prompt_attach_mix(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Prose, then resource links: four workspace files, a missing one, a `javascript:` reference
    and a web page (attachment cards in every state)."""
    agent.chunk(sid, "Here are the files.")
    references = [
        *(agent.session_path(sid, name) for name in ("notes.md", "pic.png", "data.csv", "archive.zip")),
        agent.session_path(sid, "missing.txt"),
        "javascript:alert(1)",
        "https://example.com/page",
    ]
    for uri in references:
        name = uri.rstrip("/").rsplit("/", 1)[-1]
        link = {"type": "resource_link", "uri": uri, "name": name}
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
    return "end_turn"


async def prompt_images_inline(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """Prose with inline image blocks: embedded data (a 2x2 PNG), a workspace file by file:// URI,
    and a remote URL (which a client must not fetch by itself)."""
    png = (
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAA"
        "AABJRU5ErkJggg=="
    )
    picture = "file://" + agent.session_path(sid, "pic.png")
    agent.chunk(sid, "Three pictures:")
    for block in (
        {"type": "image", "data": png, "mimeType": "image/png"},
        {"type": "image", "uri": picture, "mimeType": "image/png"},
        {"type": "image", "uri": "https://example.com/cat.png", "mimeType": "image/png"},
    ):
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
    return "end_turn"


async def prompt_outside_files(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`outside-files IMAGE`: the image file IMAGE (outside the workspace) as an inline image block
    and as a resource link, the workspace's pic.png as a link too, and an embedded resource whose uri
    names the workspace's notes.md but whose text is the agent's own ("EMBEDDED COPY")."""
    outside = text.split(maxsplit=1)[1]
    agent.chunk(sid, "Files:")
    notes = "file://" + agent.session_path(sid, "notes.md")
    for block in (
        {"type": "image", "uri": "file://" + outside, "mimeType": "image/png"},
        {"type": "resource_link", "uri": outside, "name": "outside.png"},
        {"type": "resource_link", "uri": agent.session_path(sid, "pic.png"), "name": "pic.png"},
        {
            "type": "resource",
            "resource": {"uri": notes, "mimeType": "text/markdown", "text": "# EMBEDDED COPY\n"},
        },
    ):
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": block})
    return "end_turn"


async def prompt_media_mix(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """MEDIA lines (one relative, one inside a fence that must stay prose), a native resource link
    naming the same file as the relative line by its absolute path, and OpenClaw's transcript form
    (`_meta.openclawDelivery.mediaUrls`) for another file."""
    agent.chunk(sid, "Here is the chart.\nMEDIA: chart.png\n```\nMEDIA: /fenced/ignored.png\n```\nDone.")
    chart = agent.session_path(sid, "chart.png")
    agent.update(
        sid,
        {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "resource_link", "uri": "file://" + chart, "name": "chart.png"},
        },
    )
    agent.update(
        sid,
        {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "text", "text": ""},
            "_meta": {"openclawDelivery": {"mediaUrls": [agent.session_path(sid, "report.pdf"), 7]}},
        },
    )
    return "end_turn"


async def prompt_attach_folder(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`attach-folder`: links to a folder it made (`out`), a file in it, and `later.txt`, a file it
    names before it exists (the test writes it afterwards)."""
    os.makedirs(agent.session_path(sid, "out"), exist_ok=True)
    with open(agent.session_path(sid, "out/report.txt"), "w", encoding="utf-8") as handle:
        handle.write("report\n")
    agent.chunk(sid, "The results:")
    for relative in ("out", "out/report.txt", "later.txt"):
        link = {"type": "resource_link", "uri": agent.session_path(sid, relative), "name": relative}
        agent.update(sid, {"sessionUpdate": "agent_message_chunk", "content": link})
    return "end_turn"


async def prompt_edit(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
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
    agent.update(
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
    agent.chunk(sid, "Edited values.py.")
    return "end_turn"


async def prompt_shell(agent: Any, sid: str, params: dict[str, Any], text: str) -> str:
    """`shell <command>`: runs the command with sh in the session's folder, as an agent's own tool
    does (no fs/* request: ClawQt learns what it changed only from the turn's snapshots)."""
    command = text.split(" ", 1)[1] if " " in text else "true"
    tool_id = f"shell-{os.urandom(4).hex()}"  # each call its own card
    tool = {"toolCallId": tool_id, "title": command, "kind": "execute", "status": "in_progress"}
    agent.update(sid, {"sessionUpdate": "tool_call", **tool})
    process = await asyncio.create_subprocess_shell(command, cwd=agent.session_path(sid, "."))
    code = await process.wait()
    agent.tool_update(sid, tool_id, status="completed" if code == 0 else "failed")
    agent.chunk(sid, f"ran it: exit {code}")
    return "end_turn"


PROMPTS = {
    "shell": prompt_shell,
    "attach-mix": prompt_attach_mix,
    "images-inline": prompt_images_inline,
    "outside-files": prompt_outside_files,
    "media-mix": prompt_media_mix,
    "edit": prompt_edit,
    "fs-read": prompt_fs_read,
    "fs-write": prompt_fs_write,
    "fs-read-outside": prompt_fs_read_outside,
    "fs-write-outside": prompt_fs_write_outside,
    "attach-folder": prompt_attach_folder,
}

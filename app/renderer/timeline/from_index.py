"""A chat as the search index keeps it, made into a timeline to read when its agent is gone: each text
becomes the update that said it (the user's message, the answer, a thought, a tool call with its output
or its terminal's), so the view draws it as it drew the chat; files attached are not kept by the index.
Read-only by construction: it is shown like a replayed trace (`CurrentSession.show_trace`)."""

from __future__ import annotations

from typing import Any

from app.contract.envelopes import LoadResult, SessionUpdateEnvelope
from app.contract.search import IndexedChat, IndexedText
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.store import TimelineStore

CHUNKS = {"message": "user_message_chunk", "answer": "agent_message_chunk", "thought": "agent_thought_chunk"}


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _update(entry: IndexedText) -> dict[str, Any] | None:
    named = entry.item.split(":", 1)[-1]  # m:<message id>, p:<client id>, t:<id>, o:<id>, x:<terminal id>
    if entry.kind in CHUNKS:  # each its own segment (a run of chunks, `s<n>`, by that name)
        return {"sessionUpdate": CHUNKS[entry.kind], "messageId": named, "content": _text_block(entry.text)}
    tool = named
    content = [{"type": "content", "content": _text_block(entry.text)}]
    if entry.kind == "tool":
        return {"sessionUpdate": "tool_call", "toolCallId": tool, "title": entry.text, "status": "completed"}
    if entry.kind == "output":
        return {"sessionUpdate": "tool_call_update", "toolCallId": tool, "content": content}
    if entry.kind == "terminal":
        return {"sessionUpdate": "tool_call", "toolCallId": f"terminal-{tool}", "title": "Terminal output",
                "kind": "execute", "status": "completed", "content": content}  # fmt: skip
    return None  # a file's name: the index keeps no file


def index_timeline(indexed: IndexedChat) -> Timeline:
    key = indexed.chat.key
    updates = [
        SessionUpdateEnvelope(key, 0, True, {"sessionId": key, "update": update})
        for update in (_update(entry) for entry in indexed.texts)
        if update is not None
    ]
    store = TimelineStore()
    timeline, _ = store.load(LoadResult(key, 0, indexed.chat.folder, tuple(updates)))
    return timeline

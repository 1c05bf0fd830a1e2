"""Hits of the search over every chat, as the search pane lists them: grouped by chat in the order the
index found them (the newest first), each chat with its agent, folder and when it last changed, each
hit with what kind of text it is in and its snippet with the words found marked. Pure: the pane's
Qt object asks and shows; the filters' words map to the index's kinds and times here."""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

from app.contract.search import Filters, Hit, IndexSize, Snippet
from app.renderer.present.session_times import time_label

KIND_WORDS = {
    "message": "You",
    "answer": "Answer",
    "thought": "Thought",
    "tool": "Tool",
    "output": "Tool output",
    "terminal": "Terminal",
    "file": "File",
}
KIND_FILTERS = {  # the pane's "Kind" choice -> the index's kinds
    "all": (),
    "messages": ("message", "answer", "thought"),
    "tools": ("tool", "output", "terminal"),
    "files": ("file",),
}
DAY = 86_400.0
WHEN_FILTERS = {"any": 0.0, "day": DAY, "week": 7 * DAY, "month": 30 * DAY, "year": 365 * DAY}


def filters_of(agent: str, folder: str, kind: str, when: str, now: float) -> Filters:
    """The index's filters for the pane's choices ("" / "all" / "any": no filter of that kind)."""
    span = WHEN_FILTERS.get(when, 0.0)
    kinds = KIND_FILTERS.get(kind, ())
    return Filters(agent=agent, folder=folder, kinds=kinds, since=now - span if span else 0.0)


def snippet_html(snippet: Snippet, mark: str) -> str:
    """The snippet as rich text, each word found on the `mark` colour; everything else escaped (an
    agent's text is never markup here)."""
    out: list[str] = []
    at = 0
    for start, end in snippet.marks:
        out.append(html.escape(snippet.text[at:start]))
        out.append(f'<span style="background-color:{mark}">{html.escape(snippet.text[start:end])}</span>')
        at = end
    out.append(html.escape(snippet.text[at:]))
    return "".join(out).replace("\n", " ")


def needle_of(snippet: Snippet) -> str:
    """What find in the chat looks for once the chat is open at the hit: the first word found."""
    if not snippet.marks:
        return ""
    start, end = snippet.marks[0]
    return snippet.text[start:end]


CONTEXT_CHARS = 24  # of a hit's snippet on each side of its first word: how the hit is known in its chat


def hit_context(snippet: Snippet) -> str:
    """The words around the hit's first word, one line: found again in the item that says them when
    the chat is shown (its ids may differ once its agent replays it)."""
    if not snippet.marks:
        return ""
    text = snippet.text
    start, end = snippet.marks[0]
    low, high = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
    if low > 0 and not text[low - 1].isspace():  # cut inside a word: from the next one
        space = text.find(" ", low, start)
        low = space + 1 if space >= 0 else start
    if high < len(text) and not text[high].isspace():  # likewise at the end
        space = text.rfind(" ", end, high)
        high = space if space >= 0 else end
    return " ".join(text[low:high].strip("…").split())


def says(item_texts: list[str], context: str) -> bool:
    """Whether an item's texts hold the hit's context (spaces and line breaks compared as one)."""
    return bool(context) and any(context in " ".join(text.split()) for text in item_texts)


def is_indexed_as(item: object, index_item: str) -> bool:
    """Whether a timeline item is the one the index keeps as `index_item` (`m:`/`p:` a message by its
    id, `t:`/`o:` a tool call's title or output; a run of chunks, `s<n>`, only in a chat read from the
    index, where its segment bears that name)."""
    message_id = getattr(item, "message_id", "")
    tool_call_id = getattr(item, "tool_call_id", "")
    if message_id and index_item in (f"m:{message_id}", f"p:{message_id}", message_id):
        return True
    return bool(tool_call_id) and index_item in (f"t:{tool_call_id}", f"o:{tool_call_id}")


def grouped(hits: list[Hit], mark: str, now: datetime) -> list[dict[str, Any]]:
    """One entry per chat, in the order its first hit came, with its hits in order."""
    groups: dict[str, dict[str, Any]] = {}
    for hit in hits:
        chat = hit.chat
        group = groups.get(chat.key)
        if group is None:
            group = groups[chat.key] = {
                "key": chat.key,
                "title": chat.title or "Untitled chat",
                "agent": chat.agent,
                "folder": chat.folder,
                "when": time_label(datetime.fromtimestamp(chat.updated), now) if chat.updated else "",
                "hits": [],
            }
        group["hits"].append(
            {
                "item": hit.item,
                "kind": KIND_WORDS.get(hit.kind, hit.kind),
                "when": time_label(datetime.fromtimestamp(hit.at), now) if hit.at else "",
                "html": snippet_html(hit.snippet, mark),
                "needle": needle_of(hit.snippet),
                "context": hit_context(hit.snippet),
            }
        )
    return list(groups.values())


def summary(hits: int, chats: int, limit: int) -> str:
    if not hits:
        return "No chat says that"
    more = "+" if hits >= limit else ""
    matches = "match" if hits == 1 else "matches"
    return f"{hits}{more} {matches} in {chats} {'chat' if chats == 1 else 'chats'}"


def size_words(size: IndexSize) -> str:
    """ "12 chats, 430 texts: 3.2 MB of 2,048 MB"."""
    megabytes = size.used_bytes / 1024 / 1024
    used = f"{megabytes:.1f} MB" if megabytes < 100 else f"{round(megabytes):,} MB"
    chats = f"{size.chats:,} chat{'s' * (size.chats != 1)}"
    return f"{chats}, {size.texts:,} texts: {used} of {size.max_bytes // 1024 // 1024:,} MB"

"""What the chats say, as the search index's entries: the agents' envelopes (live updates, a loaded
history's replay, the prompts sent) folded into one text per message, thought, tool call title and
tool output, handed to the writer when a turn settles and FLUSH_S after a change otherwise (a long
turn streaming, a load's replay). Credentials are cut from every text as the window cuts them.

Item ids are stable for a chat's history: a chunk with a `messageId` is that message; chunks without
one are numbered in the order the chat's updates came (a run of chunks of one kind is one segment). A
chat's first load in a run first forgets what the index had of it (its replay is the whole truth) and
indexes the replay; a chat loaded again in the same run is not indexed twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.contract.credentials import redact_text
from app.contract.hidden_context import strip_hidden_context
from app.contract.usage import turn_tokens
from app.main.search.index import MAX_TEXT_CHARS, Chat, Entry
from app.main.search.terminal_feed import TERMINAL_CHARS, TurnTerminals
from app.main.search.usage_ledger import TurnUsage
from app.main.search.writer import IndexWriter

FLUSH_S = 2.0
LOAD_HANDOVER_ITEMS = 64  # a load's replay is handed over in pieces of this many items as it comes
TITLE_CHARS = 80  # of a chat's first message, its title until the agent names it
CHUNK_KINDS = {
    "agent_message_chunk": "answer",
    "user_message_chunk": "message",
    "agent_thought_chunk": "thought",
}


@dataclass
class _Open:
    """An item's text as it grows, kept to what the index takes of it (MAX_TEXT_CHARS): a 100 MB reply
    is neither held twice nor joined whole on the event loop."""

    kind: str
    at: float
    pieces: list[str] = field(default_factory=list)
    size: int = 0
    limit: int = MAX_TEXT_CHARS

    def add(self, text: str) -> None:
        room = self.limit - self.size
        if room > 0 and text:
            piece = text if len(text) <= room else text[:room]
            self.pieces.append(piece)
            self.size += len(piece)

    def text(self) -> str:
        """What the user saw: without ClawQt's hidden blocks for the agent, credentials cut."""
        return redact_text(strip_hidden_context("".join(self.pieces)))


def _opened(kind: str, at: float, text: str) -> _Open:
    item = _Open(kind, at)
    item.add(text)
    return item


@dataclass
class _ChatFeed:
    counter: int = 0
    run_item: str = ""  # the segment a chunk without a messageId joins ("" after anything else)
    run_kind: str = ""
    open: dict[str, _Open] = field(default_factory=dict)  # items changed since the last hand-over
    generation: int = 0  # of the envelopes last seen: the chat's folder is asked at it
    loading: bool = False  # its history is being replayed and indexed
    skipping: bool = False  # its history is being replayed again: indexed once a run
    title: str = ""
    listed_at: float | None = None  # when its agent last changed it, as listed (a chat indexed unseen)
    cost: float | None = None  # the chat's cost so far as its agent last said (usage_update)
    cost_counted: float = 0.0  # the part of it already put on a turn in the ledger
    currency: str = ""
    context: tuple[int, int] | None = None  # the context used and its size, as its agent last said
    terminals: TurnTerminals[_Open] = field(default_factory=lambda: TurnTerminals(lambda: _Open("", 0)))


def _block_text(block: Any) -> str:
    """The searchable words of an ACP content block: its text, or a resource's name or address."""
    if not isinstance(block, dict):
        return ""
    if isinstance(block.get("text"), str):
        return str(block["text"])
    resource = block.get("resource")
    if isinstance(resource, dict) and isinstance(resource.get("text"), str):
        return str(resource["text"])
    for name in ("name", "title", "uri"):
        if isinstance(block.get(name), str):
            return str(block[name])
    return ""


def _tool_output(update: dict[str, Any], at: float) -> _Open:
    """A tool's content as one text (a diff by its path), to what the index takes of it."""
    output = _Open("output", at)
    content = update.get("content")
    for item in content if isinstance(content, list) else ():
        if output.size >= MAX_TEXT_CHARS:
            break
        if isinstance(item, dict):
            path = item.get("path") if item.get("type") == "diff" else None
            for text in (path if isinstance(path, str) else "", _block_text(item.get("content"))):
                if text:
                    output.add("\n" if output.size else "")
                    output.add(text)
    return output


class SearchFeed:
    def __init__(
        self,
        writer: IndexWriter,
        agent_of: Callable[[str], str],
        folder_of: Callable[[str, int], str | None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._writer = writer
        self._agent_of = agent_of
        self._folder_of = folder_of
        self._clock = clock
        self._chats: dict[str, _ChatFeed] = {}
        self.labels: dict[str, str] = {}  # the agent of a chat the hub does not know (the backfill's)
        self._folders: dict[str, str] = {}  # each opened chat's folder, as its opening said
        self._loaded: set[str] = set()  # chats whose history was indexed in this run
        self._due: asyncio.TimerHandle | None = None

    def on_envelope(self, envelope: Any) -> None:
        kind = getattr(envelope, "kind", "")
        key = getattr(envelope, "session_key", None)
        if isinstance(key, str) and isinstance(getattr(envelope, "generation", None), int):
            self._chat(key).generation = envelope.generation
        if kind == "session_update":
            self._update(envelope.session_key, envelope.notification, envelope.historical)
        elif kind == "replay":
            for update in envelope.updates:
                self._update(update.session_key, update.notification, True)
        elif kind == "terminal_output":  # a terminal ClawQt runs for the agent (terminal/create)
            self._terminal(envelope.session_key, envelope.terminal_id, envelope.data)
        elif kind == "prompt_sent":
            self._prompt(envelope.session_key, envelope.client_message_id, envelope.prompt)
        elif kind == "prompt_settled":
            self._turn_used(envelope)
            self.flush(envelope.session_key)
            chat = self._chat(envelope.session_key)
            chat.open, chat.run_item, chat.run_kind = {}, "", ""  # the turn is whole: nothing stays open
            chat.terminals.turn_settled()
            return
        else:
            return
        self._flush_soon()

    def on_opened(self, result: Any) -> None:
        """A chat opened (`LoadResult`): the rest of a load's replay (what came before it came as
        ReplayEnvelopes), then the whole history handed over."""
        key = result.session_key
        self._chat(key).generation = result.generation
        if isinstance(getattr(result, "cwd", None), str) and result.cwd:
            self._folders[key] = result.cwd
        for update in result.updates:
            self._update(key, update.notification, True)
        chat = self._chat(key)
        chat.loading = chat.skipping = False
        self.flush(key)

    def titled(self, key: str, title: str, updated: float | None = None) -> None:
        """The chat's title and last change as its agent lists them (a chat indexed without being
        shown): its history is dated then, not when it was indexed."""
        chat = self._chat(key)
        chat.title = title or chat.title
        chat.listed_at = updated

    def on_deleted(self, key: str) -> None:
        """A chat the user deleted: what the index has of it goes, and what was still to be written."""
        self._chats.pop(key, None)
        self._loaded.discard(key)
        self._writer.forget([key])

    def _flush_soon(self) -> None:
        """Everything handed over FLUSH_S from now (once: the first change since sets the time)."""
        if self._due is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): the caller flushes
            return
        self._due = loop.call_later(FLUSH_S, self._flush_due)

    def _flush_due(self) -> None:
        self._due = None
        self.flush()

    def _chat(self, key: str) -> _ChatFeed:
        chat = self._chats.get(key)
        if chat is None:
            chat = self._chats[key] = _ChatFeed(terminals=TurnTerminals(self._terminal_output))
        return chat

    def _update(self, key: str, notification: Any, historical: bool) -> None:
        update = notification.get("update") if isinstance(notification, dict) else None
        if not isinstance(update, dict):
            return
        chat = self._chat(key)
        if historical and not chat.loading and not chat.skipping:  # a load's replay begins
            if key in self._loaded:
                chat.skipping = True
                return
            self._loaded.add(key)
            chat.loading, chat.counter, chat.run_item, chat.open = True, 0, "", {}
            chat.terminals.turn_settled()
            self._writer.forget([key])
        elif not historical and (chat.loading or chat.skipping):
            chat.loading = chat.skipping = False
        if not historical:
            chat.listed_at = None  # said now: dated now
        if chat.skipping:
            return
        self._fold(key, chat, update, historical)
        if chat.loading and len(chat.open) > LOAD_HANDOVER_ITEMS:
            self.flush(key)

    def _fold(self, key: str, chat: _ChatFeed, update: dict[str, Any], historical: bool) -> None:
        """One update into the chat's open items."""
        name = update.get("sessionUpdate")
        now = self._clock()
        if name in CHUNK_KINDS:
            kind = CHUNK_KINDS[str(name)]
            text = _block_text(update.get("content"))
            message_id = update.get("messageId")
            if isinstance(message_id, str) and message_id:
                item = f"m:{message_id}"
            elif chat.run_item and chat.run_kind == kind:
                item = chat.run_item
            else:
                chat.counter += 1
                item = f"s{chat.counter}"
            chat.run_item, chat.run_kind = item, kind
            chat.open.setdefault(item, _Open(kind, now)).add(text)
            return
        chat.run_item = chat.run_kind = ""
        if name in ("tool_call", "tool_call_update") and isinstance(update.get("toolCallId"), str):
            tool = update["toolCallId"]
            if isinstance(update.get("title"), str) and update["title"]:  # each part replaces its own
                chat.open[f"t:{tool}"] = _opened("tool", now, str(update["title"]))
            if isinstance(update.get("content"), list):
                chat.open[f"o:{tool}"] = _tool_output(update, now)
            for item in chat.terminals.note_tool(update):  # a card shows a terminal: its output so far
                chat.open[item] = chat.terminals.outputs[item]
            for terminal, data in chat.terminals.meta_output(update):  # an agent's own terminal
                self._terminal(key, terminal, data)
        elif name == "session_info_update" and isinstance(update.get("title"), str):
            chat.title = str(update["title"])
        elif name == "usage_update":
            self._usage(chat, update, historical)

    @staticmethod
    def _usage(chat: _ChatFeed, update: dict[str, Any], historical: bool) -> None:
        """An agent's `usage_update`: the chat's cost so far and the context it uses."""
        used, size = update.get("used"), update.get("size")
        if type(used) is int and type(size) is int and used >= 0 and size > 0:
            chat.context = (used, size)
        cost = update.get("cost")
        amount = cost.get("amount") if isinstance(cost, dict) else None
        if (
            isinstance(cost, dict)
            and isinstance(amount, int | float)
            and not isinstance(amount, bool)
            and amount >= 0
        ):
            chat.cost, chat.currency = float(amount), str(cost.get("currency") or "")
            if historical:  # a past turn's: not this run's to count
                chat.cost_counted = chat.cost

    def _turn_used(self, settled: Any) -> None:
        """A turn ended: what it used into the ledger (its tokens, its time, what it added to the cost)."""
        chat = self._chat(settled.session_key)
        added = 0.0
        if chat.cost is not None:
            added, chat.cost_counted = max(0.0, chat.cost - chat.cost_counted), chat.cost
        key, seconds = settled.session_key, float(settled.elapsed_s or 0.0)
        tokens = turn_tokens(settled.usage)
        used = TurnUsage(
            key, self._agent_of(key), self._clock(), tokens, seconds, added, chat.currency, chat.context
        )
        self._writer.record_usage([used])

    def _terminal_output(self) -> _Open:
        return _Open("terminal", self._clock(), limit=TERMINAL_CHARS)

    def _terminal(self, key: str, terminal: str, data: str) -> None:
        chat = self._chat(key)
        item = chat.terminals.add(terminal, data)
        if item is not None:
            chat.open[item] = chat.terminals.outputs[item]

    def _prompt(self, key: str, message_id: str, prompt: Any) -> None:
        chat = self._chat(key)
        chat.run_item = chat.run_kind = ""
        blocks = prompt if isinstance(prompt, (list, tuple)) else ()
        text = "\n".join(t for t in (_block_text(b) for b in blocks) if t)
        if text:
            chat.open[f"p:{message_id}"] = _opened("message", self._clock(), text)

    def flush(self, key: str | None = None) -> None:
        """Hand what changed to the writer: one chat's, or every chat's."""
        keys = [key] if key is not None else list(self._chats)
        for name in keys:
            chat = self._chats.get(name)
            if chat is None or not chat.open:
                continue
            listed = chat.listed_at
            entries = [Entry(item, o.kind, o.text(), listed or o.at) for item, o in chat.open.items()]
            if not chat.title:  # until the agent names it, as the sidebar does: its first message
                asked = next((e.text for e in entries if e.kind == "message" and e.text.strip()), "")
                chat.title = " ".join(asked.split())[:TITLE_CHARS]
            updated = listed or max(o.at for o in chat.open.values())
            folder = self._folder_of(name, chat.generation) or self._folders.get(name, "")
            info = Chat(name, self.labels.get(name) or self._agent_of(name), folder, chat.title, updated)
            self._writer.put(info, entries)
            # a segment still streaming stays: its next chunks are indexed with its whole text
            chat.open = {item: o for item, o in chat.open.items() if item == chat.run_item}

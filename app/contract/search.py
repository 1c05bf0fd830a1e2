"""Search over every chat: what the index holds and finds (`app/main/search/`), as the renderer reads
it. The index is a cache the main side fills from the chats; the renderer only asks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from app.contract.usage import UsageChat, UsageDay

KINDS = ("message", "answer", "thought", "tool", "output", "terminal", "file")


@dataclass(frozen=True)
class Snippet:
    text: str
    marks: tuple[tuple[int, int], ...]  # (start, end) in `text`, in order, not overlapping


@dataclass(frozen=True)
class Chat:
    key: str
    agent: str  # the agent's name as the user knows it
    folder: str
    title: str
    updated: float  # when it last changed (seconds since the epoch): what the bound forgets first


@dataclass(frozen=True)
class Hit:
    chat: Chat
    item: str  # the timeline item it is in (a message, a tool call...)
    kind: str  # one of KINDS
    at: float
    snippet: Snippet


@dataclass(frozen=True)
class Filters:
    agent: str = ""
    folder: str = ""
    kinds: tuple[str, ...] = ()  # any of KINDS; none: every kind
    since: float = 0.0
    until: float = 0.0


@dataclass(frozen=True)
class IndexedText:
    """One text of a chat as the index keeps it (what a view can show when its agent is gone)."""

    item: str
    kind: str  # one of KINDS
    at: float
    text: str


@dataclass(frozen=True)
class IndexedChat:
    chat: Chat
    texts: tuple[IndexedText, ...]  # in the order they were indexed (the chat's order)


@dataclass(frozen=True)
class IndexSize:
    chats: int
    texts: int
    used_bytes: int
    max_bytes: int  # past it the chats changed longest ago are forgotten (found again when shown)


@dataclass(frozen=True)
class Facets:
    """What the filters may choose from: the agents and folders of the chats indexed."""

    agents: tuple[str, ...]
    folders: tuple[str, ...]


class SearchHost(Protocol):
    """Every chat of every agent, found by its words (SQLite FTS5 off the event loop)."""

    async def search(self, text: str, filters: Filters | None = None, limit: int = 50) -> list[Hit]:
        """The newest hits first; [] for a query with no word in it."""
        ...

    async def facets(self) -> Facets: ...

    async def size(self) -> IndexSize: ...

    async def index_agent(self, agent_id: str, progress: Callable[[int, int, int], None]) -> int:
        """Index every chat the agent lists that is not indexed yet, through a connection of its own
        (its loads never reach the window); `progress(listed, done, failed)` after each; how many were
        indexed. HostError when the agent cannot list its chats; cancelled by cancelling the call."""
        ...

    async def indexed_chat(self, key: str) -> IndexedChat | None:
        """What the index keeps of a chat, to read it without its agent; None when it has nothing."""
        ...

    async def usage(self, days: int) -> list[UsageDay]:
        """The usage ledger: each agent's turns of each of the last `days` days (today the last)."""
        ...

    async def usage_chats(self, days: int, limit: int) -> list[UsageChat]:
        """The `limit` chats that used the most tokens over the last `days` days, the most first."""
        ...

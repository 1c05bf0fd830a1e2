"""The user's own files as the renderer reaches them: drafts and small maps, the message queue, the
window's and chats' view state, and the problems the main side found with those files (which it reads
and writes; the renderer only asks). Part of the host API (host_api.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypedDict


class StringStore(Protocol):
    """A persisted str -> str map (writes go through at once: callers debounce typing)."""

    def get(self, key: str, default: str = "") -> str: ...

    def set(self, key: str, value: str) -> None: ...

    def move(self, old: str, new: str) -> None: ...

    def items(self) -> dict[str, str]:
        """A copy of every entry, oldest first."""
        ...


class QueuedFile(TypedDict):
    """A file attached to a queued message (checked again when the message is sent)."""

    path: str
    name: str
    mime: str


class QueuedMessage(TypedDict):
    """A message the user queued while a turn ran; `id` stays the same while it waits."""

    id: str
    text: str
    files: list[QueuedFile]


class QueueStore(Protocol):
    """The queued messages of each session, oldest first, persisted at every change (an agent crash or
    a restart loses none of them)."""

    def get(self, key: str) -> list[QueuedMessage]: ...

    def set(self, key: str, messages: list[QueuedMessage]) -> None:
        """Replace the session's queue (an empty list forgets it)."""
        ...

    def move(self, old: str, new: str) -> None: ...


MAX_TILES = 3  # chats shown beside the main one: four on screen at most


class WindowPlacement(TypedDict, total=False):
    """Where the window was and how it was divided, restored at the next start."""

    x: int
    y: int
    width: int
    height: int
    maximized: bool
    splits: dict[str, str]  # a SplitView's saveState() by the split's name, base64
    openChat: str  # the session key shown last
    sidebarGroups: str  # how the sidebar groups the chats: "date" or "folder"
    tiles: list[str]  # the chats shown side by side with openChat, left to right


class ToggledCard(TypedDict):
    """A card the user opened or closed: a row (`slot` and its item) or one tool (`slot` "")."""

    slot: str
    item: str
    open: bool


class ChatView(TypedDict, total=False):
    """How the user left a chat: where it was scrolled and which cards they opened or closed."""

    atEnd: bool  # following the newest message
    anchor: str  # the row key at the top of the view
    row: int  # that row's view row (0 is the newest), used when the key is not there any more
    offset: float  # how much of that row was above the view's top, in pixels
    toggled: list[ToggledCard]


class ViewStateStore(Protocol):
    """The window's placement and each chat's view, kept across restarts (the main side keeps the
    values it can use and caps how much it keeps)."""

    def window(self) -> WindowPlacement: ...

    def set_window(self, placement: WindowPlacement) -> None: ...

    def chat(self, key: str) -> ChatView: ...

    def set_chat(self, key: str, view: ChatView) -> None: ...


class LocalStores(Protocol):
    """What the user owns locally: drafts and queued messages per session, local session names, pinned
    and archived chats, cached session previews, the window's placement and each chat's view."""

    @property
    def drafts(self) -> StringStore: ...

    @property
    def names(self) -> StringStore: ...

    @property
    def previews(self) -> StringStore: ...

    @property
    def pins(self) -> StringStore:
        """The chats pinned to the top of the sidebar, each with when it was pinned."""
        ...

    @property
    def archived(self) -> StringStore:
        """The chats archived out of the sidebar's list (shown when asked for), each with when."""
        ...

    @property
    def queues(self) -> QueueStore: ...

    @property
    def views(self) -> ViewStateStore: ...


@dataclass(frozen=True)
class LocalProblem:
    """Something wrong with a file or folder the user owns (the config file, a local store, the data
    folder). `text` names the file, what is wrong and what ClawQt does instead (it never stops the app);
    `details` is the error behind it, shown on demand; `config_file` the config file it is about (the
    notice offers to open it), "" for any other file."""

    text: str
    details: str = ""
    config_file: str = ""


ProblemListener = Callable[[LocalProblem], None]


class ProblemsHost(Protocol):
    """Problems with the user's own files (`app/main/core/problems.py`), each reported once: those found
    at startup are there before the window opens, later ones (a save that fails) arrive as they happen,
    synchronously, on the event loop thread."""

    def reported(self) -> list[LocalProblem]:
        """Every problem so far, oldest first."""
        ...

    def subscribe(self, listener: ProblemListener) -> Callable[[], None]:
        """Hear each new problem; the returned call stops it."""
        ...

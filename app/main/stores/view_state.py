"""The window's placement (geometry, maximized, split sizes, the chat shown) and each chat's view (scroll
position, the cards the user opened or closed), kept across restarts in `window-state.json` and
`chat-views.json` in the data folder.

They are files like the other local stores (json_map.py: a bad file is reported and copied aside), and
what is read from them is only what the window can use: each field of the right type and within range,
unknown or wrong fields dropped (a wrong field costs a default, never a start), at most MAX_TOGGLED
cards per chat, and the views of the MAX_CHATS chats changed last."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from app.contract.local_stores import MAX_TILES, ChatView, ToggledCard, WindowPlacement
from app.main.core.problems import LocalProblems
from app.main.stores.json_map import JsonMap

WINDOW = "window"
MAX_CHATS = 300  # chats whose view is kept; the one changed longest ago goes first
MAX_TOGGLED = 2000  # cards per chat whose open/closed choice is kept
MAX_SPLITS = 8
MAX_SPLIT_CHARS = 4096  # a SplitView's saved state is a few dozen bytes
MAX_KEY_CHARS = 2048
COORDINATE = 100_000  # pixels: positions within +-, sizes up to
MIN_SIZE = 100


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if low <= value <= high else None


def _text(value: Any, limit: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def window_placement(value: object) -> WindowPlacement | None:
    """What the window can use of a stored placement (None when it is not an object at all)."""
    if not isinstance(value, dict):
        return None
    placement: dict[str, Any] = {}
    for name in ("x", "y"):
        if (number := _int(value.get(name), -COORDINATE, COORDINATE)) is not None:
            placement[name] = number
    for name in ("width", "height"):
        if (number := _int(value.get(name), MIN_SIZE, COORDINATE)) is not None:
            placement[name] = number
    if isinstance(value.get("maximized"), bool):
        placement["maximized"] = value["maximized"]
    splits = value.get("splits")
    if isinstance(splits, dict):
        kept = {k: v for k, v in splits.items() if _text(k, 64) and _text(v, MAX_SPLIT_CHARS) is not None}
        if kept:
            placement["splits"] = dict(list(kept.items())[:MAX_SPLITS])
    if (chat := _text(value.get("openChat"), MAX_KEY_CHARS)) is not None:
        placement["openChat"] = chat
    if value.get("sidebarGroups") in ("date", "folder"):
        placement["sidebarGroups"] = value["sidebarGroups"]
    tiles = value.get("tiles")
    if isinstance(tiles, list):
        keys = [key for key in tiles if _text(key, MAX_KEY_CHARS)]
        placement["tiles"] = list(dict.fromkeys(keys))[:MAX_TILES]
    return placement  # type: ignore[return-value]


def chat_view(value: object) -> ChatView | None:
    """What the window can use of a stored chat view (None when it is not an object at all)."""
    if not isinstance(value, dict):
        return None
    view: dict[str, Any] = {}
    if isinstance(value.get("atEnd"), bool):
        view["atEnd"] = value["atEnd"]
    if (anchor := _text(value.get("anchor"), MAX_KEY_CHARS)) is not None:
        view["anchor"] = anchor
    if (row := _int(value.get("row"), 0, 10_000_000)) is not None:
        view["row"] = row
    offset = value.get("offset")
    if isinstance(offset, (int, float)) and not isinstance(offset, bool) and math.isfinite(offset):
        view["offset"] = float(max(-COORDINATE, min(COORDINATE, offset)))
    toggled = value.get("toggled")
    if isinstance(toggled, list):
        cards = [card for card in map(_toggled, toggled[:MAX_TOGGLED]) if card is not None]
        if cards:
            view["toggled"] = cards
    return view  # type: ignore[return-value]


def _toggled(value: object) -> ToggledCard | None:
    if not isinstance(value, dict) or not isinstance(value.get("open"), bool):
        return None
    slot, item = _text(value.get("slot"), 64), _text(value.get("item"), MAX_KEY_CHARS)
    if slot is None or item is None:
        return None
    return ToggledCard(slot=slot, item=item, open=value["open"])


class _WindowFile(JsonMap[WindowPlacement]):
    def accept(self, value: object) -> WindowPlacement | None:
        return window_placement(value)


class _ChatViews(JsonMap[ChatView]):
    entry_kind = "a chat's view"

    def accept(self, value: object) -> ChatView | None:
        return chat_view(value)

    def keep(self, key: str, view: ChatView) -> None:
        """The view of `key`, now the most recent; past MAX_CHATS the oldest is forgotten."""
        view = chat_view(view) or ChatView()
        if self._data.get(key) == view:
            return
        self._data.pop(key, None)
        if view:
            self._data[key] = view
        while len(self._data) > MAX_CHATS:
            del self._data[next(iter(self._data))]
        self.save()


class ViewStates:
    """The `views` store (contract: ViewStateStore)."""

    def __init__(self, base: Path | None = None, problems: LocalProblems | None = None) -> None:
        self._window = _WindowFile("window-state.json", base, problems, "window state")
        self._chats = _ChatViews("chat-views.json", base, problems, "chat views")

    def window(self) -> WindowPlacement:
        """A copy, nested splits too: the window changes it, then gives it back to be saved."""
        return window_placement(self._window.items().get(WINDOW, {})) or WindowPlacement()

    def set_window(self, placement: WindowPlacement) -> None:
        self._window.set(WINDOW, window_placement(placement) or WindowPlacement())

    def chat(self, key: str) -> ChatView:
        view = self._chats.items().get(key, {})
        return ChatView(**{**view, "toggled": [ToggledCard(**c) for c in view.get("toggled", [])]})

    def set_chat(self, key: str, view: ChatView) -> None:
        self._chats.keep(key, view)

"""The `notifications` part of the host API: notifications shown by the desktop (outside the window)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class NotificationsHost(Protocol):
    async def notify(self, summary: str, body: str, key: str) -> bool:
        """Show `body` (plain text) in a desktop notification; False when the desktop has no service
        that shows them (the window then calls the user its own way). A click comes back with `key`."""
        ...

    def subscribe_clicks(self, listener: Callable[[str], None]) -> None:
        """`listener(key)` when the user clicks a notification sent with `key`."""
        ...

    async def close(self) -> None:
        """Quit: the connection to the desktop ends."""
        ...

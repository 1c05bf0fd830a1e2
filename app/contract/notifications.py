"""The `notifications` part of the host API: notifications shown by the desktop (outside the window)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

Action = tuple[str, str]  # (id, the button's words)


class NotificationsHost(Protocol):
    async def notify(self, summary: str, body: str, key: str, actions: Sequence[Action] = ()) -> bool:
        """Show `body` (plain text) in a desktop notification; False when the desktop has no service
        that shows them (the window then calls the user its own way). A click comes back with `key`;
        `actions` are buttons on it where the desktop draws them (each chosen comes back with its id)."""
        ...

    def subscribe_clicks(self, listener: Callable[[str], None]) -> None:
        """`listener(key)` when the user clicks a notification sent with `key`."""
        ...

    def subscribe_actions(self, listener: Callable[[str, str], None]) -> None:
        """`listener(key, action id)` when the user chooses one of a notification's `actions`."""
        ...

    def has_actions(self) -> bool:
        """Whether the desktop draws a notification's buttons (known after the first notification)."""
        ...

    async def close(self) -> None:
        """Quit: the connection to the desktop ends."""
        ...

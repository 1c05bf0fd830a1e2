"""Desktop notifications through the freedesktop notification service (`org.freedesktop.Notifications`
on the session bus), over jeepney (pure Python; keyring brings it on Linux).

A notification's body is the app's sentence around names an agent chose (a chat's title, a command).
A service that reads markup in bodies (the `body-markup` capability: `<b>`, `<a href>`, `<img src>`)
gets the body escaped, so `<img src="http://...">` in a title is shown as written and nothing is
fetched; a service without it gets the text as it is (it shows bodies as text). The summary is plain
text by the specification. A click on a notification (its "default" action) is handed to the
listeners with the key it was sent with; a button (`actions`, where the service draws them: Allow and
Deny on a permission request) to the action listeners with the key and the button's id.

When there is no session bus or no such service (not Linux, a bare session), `notify` says False and
the window calls the user its own way (the tray where the platform draws it, else its alert)."""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Callable, Sequence
from typing import Any

from app.contract.credentials import redact_text
from app.contract.notifications import Action
from app.main.core.background_tasks import BackgroundTasks

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
OBJECT_PATH = "/org/freedesktop/Notifications"
CALL_TIMEOUT_S = 5.0  # a service that does not answer is taken as none
SHOWN_MS = 10_000  # how long the desktop shows it (the desktop may cap it)
APP_NAME = "ClawQt"
DESKTOP_ENTRY = "clawqt"  # resources/desktop: the desktop finds the icon and the app's name there
UNCLAIMED_CLICKS = 64  # clicks on ids this run has no answer for yet (or another app's): the newest


def body_for(text: str, capabilities: frozenset[str]) -> str:
    """The body as the service should get it: ClawQt's credentials cut (names an agent chose may
    quote one), escaped where the service reads markup."""
    text = redact_text(text)
    return html.escape(text, quote=False) if "body-markup" in capabilities else text


class DesktopNotifications:
    """The `notifications` host part: one session-bus connection, opened at the first notification and
    kept (a task holds it and listens for clicks) until `close`."""

    def __init__(self, bus: str = "SESSION") -> None:
        self._bus = bus
        self._tasks = BackgroundTasks("desktop notifications")
        self._router: asyncio.Future[Any] | None = None  # the open router, or None: no bus
        self._capabilities: frozenset[str] | None = None
        self._keys: dict[int, str] = {}  # notification id -> the key it was sent with
        # clicks read before the id's Notify answer was: the answer is handled after the signal
        self._unclaimed: dict[int, str] = {}
        self._listeners: list[Callable[[str], None]] = []
        self._action_listeners: list[Callable[[str, str], None]] = []

    def subscribe_clicks(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def subscribe_actions(self, listener: Callable[[str, str], None]) -> None:
        self._action_listeners.append(listener)

    def has_actions(self) -> bool:
        return self._capabilities is not None and "actions" in self._capabilities

    async def notify(self, summary: str, body: str, key: str, actions: Sequence[Action] = ()) -> bool:
        """Show a notification; False when the desktop has no notification service to show it."""
        router = await self._connected()
        if router is None:
            return False
        try:
            capabilities = await self._capabilities_of(router)
            buttons = ["default", "Open", *(word for action in actions for word in action)]
            buttons = buttons if "actions" in capabilities else []
            hints = {"desktop-entry": ("s", DESKTOP_ENTRY)}
            reply = await self._call(
                router,
                "Notify",
                "susssasa{sv}i",
                (
                    APP_NAME,
                    0,
                    "",
                    redact_text(summary),
                    body_for(body, capabilities),
                    buttons,
                    hints,
                    SHOWN_MS,
                ),
            )
        except (OSError, TimeoutError, ValueError) as exc:
            log.info("no desktop notification: %s", exc)
            return False
        if reply is None:
            return False
        notification_id = int(reply[0])
        self._keys[notification_id] = key
        early = self._unclaimed.pop(notification_id, None)
        if early is not None:
            self._clicked(notification_id, early)
        return True

    async def close(self) -> None:
        await self._tasks.close()

    # --- the bus ----------------------------------------------------------------------------------------
    async def _connected(self) -> Any:
        if self._router is None:
            self._router = asyncio.get_running_loop().create_future()
            self._tasks.spawn(self._hold(self._router), "the notification service's bus")
        return await asyncio.shield(self._router)

    async def _capabilities_of(self, router: Any) -> frozenset[str]:
        if self._capabilities is None:
            reply = await self._call(router, "GetCapabilities", "", ())
            self._capabilities = frozenset(str(c) for c in reply[0]) if reply else frozenset()
        return self._capabilities

    async def _call(self, router: Any, method: str, signature: str, body: tuple[Any, ...]) -> Any:
        """The method's reply body, or None when the service answered with an error (none is running)."""
        from jeepney import DBusAddress, MessageType, new_method_call

        address = DBusAddress(OBJECT_PATH, bus_name=SERVICE, interface=SERVICE)
        message = new_method_call(address, method, signature or None, body)
        reply = await asyncio.wait_for(router.send_and_get_reply(message), CALL_TIMEOUT_S)
        if reply.header.message_type is MessageType.error:
            log.info("the notification service refused %s: %s", method, reply.body)
            return None
        return reply.body

    async def _hold(self, ready: asyncio.Future[Any]) -> None:
        """Open the bus, say so through `ready`, then pass clicks on until cancelled at quit."""
        try:
            from jeepney import MatchRule, message_bus, new_method_call
            from jeepney.io.asyncio import open_dbus_router

            clicks = MatchRule(type="signal", interface=SERVICE, member="ActionInvoked", path=OBJECT_PATH)
            async with open_dbus_router(bus=self._bus) as router:
                add = new_method_call(message_bus, "AddMatch", "s", (clicks.serialise(),))
                await asyncio.wait_for(router.send_and_get_reply(add), CALL_TIMEOUT_S)
                with router.filter(clicks, bufsize=16) as queue:
                    ready.set_result(router)
                    while True:
                        signal = await queue.get()
                        self._clicked(*signal.body)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # no bus address, no bus, a bus that closed: no notifications here
            log.info("no session bus for desktop notifications: %s", exc)
        finally:
            if not ready.done():
                ready.set_result(None)
            self._router = None if self._router is ready else self._router

    def _clicked(self, notification_id: int, action: str) -> None:
        key = self._keys.get(int(notification_id))
        if key is None:  # another app's, or ours before its answer: the newest few are kept
            self._unclaimed[int(notification_id)] = action
            if len(self._unclaimed) > UNCLAIMED_CLICKS:
                del self._unclaimed[next(iter(self._unclaimed))]
        if key is not None and action == "default":
            for listener in self._listeners:
                listener(key)
        elif key is not None:
            for action_listener in self._action_listeners:
                action_listener(key, str(action))

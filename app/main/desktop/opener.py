"""Handing a file to the user's desktop beyond "open with the default app": the application chooser of
xdg-desktop-portal (`org.freedesktop.portal.OpenURI.OpenFile` with `ask`) and the file manager showing
the file in its folder (`org.freedesktop.FileManager1.ShowItems`), over the session bus (jeepney, as
the notifications).

Ownership: `DesktopOpener` makes one short call per click, in a worker thread (the file is passed to the
portal as a descriptor, which jeepney sends only on its blocking connection). Which file may be handed
over is decided before, by the attachment service (the reference re-resolved on the click); this module
never chooses a path. When the desktop has no such service (no session bus, no portal, no file manager:
a bare session, not Linux) a call answers False and the window falls back to the default app, or to
opening the folder. Nothing here raises to its caller."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

PORTAL = "org.freedesktop.portal.Desktop"
PORTAL_PATH = "/org/freedesktop/portal/desktop"
OPEN_URI = "org.freedesktop.portal.OpenURI"
FILE_MANAGER = "org.freedesktop.FileManager1"
FILE_MANAGER_PATH = "/org/freedesktop/FileManager1"
CALL_TIMEOUT_S = 5.0  # a service that does not answer is taken as none


class DesktopOpener:
    def __init__(self, bus: str = "SESSION") -> None:
        self._bus = bus

    async def choose_app(self, path: str) -> bool:
        """Ask the desktop which application opens `path` (its chooser); False when there is no portal."""
        return await asyncio.to_thread(self._open_file, path)

    async def show_in_folder(self, path: str) -> bool:
        """Show `path` selected in the file manager; False when there is none on the bus."""
        uri = Path(path).as_uri()
        return await asyncio.to_thread(
            self._call, FILE_MANAGER_PATH, FILE_MANAGER, FILE_MANAGER, "ShowItems", "ass", ([uri], ""), False
        )

    def _open_file(self, path: str) -> bool:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)  # the portal takes the file, not a name
        except OSError as error:
            log.info("no application chooser for %s: %s", path, error)
            return False
        try:
            options = {"ask": ("b", True)}
            return self._call(PORTAL_PATH, PORTAL, OPEN_URI, "OpenFile", "sha{sv}", ("", fd, options), True)
        finally:
            os.close(fd)

    def _call(
        self,
        path: str,
        service: str,
        interface: str,
        method: str,
        signature: str,
        body: tuple[object, ...],
        fds: bool,
    ) -> bool:
        """True when the service took the call; False (logged) when there is no bus, no service, or it
        answered with an error."""
        try:
            from jeepney import DBusAddress, MessageType, new_method_call
            from jeepney.io.blocking import open_dbus_connection

            with open_dbus_connection(bus=self._bus, enable_fds=fds) as connection:
                address = DBusAddress(path, bus_name=service, interface=interface)
                message = new_method_call(address, method, signature, body)
                reply = connection.send_and_get_reply(message, timeout=CALL_TIMEOUT_S)
        except Exception as error:  # no bus address, no bus, a bus without fd passing, a timeout
            log.info("no %s on the session bus: %s", service, error)
            return False
        if reply.header.message_type is MessageType.error:
            log.info("%s refused %s: %s", service, method, reply.body)
            return False
        return True


__all__ = ["DesktopOpener"]

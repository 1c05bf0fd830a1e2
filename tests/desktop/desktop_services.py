"""xdg-desktop-portal's OpenURI and the freedesktop FileManager1 for tests, on the bus at argv[1]: it owns
`org.freedesktop.portal.Desktop` and `org.freedesktop.FileManager1`, and prints each call as a JSON
line on stdout (after "ready"): OpenFile with the path its file descriptor names and its options,
ShowItems with its URIs. The desktop's own portal and file manager need a session with a display;
the protocol is the same. Standard library and jeepney only."""

from __future__ import annotations

import json
import os
import sys

from jeepney import MessageType, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection
from jeepney.wrappers import new_method_call

NAMES = ("org.freedesktop.portal.Desktop", "org.freedesktop.FileManager1")


def main() -> None:
    conn = open_dbus_connection(bus=sys.argv[1], enable_fds=True)
    for name in NAMES:
        conn.send_and_get_reply(new_method_call(message_bus, "RequestName", "su", (name, 4)))
    print("ready", flush=True)
    while True:
        message = conn.receive()
        if message.header.message_type is not MessageType.method_call:
            continue
        member = message.header.fields.get(3)  # HeaderFields.member
        if member == "OpenFile":
            _parent, fd, options = message.body
            raw = fd.to_raw_fd()
            path = os.readlink(f"/proc/self/fd/{raw}")
            os.close(raw)
            shown = {key: value[1] for key, value in options.items()}
            print(json.dumps({"call": "OpenFile", "path": path, "options": shown}), flush=True)
            conn.send(new_method_return(message, "o", ("/org/freedesktop/portal/desktop/request/1_1/t",)))
        elif member == "ShowItems":
            uris, startup = message.body
            print(json.dumps({"call": "ShowItems", "uris": uris, "startup": startup}), flush=True)
            conn.send(new_method_return(message))
        else:
            conn.send(new_method_return(message))


if __name__ == "__main__":
    main()

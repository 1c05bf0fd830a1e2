"""A freedesktop notification service for tests, on the bus at argv[1]: it owns
`org.freedesktop.Notifications`, answers GetCapabilities with argv[2] (comma-separated, e.g.
`body,body-markup,actions`), prints each Notify call as a JSON line on stdout (after "ready"), and with
`--click` emits ActionInvoked(id, "default") for each notification, as a desktop does when the user
clicks one; with `--click=ACTION` the button ACTION where the notification has it (else "default").
The desktop's own daemon (GNOME Shell, Plasma, dunst) needs a display; the protocol is the
same. Standard library and jeepney only."""

from __future__ import annotations

import json
import sys

from jeepney import DBusAddress, MessageType, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection
from jeepney.wrappers import new_method_call

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def main() -> None:
    address, capabilities = sys.argv[1], [c for c in sys.argv[2].split(",") if c]
    chosen = [arg.partition("=")[2] or "default" for arg in sys.argv if arg.startswith("--click")]
    click = chosen[0] if chosen else ""
    conn = open_dbus_connection(bus=address)
    conn.send_and_get_reply(new_method_call(message_bus, "RequestName", "su", (SERVICE, 4)))
    emitter = DBusAddress(PATH, interface=SERVICE)
    print("ready", flush=True)
    next_id = 0
    while True:
        message = conn.receive()
        if message.header.message_type is not MessageType.method_call:
            continue
        member = message.header.fields.get(3)  # HeaderFields.member
        if member == "GetCapabilities":
            conn.send(new_method_return(message, "as", (capabilities,)))
        elif member == "Notify":
            next_id += 1
            app, _replaces, _icon, summary, body, actions, _hints, _timeout = message.body
            record = {"id": next_id, "app": app, "summary": summary, "body": body, "actions": actions}
            print(json.dumps(record), flush=True)
            conn.send(new_method_return(message, "u", (next_id,)))
            if click:
                action = click if click in actions[::2] else "default"
                conn.send(new_signal(emitter, "ActionInvoked", "us", (next_id, action)))
        else:
            conn.send(new_method_return(message))


if __name__ == "__main__":
    main()

"""What both ends of the proposal endpoint must agree on: where an app instance's socket lives, which
instance a channel names, and the frame limit.

Only `os` and `sys` (loaded by every Python start anyway): the CLI imports this module and must start
about as fast as a bare Python process, so it cannot import `app.contract.proposals` (dataclasses and
inspect cost more than the whole rest of the CLI). `MAX_FRAME_BYTES` equals the one in `proposals`
(a test pins it)."""

from __future__ import annotations

import os
import sys

MAX_FRAME_BYTES = 49 * 1024  # one request or answer line, its newline (and an optional CR) not counted
SOCKET_DIR_PREFIX = "clawqt-"  # <runtime dir>/clawqt-<uid>/
SOCKET_PREFIX = "p-"  # p-<instance>.sock
# sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs, the terminating NUL included
MAX_SOCKET_PATH_BYTES = 107 if sys.platform.startswith("linux") else 103
_HEX = frozenset("0123456789abcdef")


def _is_hex32(text: str) -> bool:
    return len(text) == 32 and _HEX.issuperset(text)


def channel_instance(channel: str) -> str | None:
    """The instance of a well-formed channel `v1.<instance>.<nonce>` (32 lowercase hex each), else None.
    Written without `re` so the CLI does not pay for it."""
    parts = channel.split(".")
    if len(parts) != 3 or parts[0] != "v1" or not _is_hex32(parts[1]) or not _is_hex32(parts[2]):
        return None
    return parts[1]


def runtime_dir(environ: dict[str, str] | None = None) -> str:
    """$XDG_RUNTIME_DIR when it is an absolute path, else $TMPDIR when absolute (macOS gives every user
    their own), else /tmp. Pure (no writability probe like `tempfile.gettempdir`): the app and the CLI
    it reaches must compute the same answer from the same environment."""
    env = os.environ if environ is None else environ
    for name in ("XDG_RUNTIME_DIR", "TMPDIR"):
        value = env.get(name, "")
        if value and os.path.isabs(value):
            return os.path.normpath(value)
    return "/tmp"


def socket_dir(uid: int, environ: dict[str, str] | None = None) -> str:
    """The per-user directory holding every instance's socket (0700, the user's own)."""
    return os.path.join(runtime_dir(environ), f"{SOCKET_DIR_PREFIX}{uid}")


def socket_path(instance: str, uid: int | None = None, environ: dict[str, str] | None = None) -> str:
    """`<runtime dir>/clawqt-<uid>/p-<instance>.sock`; `uid` defaults to the calling process's. POSIX
    only: on Windows the endpoint will be a named pipe limited to the user (not built yet)."""
    if not _is_hex32(instance):
        raise ValueError(f"an instance is 32 lowercase hex digits, not {instance!r}")
    if uid is None:
        getuid = getattr(os, "getuid", None)
        if getuid is None:
            raise OSError(
                "the proposal endpoint needs a POSIX system (a Windows named pipe is not built yet)"
            )
        uid = getuid()
    return os.path.join(socket_dir(uid, environ), f"{SOCKET_PREFIX}{instance}.sock")

"""What the platform can tell about an accepted loopback connection and about this process's
descriptors. Facts only: `loopback_admission` decides what to do with them.

- The user owning the other end of a TCP connection: on Linux the kernel's socket table answers one
  query for the peer's address and port through sock_diag (netlink), in microseconds whatever the number
  of sockets. /proc/net/tcp lists the same owner column, but the kernel writes the whole table on every
  read (9 ms at 2,200 sockets): one read per accepted connection made a flood of connections quadratic.
  Elsewhere there is no such lookup short of walking every process's sockets (macOS: libproc for each
  pid; Windows: the TCP table's pid, then that process's token), so the check is skipped there.
- How many more descriptors this process may open: the soft RLIMIT_NOFILE minus the descriptors listed
  in /proc/self/fd (Linux) or /dev/fd (macOS). Unknown elsewhere (Windows has no such limit).
"""

from __future__ import annotations

import os
import socket
import struct
import sys
from typing import Literal

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

# The peer cannot be looked up here (not Linux, or the kernel refuses sock_diag): nothing is known.
UNCHECKED: Literal["unchecked"] = "unchecked"
# The table shows this end of the connection but not the peer's: the peer has closed its socket already.
GONE: Literal["gone"] = "gone"
PeerOwner = int | Literal["unchecked", "gone"]

_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_HEADER = struct.Struct("=IHHII")  # nlmsghdr: length, type, flags, sequence, port id
_REQUEST = struct.Struct("=BBBxI")  # inet_diag_req_v2: family, protocol, extensions, states
_SOCKET_ID = struct.Struct("!HH16s16s")  # inet_diag_sockid: ports and addresses in network order
_ID_TAIL = struct.Struct("=III")  # interface, cookie (both words ~0: "no cookie")
_MESSAGE_TAIL = struct.Struct("=IIIII")  # inet_diag_msg after its id: expires, queues, uid, inode
_ALL_STATES = 0xFFFFFFFF
_NO_COOKIE = 0xFFFFFFFF
_FD_LISTINGS = {"linux": "/proc/self/fd", "darwin": "/dev/fd"}  # elsewhere /dev/fd may show only 0-2
_FD_LISTING = _FD_LISTINGS.get("linux" if sys.platform.startswith("linux") else sys.platform)


class PeerOwners:
    """Finds the user owning the other end of an accepted loopback TCP connection. Used from one thread
    (the server's loop); `close()` releases its netlink socket."""

    def __init__(self) -> None:
        self._netlink = _open_sock_diag()
        self._sequence = 0

    @property
    def available(self) -> bool:
        return self._netlink is not None

    def owner_of_peer(self, conn: socket.socket) -> PeerOwner:
        """The peer's uid, `GONE` when it already closed its end, `UNCHECKED` when this platform or kernel
        cannot tell."""
        if self._netlink is None:
            return UNCHECKED
        try:
            ours, theirs = conn.getsockname(), conn.getpeername()
        except OSError:  # reset before it was accepted
            return GONE
        found = self._lookup(conn.family, theirs, ours)
        if found is not None:
            return found
        # the peer's end is not in the table: gone, unless the table cannot show our own end either
        return GONE if self._lookup(conn.family, ours, theirs) is not None else UNCHECKED

    def close(self) -> None:
        if self._netlink is not None:
            self._netlink.close()
            self._netlink = None

    def _lookup(self, family: int, local: tuple, remote: tuple) -> PeerOwner | None:
        """The owner of the TCP socket whose own address is `local` and whose peer is `remote`: its uid,
        `GONE` when no process holds it any longer (inode 0: closed, waiting out its last packets),
        None when the table has no such socket or the query failed."""
        assert self._netlink is not None
        self._sequence = (self._sequence + 1) & 0xFFFFFFFF
        try:
            packed = _socket_id(family, local, remote)
            body = _REQUEST.pack(family, socket.IPPROTO_TCP, 0, _ALL_STATES) + packed
            size = _HEADER.size + len(body)
            self._netlink.send(
                _HEADER.pack(size, _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, self._sequence, 0) + body
            )
            while True:
                reply = self._netlink.recv(65536)
                if _HEADER.unpack_from(reply)[3] == self._sequence:
                    break
        except OSError:
            return None
        return _owner_in(reply, packed[: _SOCKET_ID.size])


def free_descriptors() -> int | None:
    """How many more descriptors this process may open under its soft RLIMIT_NOFILE; None when that
    cannot be known here (no limit, no listing). The listing's own descriptor is counted as used."""
    limit = descriptor_limit()
    if limit is None or _FD_LISTING is None:
        return None
    try:
        return limit - len(os.listdir(_FD_LISTING))
    except OSError:
        return None


def descriptor_limit() -> int | None:
    """This process's soft RLIMIT_NOFILE, None where there is none."""
    if resource is None:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def _open_sock_diag() -> socket.socket | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_SOCK_DIAG)
    except (OSError, AttributeError):
        return None
    sock.settimeout(1.0)  # the kernel answers while the query is sent; this only guards against a surprise
    return sock


def _socket_id(family: int, local: tuple, remote: tuple) -> bytes:
    """inet_diag_sockid for the socket whose own address is `local` and whose peer is `remote`."""
    return _SOCKET_ID.pack(
        local[1],
        remote[1],
        socket.inet_pton(family, local[0]).ljust(16, b"\0"),
        socket.inet_pton(family, remote[0]).ljust(16, b"\0"),
    ) + _ID_TAIL.pack(0, _NO_COOKIE, _NO_COOKIE)


def _owner_in(reply: bytes, wanted: bytes) -> PeerOwner | None:
    """The owner in a sock_diag reply, if it describes exactly the socket `wanted` names."""
    length, kind = _HEADER.unpack_from(reply)[:2]
    offset = _HEADER.size + 4  # family, state, timer, retransmits
    if kind == _NLMSG_ERROR or length < offset + _SOCKET_ID.size + _ID_TAIL.size + _MESSAGE_TAIL.size:
        return None
    if reply[offset : offset + _SOCKET_ID.size] != wanted:
        return None  # a listening socket or another connection: not the one asked about
    _expires, _rqueue, _wqueue, uid, inode = _MESSAGE_TAIL.unpack_from(
        reply, offset + _SOCKET_ID.size + _ID_TAIL.size
    )
    return GONE if inode == 0 else uid

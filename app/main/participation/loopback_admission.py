"""Which connections the terminal tools' port keeps. The guard (`loopback_guard`) decides who may call;
this module decides who may wait: when a connection is accepted and while it has made no authorized
request, on the server's own loop.

- The peer (Linux): the other end must belong to this process's user (`PeerOwners`). A connection from
  another user's process, or one whose peer has closed already, is closed before a byte of it is read.
- The descriptor reserve: a connection that would leave fewer than `descriptor_reserve()` descriptors
  free under the soft RLIMIT_NOFILE is closed at once, and the oldest silent connection with it: the
  terminals, files and agents of the rest of ClawQt come first.
- Unauthenticated connections (accepted, no authorized request yet) are at most `MAX_UNAUTHENTICATED`.
  A new one past it closes the oldest that has sent nothing; only when none is silent (all are being
  decided) is the new one refused. They never count against authorized calls (`loopback_guard.MAX_CALLS`).
- The request head: a connection is closed when no complete request head arrived within the head
  timeout of its accept or of its previous answer (uvicorn times out only an idle kept-alive connection,
  and any byte stops that timer).

The rules run in `AdmittingSocket.accept`, which asyncio's accept loop calls for each new connection: a
refused one never reaches uvicorn. That loop accepts a whole batch before any of them is set up, so at
most `MAX_SETTING_UP` accepted connections may wait for their protocol; past it the port takes no new
one until the loop has set them up (a turn or two), and a burst never holds descriptors unseen.
"""

from __future__ import annotations

import collections
import errno
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from uvicorn.protocols.http.h11_impl import H11Protocol

from app.main.participation.loopback_guard import AUTHORIZED_HOOK
from app.main.participation.loopback_peer import GONE, PeerOwners, descriptor_limit, free_descriptors

log = logging.getLogger(__name__)

# A loopback client writes its request head right after connecting. 5 s leaves room for a machine under
# heavy load and equals uvicorn's keep-alive timeout: an idle connection, new or kept alive, lasts 5 s.
HEAD_TIMEOUT_SECONDS = 5.0
# Far above what agents open at once (a few per agent, each decided within milliseconds), small beside
# the descriptors a desktop process has (1,024 by default on Linux).
MAX_UNAUTHENTICATED = 32
MAX_SETTING_UP = 8
# An accepted connection asyncio never set up (its transport failed) is forgotten after this long.
SETUP_STALE_SECONDS = 10.0
# Descriptors kept for the rest of ClawQt: every terminal it may run at once (64 for agents and 32 of
# the user's, each a PTY and a pidfd: 192) and 64 for files, agents' pipes and Qt. A quarter of a lower
# limit (macOS starts apps with 256) so the port still takes connections there.
FD_RESERVE = 256

_SILENT_PEEK = socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)
_SENTENCES = {
    "other-user": "closed a connection from another user's process ({detail}) before reading from it",
    "peer-gone": "closed a connection whose client had closed its end already",
    "descriptor-reserve": "closed a new connection: fewer than {detail} descriptors were left for ClawQt",
    "unauthenticated-cap": "closed a new connection: {detail} connections were waiting to be authorized",
    "evicted": "closed the oldest silent connection to make room for a new one",
    "head-timeout": "closed a connection that sent no complete request within {detail} s",
}


def descriptor_reserve(limit: int | None = None) -> int:
    """How many descriptors the port leaves free under the soft limit (`FD_RESERVE`, or a quarter of a
    lower limit)."""
    limit = descriptor_limit() if limit is None else limit
    return FD_RESERVE if limit is None else min(FD_RESERVE, limit // 4)


@dataclass(slots=True)
class _Waiting:
    conn: socket.socket
    accepted: float
    protocol: AdmittingH11Protocol | None = None
    deciding: bool = False  # its request head arrived; the guard is deciding on it


class ConnectionAdmission:
    """The rules above, with the unauthenticated connections in accept order. Used only on the server's
    loop; `refused` counts every connection closed by a rule, by rule."""

    def __init__(
        self,
        peers: PeerOwners,
        head_timeout: float = HEAD_TIMEOUT_SECONDS,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.head_timeout = head_timeout
        self.refused: collections.Counter[str] = collections.Counter()
        self._peers = peers
        self._uid = os.geteuid() if hasattr(os, "geteuid") else None
        self._max = max_unauthenticated
        self._clock = clock
        self._waiting: dict[int, _Waiting] = {}  # by descriptor, oldest first

    @property
    def unauthenticated(self) -> int:
        return len(self._waiting)

    def may_accept(self) -> bool:
        """False while `MAX_SETTING_UP` accepted connections still wait for their protocol."""
        now = self._clock()
        setting_up = 0
        for fd, entry in list(self._waiting.items()):
            if entry.protocol is not None:
                continue
            if now - entry.accepted > SETUP_STALE_SECONDS:
                del self._waiting[fd]
            else:
                setting_up += 1
        return setting_up < MAX_SETTING_UP

    def admit(self, conn: socket.socket) -> str | None:
        """None when `conn` may wait for its request (it is counted from now on), else the rule that
        refuses it; the caller closes it."""
        owner = self._peers.owner_of_peer(conn)
        if owner == GONE:
            return self._refuse("peer-gone")
        if isinstance(owner, int) and self._uid is not None and owner != self._uid:
            return self._refuse("other-user", f"uid {owner}")
        free = free_descriptors()
        reserve = descriptor_reserve()
        if free is not None:
            while free < reserve and self._close_oldest_silent():
                free += 1
            if free < reserve:
                return self._refuse("descriptor-reserve", str(reserve))
        if len(self._waiting) >= self._max and not self._close_oldest_silent():
            return self._refuse("unauthenticated-cap", str(self._max))
        self._waiting[conn.fileno()] = _Waiting(conn, self._clock())
        return None

    def attach(self, fd: int, protocol: AdmittingH11Protocol) -> bool:
        """The connection `fd` is set up; False when it was closed meanwhile (the protocol closes it)."""
        entry = self._waiting.get(fd)
        if entry is None or entry.protocol is not None:
            return False
        entry.protocol = protocol
        return True

    def head_arrived(self, fd: int) -> None:
        entry = self._waiting.get(fd)
        if entry is not None:
            entry.deciding = True

    def authorized(self, fd: int) -> None:
        """The guard admitted a request on `fd`: it no longer counts as unauthenticated."""
        self._waiting.pop(fd, None)

    def timed_out(self, fd: int) -> None:
        if fd in self._waiting:
            self._refuse("head-timeout", f"{self.head_timeout:g}")

    def closed(self, fd: int, protocol: AdmittingH11Protocol) -> None:
        entry = self._waiting.get(fd)
        if entry is not None and entry.protocol is protocol:
            del self._waiting[fd]

    def _close_oldest_silent(self) -> bool:
        """Close the oldest set-up connection that is not being decided and has nothing unread (a client
        that wrote its request does not lose its place to one that wrote nothing). Its descriptor is
        free when this returns: the transport is aborted (it reads and writes no more) and the socket
        closed at once, not on the loop's next turn."""
        for fd, entry in self._waiting.items():
            if entry.deciding or entry.protocol is None or _has_unread(entry.conn):
                continue
            del self._waiting[fd]
            self._refuse("evicted")
            entry.protocol.transport.abort()
            entry.conn.close()
            return True
        return False

    def _refuse(self, rule: str, detail: str = "") -> str:
        self.refused[rule] += 1
        level = logging.WARNING if self.refused[rule] == 1 else logging.DEBUG
        log.log(level, "terminal tools' port: %s", _SENTENCES[rule].format(detail=detail))
        return rule


def _has_unread(conn: socket.socket) -> bool:
    try:
        return bool(conn.recv(1, _SILENT_PEEK))
    except OSError:  # nothing to read yet (BlockingIOError), or reset: either way silent
        return False


class AdmittingSocket(socket.socket):
    """The listening socket. asyncio's accept loop calls `accept`; a connection the rules refuse is closed
    here and the loop stops accepting for this turn (ConnectionAbortedError), as for a client that
    gave up while queued."""

    admission: ConnectionAdmission

    @classmethod
    def wrapping(cls, sock: socket.socket, admission: ConnectionAdmission) -> AdmittingSocket:
        """Takes over `sock`'s descriptor (same family, type and protocol: asyncio sets TCP_NODELAY only
        on connections of an IPPROTO_TCP listener)."""
        made = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        made.admission = admission
        return made

    def accept(self) -> tuple[socket.socket, Any]:
        if not self.admission.may_accept():
            raise BlockingIOError(errno.EAGAIN, "accepted connections are still being set up")
        conn, address = super().accept()
        try:
            refusal = self.admission.admit(conn)
        except BaseException:
            conn.close()
            raise
        if refusal is None:
            return conn, address
        conn.close()
        raise ConnectionAbortedError(errno.ECONNABORTED, refusal)


class AdmittingH11Protocol(H11Protocol):
    """uvicorn's h11 protocol under the rules above: it joins the admission once set up, closes its
    connection when a request head does not arrive in time, and says when a head arrived and when the
    guard authorized a request (through `AUTHORIZED_HOOK` in the request's scope)."""

    def __init__(self, *args: Any, admission: ConnectionAdmission, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._admission = admission
        self._head_timer: Any = None
        self._fd = -1

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        self._fd = sock.fileno() if sock is not None else -1
        if not self._admission.attach(self._fd, self):
            transport.close()
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._admission.closed(self._fd, self)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request head arrived and its request starts
            self._cancel_head_timer()
            cast(dict[str, Any], self.scope)[AUTHORIZED_HOOK] = self._authorized
            self._admission.head_arrived(self._fd)

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._arm_head_timer()  # for the next request; a pipelined head disarms it at once
        super().on_response_complete()

    def _authorized(self) -> None:
        self._admission.authorized(self._fd)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self._admission.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self._admission.timed_out(self._fd)
            self.transport.close()

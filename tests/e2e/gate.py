"""A loopback gate in front of the real gateway for the gateway-restart tests. The bridge and ClawQt reach
the gateway through it; when the test kills the gateway the gate drops every connection and stops
listening (a reconnect is refused, as by a dead gateway), and the test opens it again at a chosen point of
the bridge's reconnect backoff once the restarted gateway is ready. The outage then ends where the old
bridge's next retry is far off (so it stays "not connected" until ClawQt restarts it), not wherever a
gateway start happened to end on a busy machine."""

from __future__ import annotations

import contextlib
import itertools
import socket
import threading
import time

from tests.e2e.gateway import free_port

# When OpenClaw's bridge tries its gateway again after losing it: 1 s, doubling, at most 30 s apart
# (GatewayClient's reconnect policy: initialMs 1000, multiplier 2, maxMs 30000, no jitter), counted from
# the moment its connection dropped.
BRIDGE_RETRIES_S = (1.0, 3.0, 7.0, 15.0, 31.0, 61.0, 91.0)
AFTER_A_RETRY_S = 2.0  # the gate opens this long after one of those retries failed
LONG_GAP_S = 16.0  # and only after one followed by at least this long a wait (ClawQt checks within ~3 s)


class Gate:
    """A TCP forwarder 127.0.0.1:port -> 127.0.0.1:upstream that the test opens and shuts."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream = upstream_port
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._lock = threading.Lock()
        self.shut_at: float | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def open(self) -> Gate:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), name="gate-accept", daemon=True).start()
        return self

    def shut(self) -> None:
        """Refuse new connections and drop the open ones (the bridge sees its gateway go away)."""
        self.shut_at = time.monotonic()
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes the accept thread
            listener.close()
        with self._lock:
            pairs, self._pairs = set(self._pairs), set()
        for pair in pairs:
            _close(*pair)

    def reopen_in_a_long_gap(self) -> float:
        """Open again 2 s after the next retry of the bridge's that is followed by a long wait (call it
        once the restarted gateway is ready); returns when, in seconds after the shut."""
        assert self.shut_at is not None, "the gate was never shut"
        since_shut = time.monotonic() - self.shut_at
        at = next(
            (
                retry + AFTER_A_RETRY_S
                for retry, following in itertools.pairwise(BRIDGE_RETRIES_S)
                if following - retry >= LONG_GAP_S and retry + AFTER_A_RETRY_S >= since_shut
            ),
            None,
        )
        assert at is not None, f"the gateway took {since_shut:.0f} s to come back"
        time.sleep(at - since_shut)  # until the bridge's retry has failed: no event of ours marks it
        self.open()
        return at

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # shut
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream), 5)
            except OSError:
                client.close()  # the gateway is not there: the client sees the connection end
                continue
            pair = (client, upstream)
            with self._lock:
                self._pairs.add(pair)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink, pair), daemon=True).start()

    def _pump(
        self, source: socket.socket, sink: socket.socket, pair: tuple[socket.socket, socket.socket]
    ) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        with self._lock:
            self._pairs.discard(pair)
        _close(*pair)


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()

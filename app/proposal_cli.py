"""`clawqt propose-terminal-actions --channel C --payload-json J`: what an agent runs to propose terminal
actions to the ClawQt window that sent its prompt.

It connects to that app instance's endpoint (the socket path derived from the channel's instance,
`app.contract.proposal_wire`), sends one request line and prints exactly the lines ClawQt answers:
the validation line, then (only after `accepted`) the final line, each flushed at once so the agent can
read the first while the user still decides. stdout carries nothing else; diagnostics go to stderr.

Exit status: 0 a protocol-complete answer (a rejection too), 2 a usage error, 1 a transport error (no
endpoint, the connection lost before an answer was complete, an answer that is no protocol line).

An agent waits for this process, so it imports only `os`, `sys`, `time`, `socket` and `json` (no Qt, no
app modules beyond the wire module)."""

from __future__ import annotations

import json
import os
import socket
import sys
import time

from app.contract.proposal_wire import MAX_FRAME_BYTES, channel_instance, socket_path

COMMAND = "propose-terminal-actions"
USAGE = f"usage: clawqt {COMMAND} --channel CHANNEL --payload-json JSON"
EXIT_TRANSPORT = 1
EXIT_USAGE = 2
# waits between connection attempts: the app may still be binding its socket; no wait after the last try
BACKOFF_S = (0.05, 0.1, 0.2, 0.4)
CONNECT_TIMEOUT_S = 5.0  # a connect that blocks (a full backlog) gives up after this
VALIDATION_WAIT_S = 15.0  # the app answers within 10 s
FINAL_WAIT_S = 11 * 60.0  # the app ends an unanswered card at 10 minutes (timed_out)
_READ_BOUND = MAX_FRAME_BYTES + 2  # an answer line, an optional CR, the newline


class TransportError(Exception):
    """The exchange could not complete; the message is the one sentence printed on stderr."""


def parse_args(argv: list[str]) -> tuple[str, str]:
    """Exactly `--channel C --payload-json J` (either order, each once, nothing else); ValueError with
    the problem otherwise."""
    if len(argv) != 4:
        raise ValueError("expected exactly --channel CHANNEL --payload-json JSON")
    values: dict[str, str] = {}
    for option, value in ((argv[0], argv[1]), (argv[2], argv[3])):
        if option not in ("--channel", "--payload-json") or option in values:
            raise ValueError(f"unexpected argument {option!r}")
        values[option] = value
    return values["--channel"], values["--payload-json"]


def connect(path: str, backoff: tuple[float, ...] = BACKOFF_S) -> socket.socket:
    """Connect to the endpoint, retrying while it is absent (not bound yet) or refusing (not listening
    yet); sleeps only between tries. Other errors (a folder that is not ours) end at once."""
    attempts = len(backoff) + 1
    for attempt in range(attempts):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(CONNECT_TIMEOUT_S)
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
        except OSError as error:
            sock.close()
            reason = error.strerror or str(error)
            raise TransportError(f"cannot reach ClawQt's proposal endpoint at {path}: {reason}") from error
        if attempt < len(backoff):
            time.sleep(backoff[attempt])
    waited = sum(backoff)
    raise TransportError(
        f"no ClawQt is listening at {path} (tried {attempts} times over {waited:.2f} s): the window that "
        "sent this prompt has closed or restarted"
    )


class _LineReader:
    """Bounded line reads from the socket, each within a deadline."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def line(self, timeout: float) -> bytes | None:
        """The next line without its newline (or a CR before it); None at end of stream."""
        deadline = time.monotonic() + timeout
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                line = line[:-1] if line.endswith(b"\r") else line
                if len(line) > MAX_FRAME_BYTES:
                    raise TransportError(f"ClawQt answered a line longer than {MAX_FRAME_BYTES} bytes")
                return line
            if len(self.buffer) >= _READ_BOUND:
                raise TransportError(f"ClawQt answered a line longer than {MAX_FRAME_BYTES} bytes")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TransportError(f"ClawQt did not answer within {timeout:.0f} s")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(_READ_BOUND - len(self.buffer))
            except TimeoutError:
                continue  # the deadline check above ends it
            except OSError as error:
                raise TransportError(f"the connection to ClawQt broke: {error.strerror or error}") from error
            if not chunk:
                return None
            self.buffer += chunk


def _answer(line: bytes, phase: str) -> dict:
    try:
        answer = json.loads(line)
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or answer.get("phase") != phase:
        raise TransportError(f"ClawQt's answer is not a {phase} line")
    return answer


def _emit(line: bytes) -> None:
    out = sys.stdout.buffer
    out.write(line + b"\n")
    out.flush()


def exchange(path: str, request: bytes) -> None:
    """Connect, send the request, print the validation line and, after `accepted`, the final line."""
    sock = connect(path)
    try:
        try:
            sock.settimeout(CONNECT_TIMEOUT_S)
            sock.sendall(request)
        except OSError:
            pass  # ClawQt may have answered (a refused frame) and closed: the answer is still readable
        reader = _LineReader(sock)
        first = reader.line(VALIDATION_WAIT_S)
        if first is None:
            raise TransportError("ClawQt closed the connection without answering")
        validation = _answer(first, "validation")
        _emit(first)
        if validation.get("status") != "accepted":
            return
        second = reader.line(FINAL_WAIT_S)
        if second is None:
            raise TransportError("ClawQt closed the connection before the final answer")
        _answer(second, "final")
        _emit(second)
    finally:
        sock.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        channel, payload = parse_args(args)
        instance = channel_instance(channel)
        if instance is None:
            raise ValueError("--channel must be v1.<32 hex>.<32 hex>, as the prompt gave it")
        request = {"version": 1, "channel": channel, "payload": payload}
        try:
            frame = json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("--payload-json is not valid UTF-8 text") from None
    except ValueError as problem:
        print(f"clawqt {COMMAND}: {problem}\n{USAGE}", file=sys.stderr)
        return EXIT_USAGE
    try:
        exchange(socket_path(instance), frame + b"\n")
    except TransportError as error:
        print(f"clawqt {COMMAND}: {error}", file=sys.stderr)
        return EXIT_TRANSPORT
    except BrokenPipeError:  # the agent stopped reading: nobody to print for, also not at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"clawqt {COMMAND}: the output was closed before the answer could be printed", file=sys.stderr)
        return EXIT_TRANSPORT
    except OSError as error:  # no POSIX uid (Windows), stdout closed by the reader, ...
        print(f"clawqt {COMMAND}: {error.strerror or error}", file=sys.stderr)
        return EXIT_TRANSPORT
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How a client terminal's process runs on a pseudo-terminal, per platform.

- `PosixPty` (Linux, macOS): `ptyprocess`, the child in its own session and process group, output read
  by the event loop when the PTY's descriptor is readable, kill = SIGKILL to the whole group.
- `ThreadedPty`: for PTYs that only offer a blocking `read()` (Windows' ConPTY/winpty through `pywinpty`):
  a daemon thread reads and hands each chunk to the event loop. It is exercised on Linux too, around a
  `ptyprocess` child, so its logic is tested even where pywinpty cannot be installed.

Both report the exit as (code, signal name) and never leave a reader behind after `close()`."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any, Protocol

from app.main.core.process_tree import wait_exited

READ_CHUNK = 65536
Exit = tuple[int | None, str | None]  # (exit code, signal name)


class PtyHandle(Protocol):
    pid: int

    def start(self, on_data: Callable[[bytes], None], on_eof: Callable[[], None]) -> None: ...

    async def wait(self) -> Exit: ...

    def write(self, data: bytes) -> None: ...

    def resize(self, rows: int, columns: int) -> None: ...

    def kill(self) -> None: ...

    def close(self) -> None: ...


def _exit_of(proc: Any) -> Exit:
    sig = getattr(proc, "signalstatus", None)
    if sig is not None:
        return None, signal.Signals(sig).name
    code = getattr(proc, "exitstatus", None)
    return (code if isinstance(code, int) else None), None


def _wait_quietly(proc: Any) -> None:
    with contextlib.suppress(Exception):
        proc.wait()


async def _wait_exit(proc: Any) -> Exit:
    """Wait for the child off the loop (a blocking wait), then its (code, signal)."""
    await asyncio.get_running_loop().run_in_executor(None, _wait_quietly, proc)
    return _exit_of(proc)


def _kill_group(pid: int) -> None:
    """SIGKILL to the child's whole process group (its own session: nothing else is in it)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class PosixPty:
    def __init__(self, proc: Any) -> None:
        self.proc = proc
        self.pid: int = proc.pid
        self._reading = False

    def start(self, on_data: Callable[[bytes], None], on_eof: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        os.set_blocking(self.proc.fd, False)

        def readable() -> None:
            try:
                data = os.read(self.proc.fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:  # EIO: the other side of the PTY is gone
                data = b""
            if data:
                on_data(data)
                return
            self._stop_reading()
            on_eof()

        loop.add_reader(self.proc.fd, readable)
        self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            self._reading = False
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.proc.fd)

    async def wait(self) -> Exit:
        """Without a thread: a child that closed its terminal and kept running must not hold a worker
        of the shared pool (file reads and previews wait on it)."""
        await wait_exited(self.pid, self.proc.isalive)
        _wait_quietly(self.proc)  # it has exited: this reaps it without blocking
        return _exit_of(self.proc)

    def write(self, data: bytes) -> None:
        """What the user typed, as the terminal's keyboard (raises OSError once the child is gone)."""
        os.write(self.proc.fd, data)

    def resize(self, rows: int, columns: int) -> None:
        """The terminal's new size (the child gets SIGWINCH); ignored once the PTY is closed."""
        with contextlib.suppress(OSError, ValueError):
            self.proc.setwinsize(rows, columns)

    def kill(self) -> None:
        _kill_group(self.pid)

    def close(self) -> None:
        """Close the PTY; a child still running is killed with its group. Never sleeps or raises:
        ptyprocess's own close() gives a killed child no time to die, then raises."""
        self._stop_reading()
        proc = self.proc
        if proc.closed:
            return
        proc.closed = True  # ptyprocess's close() (also run from its __del__) is never used
        with contextlib.suppress(OSError):
            proc.fileobj.close()
        if _alive(proc):
            _kill_group(self.pid)  # reaped by whoever waits for it (`wait`), else when ClawQt exits


def _alive(proc: Any) -> bool:
    try:
        return bool(proc.isalive())
    except Exception:  # already reaped elsewhere: nothing to end
        return False


class ThreadedPty:
    """A PTY read by a thread. `proc` needs a blocking `read(n)` (bytes or str) that raises EOFError
    at the end, `wait()` or `isalive()`, and `exitstatus`; `kill` ends the whole process tree."""

    def __init__(self, proc: Any, kill: Callable[[], None]) -> None:
        self.proc = proc
        self.pid: int = proc.pid
        self._kill = kill
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, on_data: Callable[[bytes], None], on_eof: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()

        def deliver(callback: Callable[..., None], *args: Any) -> None:
            if not self._closed.is_set():
                with contextlib.suppress(RuntimeError):  # the loop closed while the app quit
                    loop.call_soon_threadsafe(callback, *args)

        def pump() -> None:
            while not self._closed.is_set():
                try:
                    chunk = self.proc.read(READ_CHUNK)
                except (EOFError, OSError):
                    break
                if isinstance(chunk, str):
                    chunk = chunk.encode("utf-8", "surrogateescape")
                if chunk:
                    deliver(on_data, chunk)
            deliver(on_eof)

        self._thread = threading.Thread(target=pump, name=f"pty-reader-{self.pid}", daemon=True)
        self._thread.start()

    async def wait(self) -> Exit:
        return await _wait_exit(self.proc)

    def write(self, data: bytes) -> None:
        try:
            self.proc.write(data)  # ptyprocess takes bytes
        except TypeError:
            self.proc.write(data.decode("utf-8", "replace"))  # pywinpty takes str

    def resize(self, rows: int, columns: int) -> None:
        with contextlib.suppress(Exception):  # ptyprocess and pywinpty both name it setwinsize
            self.proc.setwinsize(rows, columns)

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self._kill()

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(Exception):
            self.proc.close(force=True)


def exec_problem(argv: list[str], env: dict[str, str]) -> str:
    """Why `argv` with `env` cannot be executed ("" when it can). Checked BEFORE the fork: the PTY
    library's forked child turns only OSError into a failure the parent sees; a ValueError there (a NUL
    byte) would leave a second copy of ClawQt running in the child."""
    if not argv or not isinstance(argv[0], str) or not argv[0]:
        return "no command"
    for arg in argv:
        if not isinstance(arg, str):
            return f"an argument is not text ({type(arg).__name__})"
        if "\0" in arg:
            return "an argument contains a NUL character"
    for name, value in env.items():
        if not isinstance(name, str) or not name or "=" in name or "\0" in name:
            return f"the environment variable name {name!r} is not allowed"
        if not isinstance(value, str) or "\0" in value:
            return f"the value of the environment variable {name!r} is not allowed"
    return ""


# Dispositions a child must not inherit: Python ignores SIGPIPE (a shell's `yes | head` would print
# "Broken pipe"), and a parent started in the background ignores SIGINT/SIGQUIT (Ctrl-C would do nothing
# in the terminal). Ignored signals survive exec; handlers do not.
_RESET_SIGNALS = ("SIGPIPE", "SIGXFSZ", "SIGINT", "SIGQUIT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGHUP")


def _default_signals() -> None:
    """In the forked child, before exec: every signal a terminal program expects at its default."""
    for name in _RESET_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())


def spawn_pty(argv: list[str], cwd: str, env: dict[str, str], dimensions: tuple[int, int]) -> PtyHandle:
    """Start `argv` on a PTY for this platform (raises OSError / ImportError when it cannot)."""
    problem = exec_problem(argv, env)
    if problem:
        raise OSError(errno.EINVAL, problem)
    if sys.platform == "win32":  # pragma: no cover - no Windows machine runs the tests yet
        from winpty import PtyProcess as WinPtyProcess  # pywinpty

        proc = WinPtyProcess.spawn(subprocess.list2cmdline(argv), cwd=cwd, env=env, dimensions=dimensions)
        return ThreadedPty(proc, kill=lambda: proc.terminate(force=True))
    from ptyprocess import PtyProcess

    return PosixPty(
        PtyProcess.spawn(argv, cwd=cwd, env=env, dimensions=dimensions, preexec_fn=_default_signals)
    )


def spawn_threaded_posix(
    argv: list[str], cwd: str, env: dict[str, str], dimensions: tuple[int, int]
) -> PtyHandle:
    """The threaded reader around a POSIX PTY: how the Windows path is tested on Linux."""
    from ptyprocess import PtyProcess

    proc = PtyProcess.spawn(argv, cwd=cwd, env=env, dimensions=dimensions, preexec_fn=_default_signals)
    return ThreadedPty(proc, kill=lambda: _kill_group(proc.pid))

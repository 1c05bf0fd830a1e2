"""Toad (`batrachian-toad`, a terminal ACP client) beside ClawQt in `memory`: its resident memory on its
start screen, settled, read from /proc while it runs on a pseudo-terminal of 120 x 40.

`python -m bench.toad install` puts it in .cache/toad (git-ignored): a virtual environment of the newest
Python >= 3.13 found, and Toad from PyPI. Every Toad release asks for Python 3.14; with an older Python
it is installed past that (`--ignore-requires-python`) and each of its modules gets `from __future__
import annotations`, the one part of 3.14 its start needs (annotations evaluated when asked for, PEP
649), which the install notes. Without it, `memory` says Toad is not installed and how to install it."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import REPO

HOME = REPO / ".cache" / "toad"
NOTE = HOME / "installed.json"
QUIET_S = 3.0  # no output this long: the start screen is drawn
START_DEADLINE_S = 60.0
SHIM = "from __future__ import annotations\n"


def idle_mb(argv: list[str], env: dict[str, str], columns: int = 120, rows: int = 40) -> float:
    """The resident memory (MB) of `argv` run on a pseudo-terminal, once its output has been quiet for
    QUIET_S (the median of five readings); the process is ended after. RuntimeError if it exits first."""
    import fcntl
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: the program on the terminal
        os.execvpe(argv[0], argv, env)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        started = last = time.monotonic()
        seen = 0
        while time.monotonic() - started < START_DEADLINE_S:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    raise RuntimeError(f"{argv[0]} ended before it settled")
                seen, last = seen + len(data), time.monotonic()
            elif seen and time.monotonic() - last > QUIET_S:
                break
        readings = []
        for _ in range(5):
            readings.append(_resident_mb(pid))
            time.sleep(0.2)  # a reading's interval
        return sorted(readings)[2]
    finally:
        _end(pid)
        os.close(fd)


def _resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024


def _end(pid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
            time.sleep(0.05)  # the wait's interval


def measured() -> tuple[float | None, str]:
    """Toad's idle memory and what it ran on, or None and why not."""
    if not NOTE.exists():
        return None, "Toad not installed (python -m bench.toad install)"
    note = json.loads(NOTE.read_text())
    with tempfile.TemporaryDirectory() as folder:  # its settings and state stay out of the user's
        env = {**os.environ, "HOME": folder, "XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder}
        env.update(TERM="xterm-256color", XDG_DATA_HOME=folder, XDG_CACHE_HOME=folder)
        mb = idle_mb([str(HOME / "bin" / "toad")], env)
    shim = " + annotations shim" if note["shim"] else ""
    return mb, f"Toad {note['toad']} on Python {note['python']}{shim}"


def _python() -> tuple[Path, str]:
    """The newest Python >= 3.13 that runs, found on PATH or in pyenv, and its version."""
    names = [f"python3.{minor}" for minor in (16, 15, 14, 13)]
    pyenv = Path.home() / ".pyenv" / "versions"
    found = [Path(p) for name in names if (p := shutil.which(name))]
    found += sorted(pyenv.glob("3.1[3-9]*/bin/python3"), reverse=True) if pyenv.exists() else []
    for python in found:  # a pyenv shim of a version not selected exits at once
        asked = [str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]
        done = subprocess.run(asked, capture_output=True, text=True)
        if done.returncode == 0:
            return python, done.stdout.strip()
    raise SystemExit("bench.toad: no Python >= 3.13 found (Toad asks for 3.14)")


def install() -> None:
    python, version = _python()
    shutil.rmtree(HOME, ignore_errors=True)
    subprocess.run([str(python), "-m", "venv", str(HOME)], check=True)
    shim = tuple(int(p) for p in version.split(".")) < (3, 14)
    pip = [str(HOME / "bin" / "python"), "-m", "pip", "install", "-q", "batrachian-toad"]
    subprocess.run(pip + (["--ignore-requires-python"] if shim else []), check=True)
    site = next((HOME / "lib").glob("python3.*/site-packages"))
    if shim:
        for module in (site / "toad").rglob("*.py"):
            text = module.read_text(encoding="utf-8")
            if SHIM not in text:
                module.write_text(SHIM + text, encoding="utf-8")
    toad = next(site.glob("batrachian_toad-*.dist-info")).name.removesuffix(".dist-info").split("-")[1]
    NOTE.write_text(json.dumps({"toad": toad, "python": version, "shim": shim}))
    print(f"bench.toad: Toad {toad} in {HOME} (Python {version}{', annotations shim' if shim else ''})")


if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        raise SystemExit("usage: python -m bench.toad install")
    install()

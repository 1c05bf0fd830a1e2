"""A private D-Bus session bus (Debian's `dbus-daemon`) with the test notification service on it, for
tests of what ClawQt sends the desktop. Nothing of the machine's own session is touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SERVER = Path(__file__).with_name("notification_server.py")
DESKTOP = Path(__file__).with_name("desktop_services.py")


@pytest.fixture
def session_bus(tmp_path: Path) -> Iterator[str]:
    """The address of a fresh session bus, ended after the test."""
    if shutil.which("dbus-daemon") is None:
        pytest.fail("dbus-daemon is missing: install Debian's dbus-daemon (it ships with the dbus package)")
    socket = tmp_path / "bus"
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", f"--address=unix:path={socket}", "--print-address=1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().strip()
    assert address.startswith("unix:"), address
    yield address
    daemon.kill()
    daemon.wait()


class _ServiceProcess:
    """A test service on a bus, in its own process: started until it says "ready", then each JSON
    line it prints is one call it was made."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready"
        os.set_blocking(self.process.stdout.fileno(), False)
        self._seen: list[dict[str, Any]] = []

    def calls(self) -> list[dict[str, Any]]:
        assert self.process.stdout is not None
        for line in self.process.stdout.readlines():
            self._seen.append(json.loads(line))
        return list(self._seen)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class NotificationService(_ServiceProcess):
    """The test notification service running on a bus; `shown()` reads what it was sent."""

    def __init__(self, address: str, capabilities: str, click: bool | str = False) -> None:
        """`click`: True clicks each notification, an action's id chooses that button where it has it."""
        flag = f"--click={click}" if isinstance(click, str) else "--click"
        super().__init__([sys.executable, str(SERVER), address, capabilities, *([flag] if click else [])])

    def shown(self) -> list[dict[str, Any]]:
        return self.calls()

    def wait_shown(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.shown()) < count:
            assert time.monotonic() < deadline, f"{count} notifications not shown: {self._seen}"
            time.sleep(0.02)  # the poll's interval
        return self.shown()


class DesktopServices(_ServiceProcess):
    """The test portal and file manager on a bus; `calls()` reads what they were asked."""

    def __init__(self, address: str) -> None:
        super().__init__([sys.executable, str(DESKTOP), address])

"""A real OpenClaw gateway on loopback with a scratch state directory, a random token and the fake
model as its provider. Every process it starts is stopped by its id (the whole process group) at
teardown, even when a test fails."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.e2e.openclaw_env import OpenClawEnv

READY_TIMEOUT_S = 60.0
READY = re.compile(r"\[gateway\] ready$", re.M)  # the log's line for each start and in-place restart
HOT_RELOAD = "config hot reload applied"  # the log's line for each config change taken in place


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gateway_config(model_base_url: str | None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """OpenClaw config: the fake model as the only provider (or no model at all)."""
    config: dict[str, Any] = {}
    if model_base_url is not None:
        config["models"] = {
            "providers": {
                "local": {
                    "baseUrl": model_base_url,
                    "apiKey": "x",
                    "api": "openai-completions",
                    "models": [
                        {
                            "id": "fake-model",
                            "name": "Fake model",
                            "input": ["text"],
                            "contextWindow": 120000,
                            "maxTokens": 4096,
                        }
                    ],
                }
            }
        }
        config["agents"] = {"defaults": {"model": {"primary": "local/fake-model"}}}
    for key, value in (extra or {}).items():
        node = config
        *parents, leaf = key.split(".")
        for parent in parents:
            node = node.setdefault(parent, {})
        node[leaf] = value
    return config


class Gateway:
    def __init__(self, env: OpenClawEnv, state_dir: Path, config: dict[str, Any]) -> None:
        self.env = env
        self.state = state_dir
        self.state.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.token_file = self.state / "gateway.token"
        self.token_file.write_text(self.token)
        os.chmod(self.token_file, 0o600)
        self.config_path = self.state / "openclaw.json"
        # keep the gateway's own log inside the scratch dir (its default is /tmp/openclaw/)
        config = {
            **config,
            "logging": {**config.get("logging", {}), "file": str(self.state / "openclaw.log")},
        }
        self.config_path.write_text(json.dumps(config, indent=1))
        self.log_path = self.state / "gateway.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0  # how many times it was ready (a bridge from before a restart lost it)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def process_env(self) -> dict[str, str]:
        """What the gateway and the bridge both need: the same state dir, Node 24 first on PATH."""
        return {
            "HOME": str(self.state),
            "OPENCLAW_HOME": str(self.state),
            "OPENCLAW_STATE_DIR": str(self.state),
            "OPENCLAW_CONFIG_PATH": str(self.config_path),
            "OPENCLAW_NO_RESPAWN": "1",
            "OPENCLAW_DISABLE_BONJOUR": "1",
            "OPENCLAW_SKIP_CHANNELS": "1",
            "PATH": self.env.path_env(),
        }

    def agent_argv(self, url: str | None = None) -> tuple[str, ...]:
        """`openclaw acp` on this gateway (or on `url`, a gate in front of it)."""
        return (str(self.env.openclaw), "acp", "--url", url or self.url, "--token-file", str(self.token_file))

    def start(self) -> Gateway:
        env = {**os.environ, **self.process_env()}
        readies = self.readies()
        argv = [
            str(self.env.openclaw),
            "gateway",
            "run",
            "--allow-unconfigured",
            "--bind",
            "loopback",
            "--port",
            str(self.port),
            "--auth",
            "token",
            "--token",
            self.token,
        ]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                argv,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the gateway exited with {self.proc.returncode}:\n{self.log_tail()}")
            # ready, not only listening: a config written between the two failed its start ("prepared
            # model runtime publication was superseded") and every later test of the worker with it
            if self.readies() > readies:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.5):
                    self.starts += 1
                    return self
            time.sleep(0.2)  # the poll's interval
        self.stop()
        raise RuntimeError(f"the gateway was not ready within {READY_TIMEOUT_S:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """Kill the whole process group by id and reap it."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.proc = None

    def restart(self) -> Gateway:
        """Start again on the same port, token and state (the bridge reconnects to the same URL)."""
        self.stop()
        return self.start()

    def kill_now(self) -> None:
        """SIGKILL mid-turn (the "gateway died" scenario)."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)
            self.proc = None

    def configure(self, config: dict[str, Any], timeout_s: float = 30.0) -> None:
        """Write a new config (atomically, as `openclaw config set` does) and wait until the running
        gateway took it: in place (a hot reload) or by restarting itself (a new agent roster does)."""
        before = self.applied()
        scratch = self.config_path.with_name(self.config_path.name + ".tmp")
        scratch.write_text(json.dumps(config, indent=1))
        os.replace(scratch, self.config_path)
        deadline = time.monotonic() + timeout_s
        while self.applied() <= before and time.monotonic() < deadline:
            time.sleep(0.1)  # the poll's interval
        assert self.applied() > before, self.log_tail()

    def _log_text(self) -> str:
        """The gateway's log so far, without its colour codes ("" before it wrote one)."""
        try:
            return re.sub(r"\x1b\[[0-9;]*m", "", self.log_path.read_text(errors="replace"))
        except OSError:
            return ""

    def applied(self) -> int:
        """Config changes the gateway took so far: hot reloads and in-place restarts ("ready")."""
        text = self._log_text()
        return text.count(HOT_RELOAD) + len(READY.findall(text))

    def readies(self) -> int:
        """How many times the gateway said it was ready (each start, each in-place restart)."""
        return len(READY.findall(self._log_text()))

    def hot_reloads(self) -> int:
        """How many config changes the running gateway has applied in place so far (it watches its
        config file and logs each one): a turn that starts while one is being applied fails."""
        return self._log_text().count(HOT_RELOAD)

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


@contextlib.contextmanager
def running_gateway(env: OpenClawEnv, state_dir: Path, config: dict[str, Any]) -> Iterator[Gateway]:
    """A started gateway for a fixture; a start failure fails the test with the gateway's log."""
    import pytest

    gateway = Gateway(env, state_dir, config)
    try:
        gateway.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield gateway
    finally:
        gateway.stop()

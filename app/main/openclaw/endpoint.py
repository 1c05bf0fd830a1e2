"""Where OpenClaw's Gateway is and how to sign in to it, found the way the `openclaw acp` bridge finds
it, so ClawQt's transcript reader talks to the same Gateway as the agent it runs (never another one).

Order (as OpenClaw 2026.9.6 resolves it): `--url`, else `OPENCLAW_GATEWAY_URL`, else the config's
`gateway.remote.url` when `gateway.mode` is "remote", else `ws://127.0.0.1:<port>` with the port from
`OPENCLAW_GATEWAY_PORT`, the config's `gateway.port`, or 18789. The token: `--token-file`, `--token`,
`OPENCLAW_GATEWAY_TOKEN`, then the config (`gateway.remote.token` for a remote Gateway, else
`gateway.auth.token`); a password the same way. The config file: `OPENCLAW_CONFIG_PATH`, else
`$OPENCLAW_STATE_DIR/openclaw.json`, else `~/.openclaw/openclaw.json`. Secrets that are references
(objects) are not resolved: then there is simply no supplement.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.main.files.regular_files import read_user_file

DEFAULT_PORT = 18789
MAX_SECRET_FILE_BYTES = 16 * 1024  # a token file is a line; anything larger is not one
MAX_CONFIG_BYTES = 4 * 1024 * 1024

# What ClawX gives an embedded OpenClaw child: no self re-spawn under a new PID (the app tracks and
# stops the process it started), the embedder's name, and no login-shell snapshot for exec.
EMBEDDING_ENV = {
    "OPENCLAW_NO_RESPAWN": "1",
    "OPENCLAW_EMBEDDED_IN": "clawqt",
    "OPENCLAW_EXEC_SHELL_SNAPSHOT": "0",
}


@dataclass(frozen=True)
class GatewayEndpoint:
    """A Gateway's WebSocket URL and shared secret. `repr` never shows the secret."""

    url: str
    token: str | None = None
    password: str | None = None

    def __repr__(self) -> str:
        secret = "token" if self.token else "password" if self.password else "none"
        return f"GatewayEndpoint({self.url!r}, auth={secret})"

    @property
    def http_base(self) -> str:
        """The same host over HTTP(S): where `/api/chat/media/outgoing/...` lives."""
        if self.url.startswith("wss://"):
            return "https://" + self.url[len("wss://") :].rstrip("/")
        return "http://" + self.url.split("://", 1)[-1].rstrip("/")


def is_openclaw_acp(argv: tuple[str, ...] | list[str]) -> bool:
    """`openclaw acp ...` (any path to the `openclaw` program, or `openclaw.mjs` run by node)."""
    words = [w for w in argv if w]
    for index, word in enumerate(words[:-1]):
        name = word.replace("\\", "/").rsplit("/", 1)[-1]
        if name in ("openclaw", "openclaw.mjs", "openclaw.cmd", "openclaw.exe") and words[index + 1] == "acp":
            return True
    return False


def embedding_env(argv: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The embedding variables for an OpenClaw agent child, nothing for any other agent."""
    return dict(EMBEDDING_ENV) if is_openclaw_acp(argv) else {}


def _option(argv: list[str], name: str) -> str | None:
    """`--name VALUE` or `--name=VALUE` (the last one wins, as commander does)."""
    found = None
    for index, word in enumerate(argv):
        if word == name and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith(name + "="):
            found = word[len(name) + 1 :]
    return found


def _read_small(path: str) -> str | None:
    try:
        data = read_user_file(os.path.expanduser(path), MAX_SECRET_FILE_BYTES)
    except OSError:  # also a FIFO or a device named as the token file: never a hang
        return None
    text = data.decode("utf-8", "replace").strip()
    return text or None


def config_path(env: Mapping[str, str]) -> Path:
    if env.get("OPENCLAW_CONFIG_PATH"):
        return Path(os.path.expanduser(env["OPENCLAW_CONFIG_PATH"]))
    if env.get("OPENCLAW_STATE_DIR"):
        return Path(os.path.expanduser(env["OPENCLAW_STATE_DIR"])) / "openclaw.json"
    home = env.get("OPENCLAW_HOME") or env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".openclaw" / "openclaw.json"


def read_gateway_config(path: Path) -> dict[str, Any]:
    """The config's `gateway` object; {} when missing, too large, or not plain JSON (JSON5 with
    comments is read by OpenClaw but not here: then only flags and environment count)."""
    try:
        data = json.loads(read_user_file(path, MAX_CONFIG_BYTES))
    except (OSError, ValueError):
        return {}
    gateway = data.get("gateway") if isinstance(data, dict) else None
    return gateway if isinstance(gateway, dict) else {}


def _text(node: Any, *path: str) -> str | None:
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node.strip() if isinstance(node, str) and node.strip() else None


def resolve_endpoint(argv: tuple[str, ...] | list[str], env: Mapping[str, str]) -> GatewayEndpoint | None:
    """The Gateway the `openclaw acp` command line would use, or None for any other agent."""
    if not is_openclaw_acp(argv):
        return None
    words = list(argv)
    gateway = read_gateway_config(config_path(env))
    remote = gateway.get("mode") == "remote"
    url = _option(words, "--url") or (env.get("OPENCLAW_GATEWAY_URL") or "").strip() or None
    if url is None and remote:
        url = _text(gateway, "remote", "url")
    if url is None:
        port = (env.get("OPENCLAW_GATEWAY_PORT") or "").strip() or gateway.get("port") or DEFAULT_PORT
        url = f"ws://127.0.0.1:{port}"
    token_file = _option(words, "--token-file")
    token = (
        (_read_small(token_file) if token_file else None)
        or _option(words, "--token")
        or (env.get("OPENCLAW_GATEWAY_TOKEN") or "").strip()
        or _text(gateway, "remote" if remote else "auth", "token")
    )
    password_file = _option(words, "--password-file")
    password = (
        (_read_small(password_file) if password_file else None)
        or _option(words, "--password")
        or (env.get("OPENCLAW_GATEWAY_PASSWORD") or "").strip()
        or _text(gateway, "remote" if remote else "auth", "password")
    )
    return GatewayEndpoint(url, token or None, password or None)

"""An npm agent that needs a newer Node than the one on PATH (app/main/agents/node_runtime.py): the
real OpenClaw from npm (engines.node >=24.16) installed on a machine whose Node is older gets Node's
official build from npm beside it first (OpenClaw's install script refuses Node 20), and its launcher
starts it with that Node (`openclaw --version` on Node 20: "node:sqlite is unavailable"); an agent
needing the same range later reuses it."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.main.agents.installs import Installs
from app.main.agents.node_runtime import PRIVATE, node_for, parse_version, satisfies
from app.main.agents.registry import parse_registry
from tests.e2e.openclaw_env import OPENCLAW_VERSION

OPENCLAW_NODE = ">=24.16.0 <25 || >=26.1.0"


def _path_node() -> tuple[int, int, int] | None:
    node = shutil.which("node")
    if node is None:
        return None
    return parse_version(subprocess.run([node, "--version"], capture_output=True, text=True).stdout)


@pytest.mark.skipif(
    (_path_node() or (0, 0, 0)) >= (24, 16, 0),
    reason="the Node on PATH is new enough for OpenClaw: nothing to install beside it",
)
def test_openclaw_installed_with_an_old_node_on_path_starts_with_a_node_clawqt_installed(
    tmp_path: Path,
) -> None:
    entry = {
        "id": "openclaw",
        "name": "OpenClaw",
        "version": OPENCLAW_VERSION,
        "distribution": {"npx": {"package": f"openclaw@{OPENCLAW_VERSION}", "args": ["acp"]}},
    }
    (agent,), _ = parse_registry(json.dumps({"agents": [entry]}).encode())
    installs, lines = Installs(tmp_path), []
    said = asyncio.run(installs.install(agent, lines.append))
    assert said == "", "\n".join(lines[-20:])
    assert any(f"is not what the agent needs ({OPENCLAW_NODE}): installing Node for it." in x for x in lines)
    (profile,) = installs.profiles()
    assert profile.argv[1:] == ("acp",)
    (checked,) = installs.installed()  # `openclaw acp` needs its gateway: installed, and said so
    assert checked.answered is False and "ECONNREFUSED" in checked.check_note
    version = subprocess.run([profile.argv[0], "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.startswith(f"OpenClaw {OPENCLAW_VERSION}"), version.stderr[-500:]
    (kept,) = (tmp_path / "installed-agents" / PRIVATE).iterdir()
    node = next(kept.glob("node_modules/node-*/bin/node"))
    found = parse_version(subprocess.run([node, "--version"], capture_output=True, text=True).stdout)
    assert found is not None and satisfies(found, OPENCLAW_NODE)

    # another agent needing the same Node: the one kept is used, nothing is installed again
    lines.clear()
    npm = shutil.which("npm") or "npm"
    assert asyncio.run(node_for(OPENCLAW_NODE, tmp_path / "installed-agents", npm, lines.append)) == str(node)
    assert len(lines) == 1 and "kept by ClawQt" in lines[0]

"""An npx agent installed with npm into a private prefix (no global change): the package's program,
started by the Node on PATH when it is new enough for the package, else by a launcher naming a Node
ClawQt installed for it (node_runtime.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from app.contract.registry import RegistryAgent
from app.main.agents.install_kinds import InstallError, Progress, npm_install, npm_spec, run_logged, tool
from app.main.agents.node_runtime import node_for, write_launcher


async def install_npx(agent: RegistryAgent, folder: Path, progress: Progress) -> Path:
    """npm into `folder` (its own node_modules, no global change); the package's program."""
    name, spec = npm_spec(agent)
    npm = tool("npm", "install Node.js (18 or later, with npm) to install agents from npm.")
    asked = [npm, "view", "--json", spec, "engines.node"]
    said = await run_logged(asked, progress, cwd=folder, what=f"Reading {spec} from npm")
    node = await node_for(_engines_node("\n".join(said)), folder.parent.parent, npm, progress)
    env = (
        None
        if node is None
        else {**os.environ, "PATH": f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    )
    await npm_install(
        npm, folder, spec, progress, what=f"npm install {spec}", env=env
    )  # scripts on that Node
    program = npm_program(folder, name, agent.cmd)
    return program if node is None else write_launcher(folder, node, program)


def _engines_node(said: str) -> str:
    """`npm view --json <spec> engines.node`'s answer: a range, "" when the package names none."""
    try:
        value = json.loads(said) if said.strip() else ""
    except ValueError:
        return ""
    if isinstance(value, list):  # several versions matched: the last is the one installed
        value = value[-1] if value else ""
    return value.strip() if isinstance(value, str) else ""


def npm_program(folder: Path, name: str, cmd: str) -> Path:
    """The installed package's program in node_modules/.bin: `cmd` when the registry names one, else
    the package's only program or the one named like it."""
    manifest = folder / "node_modules" / name / "package.json"
    try:
        declared = json.loads(manifest.read_text(encoding="utf-8")).get("bin")
    except (OSError, ValueError) as exc:
        raise InstallError(f"npm installed {name} without a readable package.json ({exc}).") from None
    base = name.rsplit("/", 1)[-1]
    programs = {base: declared} if isinstance(declared, str) else declared
    if not isinstance(programs, dict) or not programs:
        raise InstallError(f'The npm package {name} has no program to start (no "bin").')
    chosen = cmd or (base if base in programs else next(iter(programs)) if len(programs) == 1 else "")
    if chosen not in programs:
        names = ", ".join(sorted(programs))
        raise InstallError(f"The npm package {name} has no program {chosen or base!r} (it has {names}).")
    program = folder / "node_modules" / ".bin" / chosen
    if not program.exists():
        raise InstallError(f"npm did not link {chosen} into {program.parent}.")
    return program

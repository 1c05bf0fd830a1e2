"""How each kind of registry agent is put into a folder of its own (installs.py owns the folders): an
npx package with npm into a private prefix (npm_agents.py), a uvx package into a private venv (uv when
it is on PATH, else Python's venv and pip), a binary downloaded (download.py) and unpacked. Each
returns the program that starts the agent, inside the folder. Every tool's output goes to the progress
log line by line, and a cancelled install stops the tool's whole process group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from app.contract.registry import RegistryAgent

Progress = Callable[[str], None]
PYTHON_ENV_VAR = "CLAWQT_AGENT_PYTHON"  # the Python a uvx agent's venv is made with
PYTHONS = ("python3.14", "python3.13", "python3.12", "python3.11", "python3.10", "python3")
KEPT_LINES = 200  # of a tool's output returned to its caller (the whole goes to the log)
NPM_NAME = re.compile(r"^(@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*$", re.IGNORECASE)
PYPI_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9_,.-]+\])?$")
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_-]*$")


class InstallError(Exception):
    """Why an install failed, in one sentence the user can act on."""


def npm_spec(agent: RegistryAgent) -> tuple[str, str]:
    """The npm package's name and the exact `name@version` to install (the registry's version when the
    package names none)."""
    package = agent.package
    at = package.rfind("@")
    name, version = (package[:at], package[at + 1 :]) if at > 0 else (package, "")
    version = version or agent.version
    if not NPM_NAME.match(name) or not VERSION.match(version or "x") or version in ("latest", ""):
        raise InstallError(f"The registry names an npm package ClawQt cannot install: {package!r}.")
    return name, f"{name}@{version}"


def pypi_spec(agent: RegistryAgent) -> tuple[str, str]:
    """The PyPI project's name and the `name==version` requirement (uvx's `name@version` read too)."""
    package = agent.package
    name, _, version = package.replace("==", "@").partition("@")
    version = version or agent.version
    if not PYPI_NAME.match(name) or not version or not VERSION.match(version):
        raise InstallError(f"The registry names a Python package ClawQt cannot install: {package!r}.")
    return name, f"{name}=={version}"


async def run_logged(
    argv: list[str], progress: Progress, *, cwd: Path, what: str, env: dict[str, str] | None = None
) -> list[str]:
    """`argv` run in `cwd`, each line of its output (stdout and stderr) handed to `progress` and the
    last KEPT_LINES returned; a non-zero exit an InstallError naming `what` with the output's last
    lines; cancelled, its whole process group is killed before the cancellation goes on."""
    progress(f"$ {' '.join(argv)}")
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=str(cwd),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    tail: list[str] = []
    try:
        assert process.stdout is not None
        async for raw in process.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                progress(line)
                tail.append(line)
                del tail[:-KEPT_LINES]
        code = await process.wait()
    except BaseException:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            await asyncio.shield(process.wait())
        raise
    if code != 0:
        said = " / ".join(tail[-3:]) or "no output"
        raise InstallError(f"{what} failed (exit code {code}): {said}")
    return tail


def tool(name: str, why: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise InstallError(f"{name} is not on PATH: {why}")
    return found


async def npm_install(
    npm: str, folder: Path, spec: str, progress: Progress, *, what: str, env: dict[str, str] | None = None
) -> None:
    """`spec` into `folder`'s own node_modules (a package.json of its own: nothing global changes)."""
    (folder / "package.json").write_text('{"private": true}\n', encoding="utf-8")
    argv = [npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(folder), spec]
    await run_logged(argv, progress, cwd=folder, what=what, env=env)


def find_python() -> str:
    """The Python a uvx agent's venv is made with: CLAWQT_AGENT_PYTHON, else the newest on PATH."""
    chosen = os.environ.get(PYTHON_ENV_VAR, "").strip()
    if chosen:
        return chosen
    for name in PYTHONS:
        found = shutil.which(name)
        if found is not None:
            return found
    raise InstallError(f"No Python 3 is on PATH to install Python agents with (or set {PYTHON_ENV_VAR}).")


async def install_uvx(agent: RegistryAgent, folder: Path, progress: Progress) -> Path:
    """A venv in `folder` with the package and its dependencies; the package's program in it."""
    name, requirement = pypi_spec(agent)
    venv = folder / "venv"
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    uv = shutil.which("uv")
    if uv is not None:
        await run_logged([uv, "venv", str(venv)], progress, cwd=folder, what="Making the agent's venv")
        install = [uv, "pip", "install", "--python", str(python), requirement]
    else:
        base = find_python()
        await run_logged(
            [base, "-m", "venv", str(venv)], progress, cwd=folder, what=f"Making a venv with {base}"
        )
        install = [str(python), "-m", "pip", "install", "--disable-pip-version-check", requirement]
    await run_logged(install, progress, cwd=folder, what=f"Installing {requirement}")
    program = python.parent / (agent.cmd or name.split("[", 1)[0])
    if not program.exists():
        raise InstallError(f"{requirement} installed no program {program.name!r}.")
    return program

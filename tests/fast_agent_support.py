"""Install and locate fast-agent (PyPI `fast-agent-mcp`, pinned) for the tests that run it: a virtual
environment of its own in `.cache/fast-agent/`, made with a Python >= 3.12 the machine has (fast-agent
needs it; ClawQt's own venv may be 3.11), its dependencies pinned too
(tests/agents/fast_agent/constraints.txt, a `pip freeze`). Installed like the other real agents
(tests/real_agents_support.py: a lock, a stamp, a staging directory swapped in whole, a
RealAgentSetupError that says what to do)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.install_cache import tail
from tests.paths import TESTS
from tests.real_agents_support import CACHE, InstalledAgent, RealAgentSetupError, _digest, _install, _run

FAST_AGENT_PACKAGE = "fast-agent-mcp"
FAST_AGENT_VERSION = "0.10.48"
FAST_AGENT_CONSTRAINTS = TESTS / "agents" / "fast_agent" / "constraints.txt"
FAST_AGENT_CACHE = CACHE / "fast-agent"
FAST_AGENT_PYTHONS = ((3, 12), (3, 13), (3, 14), (3, 15))  # fast-agent-mcp 0.10.48: >=3.12,<3.16
PYTHON_ENV_VAR = "CLAWQT_FAST_AGENT_PYTHON"  # an explicit interpreter for fast-agent's venv


@dataclass(frozen=True)
class PythonFound:
    executable: str
    version: tuple[int, int, int]


def _probe_python(candidate: str) -> tuple[PythonFound | None, str]:
    """Run `candidate`; what it is, or None and why it does not fit (pyenv shims of versions that are
    not selected fail here, which is why every candidate is run rather than trusted by name)."""
    code = (
        "import sys, venv, ensurepip; "
        "print(sys.executable); print(*sys.version_info[:3]); print(sys.implementation.name)"
    )
    try:
        result = subprocess.run(
            [candidate, "-c", code], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"{candidate}: cannot run ({exc})"
    if result.returncode != 0:
        reason = tail(result.stderr, 1) or f"exit code {result.returncode}"
        if "ensurepip" in result.stderr or "venv" in result.stderr:
            reason += " (no venv/ensurepip: on Debian install python3.X-venv)"
        return None, f"{candidate}: {reason}"
    lines = result.stdout.split("\n")
    try:
        executable, version, implementation = lines[0], tuple(int(p) for p in lines[1].split()), lines[2]
    except (IndexError, ValueError):
        return None, f"{candidate}: unexpected answer {result.stdout!r}"
    if implementation != "cpython":
        return None, f"{candidate}: {implementation}, not CPython"
    if tuple(version[:2]) not in FAST_AGENT_PYTHONS:
        return None, f"{candidate}: Python {'.'.join(map(str, version))}"
    return PythonFound(executable, version), ""  # type: ignore[arg-type]


def _pyenv_roots() -> list[Path]:
    roots = []
    if os.environ.get("PYENV_ROOT"):
        roots.append(Path(os.environ["PYENV_ROOT"]))
    roots.append(Path.home() / ".pyenv")
    pyenv = shutil.which("pyenv")
    if pyenv:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pyenv, "root"], capture_output=True, text=True, timeout=30, check=False
            ).stdout.strip()
            if out:
                roots.append(Path(out))
    return list(dict.fromkeys(roots))


def python_candidates() -> list[str]:
    """Where a Python for fast-agent may be, in order: the explicit CLAWQT_FAST_AGENT_PYTHON,
    `python3.13`/`python3.12`/... on PATH, then pyenv's installed versions (newest first)."""
    found: list[str] = []
    if os.environ.get(PYTHON_ENV_VAR):
        found.append(os.environ[PYTHON_ENV_VAR])
    for major, minor in sorted(FAST_AGENT_PYTHONS, reverse=True):
        path = shutil.which(f"python{major}.{minor}")
        if path:
            found.append(path)
    for root in _pyenv_roots():
        versions = []
        for major, minor in FAST_AGENT_PYTHONS:
            versions += glob.glob(
                str(root / "versions" / f"{major}.{minor}*" / "bin" / f"python{major}.{minor}")
            )
        found += sorted(versions, reverse=True)
    return list(dict.fromkeys(found))


def find_python_for_fast_agent() -> PythonFound:
    """A CPython the machine has that fast-agent runs on, or a RealAgentSetupError naming what was tried."""
    tried = []
    for candidate in python_candidates():
        python, why = _probe_python(candidate)
        if python is not None:
            return python
        tried.append(why)
    (low, high) = FAST_AGENT_PYTHONS[0], FAST_AGENT_PYTHONS[-1]
    wanted = f"{low[0]}.{low[1]} to {high[0]}.{high[1]}"
    raise RealAgentSetupError(
        f"No Python >= 3.12 was found on this machine, and fast-agent ({FAST_AGENT_PACKAGE} "
        f"{FAST_AGENT_VERSION}) needs one (CPython {wanted}; on Python 3.11 pip silently installs an "
        "ancient 0.2.x instead). Install one (e.g. `apt-get install python3.12 python3.12-venv`, or "
        "`pyenv install 3.12`), put `python3.12` on PATH or set "
        f"{PYTHON_ENV_VAR}=/path/to/python3.12, and rerun the tests. Tried: "
        + ("; ".join(tried) if tried else "nothing (no python3.12+ on PATH, no pyenv versions)")
    )


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def _fast_agent_complete(venv: Path) -> bool:
    python = _venv_python(venv)
    if not python.exists():  # also false when the base interpreter behind the symlink is gone
        return False
    pattern = f"fast_agent_mcp-{FAST_AGENT_VERSION}.dist-info"
    return any(venv.glob(f"lib/python3.*/site-packages/{pattern}")) or any(
        venv.glob(f"Lib/site-packages/{pattern}")
    )


def ensure_fast_agent(cache_dir: Path = FAST_AGENT_CACHE) -> InstalledAgent:
    """Install (or reuse) fast-agent; `argv` runs its CLI (add `fast_agent_args(...)`)."""
    started = time.monotonic()
    python = find_python_for_fast_agent()
    version = ".".join(map(str, python.version))
    stamp = (
        f"{FAST_AGENT_PACKAGE}=={FAST_AGENT_VERSION} cpython{version} {python.executable} "
        f"{_digest(FAST_AGENT_CONSTRAINTS)}"
    )
    hint = (
        f"The tests need PyPI once (later runs reuse {cache_dir}); check `pip download "
        f"{FAST_AGENT_PACKAGE}=={FAST_AGENT_VERSION}` with {python.executable} and your pip index settings."
    )

    def build(staging: Path) -> None:
        _run([python.executable, "-m", "venv", str(staging)], f"Creating a venv with Python {version}", hint)
        _run(
            [
                str(_venv_python(staging)),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-compile",  # its modules compile as they are first imported: half the install's CPU
                f"{FAST_AGENT_PACKAGE}=={FAST_AGENT_VERSION}",
                "--constraint",
                str(FAST_AGENT_CONSTRAINTS),
            ],
            f"Installing {FAST_AGENT_PACKAGE}=={FAST_AGENT_VERSION}",
            hint,
        )
        installed = _run(
            [
                str(_venv_python(staging)),
                "-c",
                f"import fast_agent, importlib.metadata as m; print(m.version({FAST_AGENT_PACKAGE!r}))",
            ],
            "Checking the fast-agent install",
            hint,
        ).strip()
        if installed != FAST_AGENT_VERSION:
            raise RealAgentSetupError(
                f"pip installed {FAST_AGENT_PACKAGE} {installed!r}, not {FAST_AGENT_VERSION}. {hint}"
            )

    installed_now = _install(
        cache_dir, f"fast-agent {FAST_AGENT_VERSION}", stamp, _fast_agent_complete, build
    )
    # the venv was built in a staging directory and renamed: its console scripts' shebangs name the
    # staging path, so the CLI runs as a module of the venv's interpreter (which finds its venv itself)
    return InstalledAgent(
        argv=(str(_venv_python(cache_dir)), "-m", "fast_agent.cli"),
        cache_dir=cache_dir,
        version=FAST_AGENT_VERSION,
        runtime=f"CPython {version} at {python.executable}",
        installed_now=installed_now,
        setup_seconds=round(time.monotonic() - started, 3),
    )


def fast_agent_args(home: Path, model: str = "passthrough", *, shell: bool = True) -> tuple[str, ...]:
    """`fast-agent --no-update-check --home HOME acp --model MODEL [--shell]`: `passthrough` echoes and
    calls a real tool when the prompt reads `***CALL_TOOL <tool> <json args>`; `slow` waits 3 s first;
    `--shell` adds the `execute` tool, run in the client's terminals (terminal/*)."""
    return (
        "--no-update-check",
        "--home",
        str(home),
        "acp",
        "--model",
        model,
        *(("--shell",) if shell else ()),
    )

"""The PyInstaller bundle as a packager ships it, run with no Python and no checkout on PATH: its own
self-test in the real (offscreen) window with the bundled demo agent, every subcommand from the one
executable, the proposal CLI reaching a real endpoint, no path of the build machine inside, every
library it needs present, and its size within the goals."""

from __future__ import annotations

import asyncio
import json
import marshal
import os
import subprocess
import types
import zipfile
from pathlib import Path

import pytest

from app.contract.proposals import ProposalEnvelope, canonical_invocation, compact_payload
from app.main.proposals.service import ProposalService
from app.main.terminals.user import UserTerminals
from app.packaging.build import MB, BuildResult
from app.renderer.timeline.pipeline import HeadlessPipeline
from tests.paths import REPO
from tests.ui.window.test_self_test import assert_self_test_passed
from tests.ui_harness import SCREENSHOTS

pytestmark = [pytest.mark.frozen, pytest.mark.timeout(600)]

MAX_BUNDLE_MB = 200
MAX_TAR_GZ_MB = 80


def clean_env(tmp_path: Path) -> dict[str, str]:
    """A user's environment without Python: no virtualenv, no checkout, no PYTHON* variables."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
    }


def run(bundle: BuildResult, args: list[str], tmp_path: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(bundle.executable), *args],
        capture_output=True,
        text=True,
        timeout=kwargs.pop("timeout", 120),
        cwd=tmp_path,
        env=kwargs.pop("env", clean_env(tmp_path)),
        **kwargs,
    )


def test_the_frozen_self_test_passes_with_the_bundled_demo_agent(bundle, tmp_path):
    shot = SCREENSHOTS / "51-frozen-self-test.png"
    result = run(bundle, ["--cwd", str(tmp_path), "self-test", "--screenshot", str(shot)], tmp_path)
    assert_self_test_passed(result, shot)
    # the default agent is the bundle's own demo agent, and agents are told the bundle's executable
    assert f"proposals: {bundle.executable}\n" in result.stdout
    # the frozen app keeps its files where platformdirs puts them for this user, as the source install
    home = tmp_path / "home"
    assert (home / ".local" / "share" / "clawqt" / "demo-agent" / "sessions").is_dir()
    assert (home / ".local" / "state" / "clawqt" / "log" / "agent-stderr.log").is_file()


async def test_the_frozen_demo_agent_speaks_acp_over_stdio(bundle, make_service, tmp_path):
    service, _envelopes = make_service((str(bundle.executable), "demo-agent"), cwd=str(tmp_path))
    service.subscribe(  # the tour asks one permission: answered as a user would, with the first option
        lambda e: (
            e.kind == "permission_request"
            and service.answer_permission(e.request_id, e.options[0]["optionId"])
        )
    )
    pipeline = HeadlessPipeline(service)
    timeline = await pipeline.new_session()
    result = await asyncio.wait_for(pipeline.prompt(timeline.session_key, "Hello"), 60)
    assert result.stop_reason == "end_turn"
    assert service.agent_info is not None and service.agent_info.name == "clawqt-demo"
    kinds = {i.kind for i in timeline.items.values()}
    assert {"message", "tool", "permission"} <= kinds, kinds


def test_frozen_smoke_replay_and_help_run_from_the_one_executable(bundle, tmp_path):
    smoke = run(bundle, ["--cwd", str(tmp_path), "smoke", "Hello"], tmp_path)
    assert smoke.returncode == 0, smoke.stderr[-2000:]
    assert "That is the whole tour" in smoke.stdout and "[turn ended: end_turn]" in smoke.stderr
    replay = run(
        bundle, ["replay", str(REPO / "tests" / "fixtures" / "openclaw-session.trace.jsonl")], tmp_path
    )
    assert replay.returncode == 0, replay.stderr[-2000:]
    assert "## You" in replay.stdout
    usage = run(bundle, ["--help"], tmp_path)
    for command in ("demo-agent", "replay", "self-test", "propose-terminal-actions", "smoke"):
        assert command in usage.stdout


async def test_the_frozen_proposal_cli_reaches_a_real_endpoint(bundle, tmp_path, monkeypatch):
    """The canonical invocation names the bundle's executable; run as an agent runs it, the frozen CLI
    connects to the app's endpoint, prints `accepted`, and the user's decision as its second line."""
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    envelopes: list = []
    service = ProposalService(terminals, envelopes.append, lambda *turn: True, str(bundle.executable))
    await service.start()
    try:
        assert service.available, service.problem
        terminals.open(None, 0, 80, 24)
        channel = service.prompt_context("chat", 1, "turn").split("--channel ")[1].split(" ")[0]
        payload = {
            "schema_version": 1,
            "origin": "terminal_agent",
            "recommended_choice": 1,
            "choices": [
                {"choice": 1, "title": "t", "rationale": "r", "actions": [{"type": "send", "input": "ls"}]}
            ],
        }
        command = canonical_invocation(str(bundle.executable), channel, compact_payload(payload))
        call = {"toolCallId": "c", "kind": "execute", "rawInput": {"command": command}}
        options = [{"optionId": "once", "kind": "allow_once"}]
        assert service.on_permission("chat", call, options) == "once"
        cli = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", command, stdout=asyncio.subprocess.PIPE, env=clean_env(tmp_path)
        )
        first = json.loads(await asyncio.wait_for(cli.stdout.readline(), 30))
        assert first["status"] == "accepted", first
        card = next(e for e in envelopes if isinstance(e, ProposalEnvelope))
        service.cancel(card.proposal_id)
        second = json.loads(await asyncio.wait_for(cli.stdout.readline(), 15))
        assert second == {"phase": "final", "status": "cancelled", "proposal_id": card.proposal_id}
        assert await asyncio.wait_for(cli.wait(), 15) == 0
    finally:
        await service.stop()
        await terminals.shutdown()


def _strings_of(code: types.CodeType):
    yield code.co_filename
    for constant in code.co_consts:
        if isinstance(constant, str | bytes):
            yield constant if isinstance(constant, str) else constant.decode("latin-1")
        elif isinstance(constant, types.CodeType):
            yield from _strings_of(constant)


def test_no_path_of_the_build_machine_is_in_the_bundle(bundle):
    """Every file, every entry of the executable's archive and every compiled module's file names and
    constants (the archive is compressed: a plain grep would not see inside)."""
    from PyInstaller.archive.readers import CArchiveReader

    forbidden = str(REPO)
    leaks: list[str] = []
    for folder, _dirs, names in os.walk(bundle.bundle):
        for name in names:
            path = Path(folder) / name
            if path.is_symlink():
                continue
            if forbidden.encode() in path.read_bytes():
                leaks.append(str(path.relative_to(bundle.bundle)))
            if name == "base_library.zip":
                with zipfile.ZipFile(path) as zipped:
                    leaks += [
                        f"{name}:{n}" for n in zipped.namelist() if forbidden.encode() in zipped.read(n)
                    ]
    archive = CArchiveReader(str(bundle.executable))
    for entry in archive.toc:
        if entry.endswith(".pyz"):
            modules = archive.open_embedded_archive(entry)
            for module in modules.toc:
                code = modules.extract(module)
                if isinstance(code, types.CodeType) and any(forbidden in s for s in _strings_of(code)):
                    leaks.append(f"{entry}:{module}")
        elif forbidden.encode() in archive.extract(entry):
            leaks.append(f"archive:{entry}")
    assert leaks == [], f"{forbidden} is in: {leaks[:20]}"
    app_cli = archive.open_embedded_archive("PYZ.pyz").extract("app.cli")
    assert app_cli.co_filename == "app/cli.py"  # file names are kept relative: the check reads them
    assert marshal.dumps(app_cli)


def _elf_files(root: Path) -> list[Path]:
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() or not (".so" in name or os.access(path, os.X_OK)):
                continue
            with open(path, "rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def _not_found(paths: list[Path], env: dict[str, str] | None = None) -> dict[str, set[str]]:
    """For each library name ldd cannot find, the binaries that need it."""
    missing: dict[str, set[str]] = {}
    for path in paths:
        listed = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env).stdout
        for line in listed.splitlines():
            if "not found" in line:
                missing.setdefault(line.split()[0], set()).add(path.name)
    return missing


def test_every_library_the_bundle_needs_is_in_it_or_on_the_system(bundle):
    """What the trimming rules dropped was not needed: every library of every binary of the bundle is
    in it or on this machine, except those PySide6 from PyPI itself expects from the desktop and this
    headless machine lacks too (the X11 platform plugin's xcb utility libraries: packaging.md)."""
    import PySide6

    internal = bundle.bundle / "_internal"
    env = {**os.environ, "LD_LIBRARY_PATH": f"{internal}:{internal / 'PySide6' / 'Qt' / 'lib'}"}
    missing = _not_found(_elf_files(internal), env)
    wheel_expects = _not_found(_elf_files(Path(PySide6.__file__).parent / "Qt"))
    assert set(missing) - set(wheel_expects) == set(), {
        n: missing[n] for n in set(missing) - set(wheel_expects)
    }
    assert "libQt6Core.so.6" not in missing and "libpython3.11.so.1.0" not in missing


def test_the_bundle_is_within_its_size_goals(bundle):
    print("\n" + bundle.summary())
    assert bundle.size_bytes <= MAX_BUNDLE_MB * MB, bundle.summary()
    assert bundle.tar_bytes is not None and bundle.tar_bytes <= MAX_TAR_GZ_MB * MB, bundle.summary()
    assert dict(bundle.groups).get("other", 0) < bundle.size_bytes / 4  # the report says what dominates

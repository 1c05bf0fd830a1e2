"""The installs' bookkeeping (app/main/agents/installs.py) with an installer of this test's own (a
program that is a shell script): what a kind ClawQt cannot install says and leaves; two versions kept
at most; a manifest that cannot be read offers nothing and breaks nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from app.contract.registry import RegistryAgent
from app.main.agents.installs import MANIFEST, ROOT, Installs


def _agent(version: str) -> RegistryAgent:
    return RegistryAgent("tool", "Tool", version, "a tool", "npx", package=f"tool@{version}")


async def _script(agent: RegistryAgent, folder: Path, progress) -> Path:
    program = folder / "tool"
    program.write_text(f"#!/bin/sh\necho {agent.version}\n")
    program.chmod(0o755)
    return program


def test_a_kind_clawqt_cannot_install_is_said_and_leaves_nothing(tmp_path: Path) -> None:
    installs = Installs(tmp_path, installers={})
    said = asyncio.run(installs.install(_agent("1"), lambda line: None))
    assert said == "ClawQt cannot install 'npx' agents." and not (tmp_path / ROOT / "tool").exists()


def test_only_the_current_version_and_the_one_before_are_kept(tmp_path: Path) -> None:
    installs = Installs(tmp_path, installers={"npx": _script})
    for version in ("1", "2", "3"):
        assert asyncio.run(installs.install(_agent(version), lambda line: None)) == ""
    kept = sorted(p.name for p in (tmp_path / ROOT / "tool").iterdir() if not p.is_symlink())
    assert kept == ["2", "3"]
    (now,) = installs.installed()
    assert (now.version, now.previous) == ("3", "2")
    assert installs.roll_back("tool") == "" and installs.installed()[0].version == "2"


def test_a_manifest_that_cannot_be_read_offers_nothing(tmp_path: Path) -> None:
    (tmp_path / ROOT).mkdir()
    (tmp_path / ROOT / MANIFEST).write_text("{not json")
    installs = Installs(tmp_path, installers={"npx": _script})
    assert installs.installed() == [] and installs.profiles() == ()
    assert asyncio.run(installs.install(_agent("1"), lambda line: None)) == ""  # written anew
    assert json.loads((tmp_path / ROOT / MANIFEST).read_text())["agents"]["tool"]["version"] == "1"

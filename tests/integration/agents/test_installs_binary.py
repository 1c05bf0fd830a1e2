"""A binary agent installed from a real loopback HTTP server (app/main/agents/download.py): the
platform's archive downloaded, checked against the registry's sha256, unpacked and started (a program
that runs ClawQt's demo agent answers `initialize`); a bad checksum refused with nothing installed; an
archive writing outside its folder refused; a computer the registry has no download for told so."""

from __future__ import annotations

import asyncio
import hashlib
import http.server
import io
import json
import sys
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from app.main.agents.download import this_platform
from app.main.agents.installs import ROOT, Installs
from app.main.agents.registry import parse_registry
from tests.integration.agents.test_installs_npm import initialize
from tests.paths import REPO

PROGRAM = f"#!/bin/sh\ncd {REPO} && exec {sys.executable} -m app demo-agent\n".encode()


class _Files(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        body = self.files.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def tar_gz(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644  # the installer makes the program executable
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def agent_for(url: str, sha256: str, platform: str | None = None, cmd: str = "./bin/demo-agent"):
    target = {"archive": url, "cmd": cmd, "sha256": sha256}
    entry = {
        "id": "demo-binary",
        "name": "Demo binary",
        "version": "1.0.0",
        "description": "ClawQt's demo agent as a download",
        "distribution": {"binary": {platform or this_platform(): target}},
    }
    agents, skipped = parse_registry(json.dumps({"agents": [entry]}).encode())
    assert skipped == 0
    return agents[0]


def test_a_checked_download_is_unpacked_and_starts(tmp_path: Path, server: str) -> None:
    archive = tar_gz({"bin/demo-agent": PROGRAM, "README": b"a demo"})
    _Files.files = {"/demo.tar.gz": archive}
    installs, lines = Installs(tmp_path), []
    agent = agent_for(f"{server}/demo.tar.gz", hashlib.sha256(archive).hexdigest())
    assert asyncio.run(installs.install(agent, lines.append)) == ""
    assert "Checksum matches the registry's." in lines and any(
        line.startswith("Downloaded") for line in lines
    )
    (profile,) = installs.profiles()
    assert initialize(profile.argv)["agentInfo"]["name"]
    assert installs.installed()[0].answered is True


def test_a_bad_checksum_is_refused_and_nothing_is_installed(tmp_path: Path, server: str) -> None:
    archive = tar_gz({"bin/demo-agent": PROGRAM})
    _Files.files = {"/demo.tar.gz": archive}
    installs = Installs(tmp_path)
    agent = agent_for(f"{server}/demo.tar.gz", hashlib.sha256(b"another file").hexdigest())
    said = asyncio.run(installs.install(agent, lambda line: None))
    assert "checksum does not match the registry's" in said and "refused" in said
    assert installs.installed() == [] and not (tmp_path / ROOT / "demo-binary").exists()


def test_an_archive_writing_outside_its_folder_is_refused(tmp_path: Path, server: str) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zipped:
        zipped.writestr("../../escaped", b"x")
        zipped.writestr("bin/demo-agent", PROGRAM)
    _Files.files = {"/demo.zip": out.getvalue()}
    installs = Installs(tmp_path)
    agent = agent_for(f"{server}/demo.zip", hashlib.sha256(out.getvalue()).hexdigest())
    said = asyncio.run(installs.install(agent, lambda line: None))
    assert "outside its folder" in said and installs.installed() == []
    assert not (tmp_path / "escaped").exists() and not (tmp_path / ROOT / "escaped").exists()


def test_no_download_for_this_computer_is_said(tmp_path: Path, server: str) -> None:
    agent = agent_for(f"{server}/demo.tar.gz", "", platform="plan9-mips")
    said = asyncio.run(Installs(tmp_path).install(agent, lambda line: None))
    assert "no download for this computer" in said and "plan9-mips" in said


def test_a_download_address_in_the_clear_is_not_read(tmp_path: Path) -> None:
    entry = {
        "id": "clear",
        "name": "Clear",
        "version": "1",
        "distribution": {"binary": {this_platform(): {"archive": "http://example.com/a.tgz", "cmd": "a"}}},
    }
    agents, skipped = parse_registry(json.dumps({"agents": [entry]}).encode())
    assert agents == () and skipped == 1

"""A binary agent for this machine: its platform's archive downloaded (progress in megabytes, bounded,
cancellable), checked against the registry's sha256 before anything is unpacked, unpacked without
leaving its folder (tar's "data" filter; zip members checked), and its program made executable."""

from __future__ import annotations

import asyncio
import hashlib
import platform
import stat
import sys
import tarfile
import threading
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from app.contract.registry import BinaryTarget, RegistryAgent
from app.main.agents.install_kinds import InstallError, Progress

MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024
CHUNK = 256 * 1024
TIMEOUT_S = 30.0
MACHINES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
SYSTEMS = {"linux": "linux", "darwin": "darwin", "win32": "windows"}

Opener = Callable[[str], object]  # urllib's response for an address (a test's loopback server)


def this_platform() -> str:
    """The registry's name for this machine ("linux-x86_64"), "" when it names none."""
    system = SYSTEMS.get(sys.platform, "")
    machine = MACHINES.get(platform.machine().lower(), "")
    return f"{system}-{machine}" if system and machine else ""


def target_for(agent: RegistryAgent, here: str | None = None) -> BinaryTarget:
    here = this_platform() if here is None else here
    for target in agent.binaries:
        if target.platform == here:
            return target
    offered = ", ".join(t.platform for t in agent.binaries) or "none"
    raise InstallError(
        f"{agent.name} has no download for this computer ({here or 'unknown'}; it has {offered})."
    )


def _download(url: str, into: Path, progress: Progress, stop: threading.Event) -> str:
    """The file at `url` written to `into`; its sha256 (hex)."""
    digest = hashlib.sha256()
    request = urllib.request.Request(url, headers={"User-Agent": "ClawQt"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response, open(into, "wb") as out:
        total = int(response.headers.get("Content-Length") or 0)
        done, said = 0, -1
        while chunk := response.read(CHUNK):
            if stop.is_set():
                raise InstallError("The download was cancelled.")
            done += len(chunk)
            if done > MAX_DOWNLOAD_BYTES:
                raise InstallError(f"The download is larger than {MAX_DOWNLOAD_BYTES // 2**20} MB: refused.")
            digest.update(chunk)
            out.write(chunk)
            tenth = done * 10 // total if total else done // (8 * 2**20)
            if tenth != said:
                said = tenth
                of = f" of {total / 2**20:.1f}" if total else ""
                progress(f"Downloaded {done / 2**20:.1f}{of} MB")
    return digest.hexdigest()


def _unpack(archive: Path, name: str, folder: Path, cmd: str) -> None:
    lower = name.lower()
    if lower.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".tar")):
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
    elif lower.endswith(".zip"):
        with zipfile.ZipFile(archive) as zipped:
            root = folder.resolve()
            for member in zipped.namelist():
                if not (folder / member).resolve().is_relative_to(root):
                    raise InstallError(f"The archive would write outside its folder ({member!r}): refused.")
            zipped.extractall(folder)
    else:  # the program itself
        archive.replace(folder / cmd)


async def install_binary(agent: RegistryAgent, folder: Path, progress: Progress) -> Path:
    """The platform's archive into `folder`, checked and unpacked; the program in it."""
    target = target_for(agent)
    name = target.archive.rsplit("/", 1)[-1].split("?", 1)[0] or "download"
    archive = folder / f".download-{name}"
    stop = threading.Event()
    progress(f"Downloading {target.archive}")
    try:
        digest = await asyncio.to_thread(_download, target.archive, archive, progress, stop)
    except OSError as exc:
        raise InstallError(f"The download failed: {getattr(exc, 'reason', None) or exc}.") from None
    except BaseException:
        stop.set()
        raise
    if target.sha256 and digest != target.sha256:
        archive.unlink(missing_ok=True)
        raise InstallError(
            f"The download's checksum does not match the registry's (sha256 {digest[:16]}..., "
            f"expected {target.sha256[:16]}...): it was refused and deleted."
        )
    progress("Checksum matches the registry's." if target.sha256 else "The registry lists no checksum.")
    try:
        await asyncio.to_thread(_unpack, archive, name, folder, target.cmd)
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        raise InstallError(f"The download could not be unpacked: {exc}.") from None
    finally:
        archive.unlink(missing_ok=True)
    program = (folder / target.cmd).resolve()
    if not program.is_relative_to(folder.resolve()) or not program.is_file():
        raise InstallError(f"The download has no program {target.cmd!r}.")
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return program

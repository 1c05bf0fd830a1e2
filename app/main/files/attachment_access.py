"""Attachment access: the only code that turns a reference from the renderer or an agent (a path or URL
it put in a resource link, a MEDIA line, a user's attachment) into something the app may read or open.

References are untrusted data. Every resolve, read and open starts again from the original reference and
the exact session key + generation it belongs to; a resolution is a description, never a permission, so
a file swapped after it was shown is judged again (and a read checks the opened file is the one resolved).
Rules: ../shared/reference/chat-timeline.md ("Attachments"); reference: acp-attachment-access-control.md."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlsplit

from app.contract.attachments import AttachmentKind as Kind
from app.contract.attachments import Resolution
from app.contract.errors import AttachmentError, Refusal
from app.main.core.paths import within
from app.main.files.confined_open import Changed, open_regular_beneath, place_under
from app.main.files.confined_open import canonical as canonical_path
from app.main.files.regular_files import NotRegular, open_regular, read_at_most

MAX_REFERENCE_CHARS = 4096
MAX_NAME_CHARS = 160
DEFAULT_READ_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class ReadResult:
    resolution: Resolution
    data: bytes
    truncated: bool


# The session a reference must belong to right now: (key, generation) -> its cwd, or None when that
# session is not the one open at that generation any more.
SessionCheck = Callable[[str, int], "str | None"]

_DRIVE_PATH = re.compile(r"^[A-Za-z]:[\\/]")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def display_name(raw: str) -> str:
    """A basename safe to show: control, format (bidi overrides, zero-width) and separator characters
    replaced, whitespace collapsed, at most 160 characters."""
    cleaned = "".join(
        "\ufffd" if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") else ch for ch in raw
    )
    cleaned = " ".join(cleaned.split())
    if len(cleaned) > MAX_NAME_CHARS:
        cleaned = cleaned[: MAX_NAME_CHARS - 1] + "\u2026"
    return cleaned or "attachment"


def identity_of(target: str) -> str:
    return hashlib.sha256(target.encode("utf-8", "surrogatepass")).hexdigest()


def _has_dot_dot(text: str) -> bool:
    for candidate in (text, unquote(text)):
        if any(segment == ".." for segment in re.split(r"[\\/]", candidate)):
            return True
    return False


def basename(path: str) -> str:
    """The last segment of a path or URL, `/` or `\\` separated (the input when there is none)."""
    return re.split(r"[\\/]", path.rstrip("\\/"))[-1] or path


def parse_reference(reference: str, cwd: str | None) -> tuple[Kind | Literal["local"], str]:
    """Syntax only (no file system): ("remote", url) or ("local", absolute path). Raises AttachmentError."""
    if not isinstance(reference, str) or not reference.strip():
        raise AttachmentError(Refusal.INVALID_REFERENCE, "empty")
    if "\x00" in reference or len(reference) > MAX_REFERENCE_CHARS:
        raise AttachmentError(Refusal.INVALID_REFERENCE, "NUL or too long")
    reference = reference.strip()
    if reference.startswith(("\\\\", "//")):
        raise AttachmentError(Refusal.INVALID_REFERENCE, "UNC or network path")
    if _has_dot_dot(reference):
        raise AttachmentError(Refusal.INVALID_REFERENCE, "'..' segment")
    if _DRIVE_PATH.match(reference):
        if os.name != "nt":
            raise AttachmentError(Refusal.UNAVAILABLE, "a Windows path on this system")
        return "local", reference
    scheme_match = _SCHEME.match(reference)
    if scheme_match:
        scheme = scheme_match.group(1).lower()
        try:
            parts = urlsplit(reference)
        except ValueError as exc:
            raise AttachmentError(Refusal.INVALID_REFERENCE, "malformed URL") from exc
        if scheme in ("http", "https"):
            if not parts.hostname or parts.username is not None or parts.password is not None:
                raise AttachmentError(Refusal.UNSAFE_URL, "no host, or credentials in the URL")
            return "remote", reference
        if scheme == "file":
            if parts.username is not None or parts.password is not None:
                raise AttachmentError(Refusal.INVALID_REFERENCE, "credentials in a file URL")
            if (parts.hostname or "") not in ("", "localhost"):
                raise AttachmentError(Refusal.INVALID_REFERENCE, "file URL on another host")
            path = unquote(parts.path)
            if "\x00" in path or _has_dot_dot(path) or path.startswith("//"):
                raise AttachmentError(Refusal.INVALID_REFERENCE, "unsafe file URL path")
            if not path.startswith("/"):
                raise AttachmentError(Refusal.INVALID_REFERENCE, "relative file URL")
            return "local", path
        raise AttachmentError(Refusal.INVALID_REFERENCE, f"scheme {scheme!r} is not allowed")
    if reference.startswith("~/"):
        return "local", os.path.expanduser(reference)
    if os.path.isabs(reference):
        return "local", reference
    if cwd:
        return "local", os.path.join(cwd, reference)
    raise AttachmentError(Refusal.INVALID_REFERENCE, "a relative path without a working directory")


def _open_resolved(resolution: Resolution, cwd: str) -> int:
    """A descriptor of the resolved regular file. One inside the workspace is opened by walking down from
    the workspace folder without following a symlink (`confined_open.py`), so a folder on its path
    swapped for a symlink after resolving cannot make an "inside" card read a file elsewhere; one
    outside (labelled so, read only on the user's action) is opened by path, its last component never
    followed. Raises NotRegular, Changed or OSError."""
    place = place_under([os.path.realpath(cwd)], resolution.target)
    if place is None:
        return open_regular(resolution.target)
    fd, _ = open_regular_beneath(place)
    return fd


class AttachmentAccess:
    """Resolve, read and open attachment references for the session that is current at a generation."""

    def __init__(self, session_check: SessionCheck) -> None:
        self._session_check = session_check

    def _workspace(self, session_key: str, generation: int) -> str:
        cwd = self._session_check(session_key, generation)
        if cwd is None:
            raise AttachmentError(Refusal.STALE_SESSION, "the session changed since this was shown")
        return cwd

    def resolve(self, session_key: str, generation: int, reference: str) -> Resolution:
        return self._resolve(session_key, generation, reference)[0]

    def _resolve(self, session_key: str, generation: int, reference: str) -> tuple[Resolution, str]:
        """The resolution and the session's cwd it was judged against."""
        cwd = self._workspace(session_key, generation)
        kind, where = parse_reference(reference, cwd)
        if kind == "remote":
            name = display_name(unquote(basename(urlsplit(where).path)) or urlsplit(where).hostname or "")
            remote = Resolution(session_key, generation, reference, "remote", where, identity_of(where), name)
            return remote, cwd
        name = display_name(basename(where))
        try:
            canonical = canonical_path(where)
            info = os.stat(canonical)
        except Changed as exc:
            raise AttachmentError(Refusal.UNAVAILABLE, f"{name}: changed while being resolved") from exc
        except OSError as exc:
            raise AttachmentError(Refusal.UNAVAILABLE, f"{name}: {exc.strerror or exc}") from exc
        if stat.S_ISDIR(info.st_mode):
            found: Kind = "directory"
        elif stat.S_ISREG(info.st_mode):
            found = "file"
        else:
            raise AttachmentError(Refusal.NOT_A_FILE, f"{name} is not a regular file")
        outside = not within(canonical, os.path.realpath(cwd))
        size = info.st_size if found == "file" else None
        resolution = Resolution(
            session_key, generation, reference, found, canonical, identity_of(canonical), name, outside, size
        )
        return resolution, cwd

    def read(
        self, session_key: str, generation: int, reference: str, max_bytes: int = DEFAULT_READ_BYTES
    ) -> ReadResult:
        """At most `max_bytes` of a regular file, from the file that was resolved just now: a swap between
        resolve and open (a FIFO, a symlink, a folder of the path swapped for a symlink) is refused."""
        resolution, cwd = self._resolve(session_key, generation, reference)
        if resolution.kind != "file":
            raise AttachmentError(Refusal.NOT_A_FILE, f"{resolution.name} cannot be read in the app")
        try:
            fd = _open_resolved(resolution, cwd)
        except NotRegular:
            raise AttachmentError(
                Refusal.NOT_A_FILE, f"{resolution.name} changed: not a regular file"
            ) from None
        except Changed:
            changed = f"{resolution.name} changed while being opened"
            raise AttachmentError(Refusal.NOT_A_FILE, changed) from None
        except OSError as exc:
            raise AttachmentError(Refusal.OPERATION_FAILED, f"{resolution.name}: {exc.strerror}") from exc
        try:
            data, truncated = read_at_most(fd, max_bytes)
        except OSError as exc:
            raise AttachmentError(Refusal.OPERATION_FAILED, f"{resolution.name}: {exc.strerror}") from exc
        finally:
            os.close(fd)
        self._workspace(session_key, generation)  # the session may have changed while reading
        return ReadResult(resolution, data, truncated)

    def open_target(self, session_key: str, generation: int, reference: str) -> tuple[Resolution, str]:
        """The URL to hand to the system right now (re-resolved: called on the click, not before)."""
        resolution = self.resolve(session_key, generation, reference)
        if resolution.kind == "remote":
            return resolution, resolution.target
        from pathlib import Path

        return resolution, Path(resolution.target).as_uri()

"""What the host API says about files: attachment references as the main side resolved them, previews
it read, and the files a user attaches to a prompt. Plain frozen data; holding one authorizes nothing
(every action re-resolves the original reference on the main side)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AttachmentKind = Literal["file", "directory", "remote"]
PreviewKind = Literal["image", "markdown", "csv", "text", "html", "pdf", "other"]


@dataclass(frozen=True)
class Resolution:
    """What a reference points at, for showing it."""

    session_key: str
    generation: int
    reference: str
    kind: AttachmentKind
    target: str  # canonical path, or the URL as given for remote ones
    identity: str  # sha256 of the canonical target
    name: str  # sanitized display name
    outside_workspace: bool = False
    size: int | None = None


@dataclass(frozen=True)
class Preview:
    """What the preview panel shows: the bytes the main side read (bounded) and how to present them."""

    resolution: Resolution
    kind: PreviewKind
    data: bytes
    truncated: bool
    pages: tuple[bytes, ...] = ()  # a PDF's first pages as PNG
    note: str = ""  # what the main side left out, or why there is no preview


@dataclass(frozen=True)
class PromptAttachment:
    """A file the user attached; `path` is local and absolute."""

    path: str
    mime_type: str | None = None


@dataclass(frozen=True)
class CheckedFile:
    """A file the user may attach, as checked when it was added (checked again when sent)."""

    path: str
    name: str  # sanitized display name
    size: int
    mime_type: str

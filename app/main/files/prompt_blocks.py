"""Turn what the user typed and attached into ACP prompt content blocks and the prompt's `_meta`.

Rules (chat-timeline.md, issue 7): text is trimmed; an empty prompt is one empty text block. Each
attached file becomes a `resource_link`; a small text file is embedded as a `resource` only when the
agent's `promptCapabilities.embeddedContext` allows; an image becomes an image block only when
`promptCapabilities.image` allows, and otherwise the prompt is refused with a clear message (never a
silent drop). `_meta` carries the session key, the client's message id, and `prefixCwd: false` for
slash commands (OpenClaw does not recognise a command behind its `[Working directory: ...]` prefix).
"""

from __future__ import annotations

import base64
import mimetypes
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.contract.attachments import PromptAttachment
from app.contract.errors import PromptRefused
from app.main.files.attachment_access import display_name

MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_EMBED_BYTES = 256 * 1024  # larger text files go as links even when embedding is allowed
MAX_ATTACHMENTS = 20
TEXT_MIME_PREFIXES = ("text/",)
TEXT_MIMES = {"application/json", "application/xml", "application/toml", "application/x-sh"}


@dataclass(frozen=True)
class PromptCapabilities:
    """What the agent said it accepts in a prompt (initialize `promptCapabilities`)."""

    image: bool = False
    embedded_context: bool = False

    @classmethod
    def from_agent(cls, capabilities: dict[str, Any] | None) -> PromptCapabilities:
        prompt = (capabilities or {}).get("promptCapabilities")
        prompt = prompt if isinstance(prompt, dict) else {}
        return cls(image=prompt.get("image") is True, embedded_context=prompt.get("embeddedContext") is True)


ALL_CAPABILITIES = PromptCapabilities(image=True, embedded_context=True)


def guess_mime(path: Path, declared: str | None = None) -> str:
    if path.is_dir():
        return "inode/directory"
    return declared or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def is_text_mime(mime: str) -> bool:
    return mime.startswith(TEXT_MIME_PREFIXES) or mime in TEXT_MIMES


def check_attachment(path: str) -> tuple[Path, int, str]:
    """(path, size, mime) of a file or directory the user may attach, else PromptRefused saying why.
    Run when the file is added (so the chip shows the problem at once) and again when sending."""
    candidate = Path(path)
    name = display_name(candidate.name)
    try:
        info = os.stat(candidate)
    except OSError:
        raise PromptRefused(
            f"The attached file {name!r} no longer exists.", code="attachment-missing"
        ) from None
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        raise PromptRefused(f"{name!r} is not a regular file.", code="attachment-not-a-file")
    mime = guess_mime(candidate)
    if mime.startswith("image/") and info.st_size > MAX_IMAGE_BYTES:
        size_mb, limit_mb = info.st_size / 2**20, MAX_IMAGE_BYTES / 2**20
        too_large = f"The image {name!r} is {size_mb:.1f} MB; the limit is {limit_mb:.0f} MB."
        raise PromptRefused(too_large, code="attachment-too-large")
    return candidate, info.st_size, mime


def attachment_block(attachment: PromptAttachment, caps: PromptCapabilities) -> dict[str, Any]:
    path, size, mime = check_attachment(attachment.path)
    mime = attachment.mime_type or mime
    uri = path.resolve().as_uri()
    name = display_name(path.name)
    if mime.startswith("image/"):
        if not caps.image:
            raise PromptRefused(
                f"This agent does not accept images: remove {name!r} or attach it as a file link.",
                code="attachment-image-unsupported",
            )
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return {"type": "image", "data": data, "mimeType": mime, "uri": uri}
    if caps.embedded_context and is_text_mime(mime) and size <= MAX_EMBED_BYTES:
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            return {"type": "resource", "resource": {"uri": uri, "mimeType": mime, "text": text}}
    block: dict[str, Any] = {"type": "resource_link", "uri": uri, "name": name, "mimeType": mime}
    if mime != "inode/directory":
        block["size"] = size
    return block


def build_prompt_blocks(
    text: str,
    attachments: tuple[PromptAttachment, ...] = (),
    caps: PromptCapabilities = ALL_CAPABILITIES,
) -> list[dict[str, Any]]:
    if len(attachments) > MAX_ATTACHMENTS:
        raise PromptRefused(
            f"{len(attachments)} attachments; at most {MAX_ATTACHMENTS} per message.", code="attachment-count"
        )
    blocks: list[dict[str, Any]] = []
    trimmed = text.strip()
    if trimmed:
        blocks.append({"type": "text", "text": trimmed})
    blocks.extend(attachment_block(a, caps) for a in attachments)
    if not blocks:
        blocks.append({"type": "text", "text": ""})
    return blocks


def build_prompt_meta(session_key: str, client_message_id: str, text: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"sessionKey": session_key, "messageId": client_message_id}
    if text.strip().startswith("/"):
        meta["prefixCwd"] = False
    return meta

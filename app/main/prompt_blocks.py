"""Turn what the user typed and attached into ACP prompt content blocks and the prompt's `_meta`.

Rules (chat-timeline.md): text is trimmed; images become image blocks (base64 + uri); other files
become resource_link; an empty prompt is one empty text block. `_meta` carries the session key, the
client's message id, and `prefixCwd: false` for slash commands (OpenClaw does not recognise a command
behind its `[Working directory: ...]` prefix).
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.main.errors import PromptRefused

MAX_IMAGE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class PromptAttachment:
    """A file the user attached; `path` is local and absolute."""

    path: str
    mime_type: str | None = None


def _guess_mime(path: Path, declared: str | None) -> str:
    return declared or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def attachment_block(attachment: PromptAttachment) -> dict[str, Any]:
    path = Path(attachment.path)
    if not path.is_file():
        raise PromptRefused(f"The attached file {path.name!r} no longer exists.", code="attachment-missing")
    mime = _guess_mime(path, attachment.mime_type)
    uri = path.resolve().as_uri()
    size = path.stat().st_size
    if mime.startswith("image/"):
        if size > MAX_IMAGE_BYTES:
            raise PromptRefused(
                f"The image {path.name!r} is {size / 1e6:.1f} MB; the limit is "
                f"{MAX_IMAGE_BYTES / 1e6:.0f} MB.",
                code="attachment-too-large",
            )
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return {"type": "image", "data": data, "mimeType": mime, "uri": uri}
    return {"type": "resource_link", "uri": uri, "name": path.name, "mimeType": mime, "size": size}


def build_prompt_blocks(text: str, attachments: tuple[PromptAttachment, ...] = ()) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    trimmed = text.strip()
    if trimmed:
        blocks.append({"type": "text", "text": trimmed})
    blocks.extend(attachment_block(a) for a in attachments)
    if not blocks:
        blocks.append({"type": "text", "text": ""})
    return blocks


def build_prompt_meta(session_key: str, client_message_id: str, text: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"sessionKey": session_key, "messageId": client_message_id}
    if text.strip().startswith("/"):
        meta["prefixCwd"] = False
    return meta

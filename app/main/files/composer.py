"""The composer's part of the host API (contract: ComposerFilesHost): files the user attaches are checked
here when added (the chip shows a refusal at once) and again when the prompt is built; pasted images
become real files under the data folder; `@` mentions complete and resolve only inside the session's
folder; thumbnails are made with Pillow off the event loop."""

from __future__ import annotations

import asyncio

from app.contract.attachments import CheckedFile
from app.contract.errors import HostError
from app.main.files.attachment_access import display_name
from app.main.files.prompt_blocks import MAX_ATTACHMENTS, check_attachment
from app.main.files.user_images import make_thumbnail, save_pasted_image
from app.main.files.workspace_files import WorkspaceFiles, mention_target


class ComposerFiles:
    max_attachments = MAX_ATTACHMENTS

    def __init__(self) -> None:
        self._workspace = WorkspaceFiles()

    def check(self, path: str) -> CheckedFile:
        checked, size, mime = check_attachment(path)
        return CheckedFile(str(checked), display_name(checked.name), size, mime)

    def save_pasted_image(self, png: bytes) -> str:
        try:
            return save_pasted_image(png)
        except OSError as exc:
            raise HostError(
                f"The pasted image could not be saved: {exc.strerror}", code="paste-failed"
            ) from exc

    async def thumbnail(self, path: str) -> bytes | None:
        return await asyncio.to_thread(make_thumbnail, path)

    def mention_candidates(self, cwd: str, query: str) -> list[str]:
        return self._workspace.complete(cwd, query)

    def mention_target(self, cwd: str, relative: str) -> str | None:
        return mention_target(cwd, relative)

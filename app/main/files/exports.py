"""Writing what the user exports (a chat as Markdown) to the file they chose in the save dialog. The
write is atomic (a temporary file beside it, then a rename), so a failure never leaves half a file nor
harms a file already there, and it runs off the GUI thread (a long chat is megabytes). The path comes
from the desktop's save dialog, where the user picked it: nothing else decides where it goes."""

from __future__ import annotations

import asyncio
import os

from app.contract.errors import SaveFailed
from app.main.files.atomic import atomic_write_text, default_file_mode


class ChatExports:
    async def save_text(self, path: str, text: str) -> None:
        await save_user_file(path, text)


async def save_user_file(path: str, text: str) -> None:
    """Write `text` where the user chose (an export, a saved trace); SaveFailed says why not."""
    if not path or not os.path.isabs(path):
        raise SaveFailed(f"Choose where to save the file (got {path!r}).")
    await asyncio.to_thread(_write, path, text)


def _write(path: str, text: str) -> None:
    name = os.path.basename(path)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise SaveFailed(f"Could not save {name}: the folder {folder} does not exist.")
    if os.path.isdir(path):
        raise SaveFailed(f"Could not save {name}: a folder of that name is there.")
    try:
        mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else default_file_mode()
        atomic_write_text(path, text, mode)
    except OSError as exc:
        raise SaveFailed(f"Could not save {name}: {exc.strerror or exc}.", details=str(exc)) from exc

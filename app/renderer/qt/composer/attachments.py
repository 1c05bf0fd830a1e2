"""The composer's attachment chips: files added by the dialog, drag-and-drop, paste (images from the
clipboard are saved as files by the main side) and `@` mentions. Every file is checked by the main side
when it is added (a refusal is shown at once, nothing is added) and again when the prompt is built.
Image chips get a thumbnail made with Pillow off the GUI thread; the file name shows on hover."""

from __future__ import annotations

import itertools
import logging
from typing import Any, cast

from PySide6.QtCore import Property, QBuffer, QByteArray, QIODevice, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QGuiApplication, QImage

from app.contract.attachments import PromptAttachment
from app.contract.errors import HostError, PromptRefused
from app.contract.host_api import ComposerFilesHost
from app.renderer.qt.common.desktop_dialog import open_dialog
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession

log = logging.getLogger(__name__)

THUMBNAIL_PROVIDER = "thumb"


_CHIP_IDS = itertools.count(1)  # one sequence for every composer: a thumbnail's id names one chip


class ComposerAttachments(ChatPart):
    changed = Signal()

    def __init__(
        self, host: ComposerFilesHost, session: CurrentSession, ops: Operations, parent: QObject | None = None
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self._chips: list[dict[str, Any]] = []
        self.thumbnails: dict[str, QImage] = {}  # by chip id, served to QML by a MemoryImages provider
        self.dialog: Any = None  # the open file dialog, if any

    def _notify(self, text: str) -> None:
        self._ops.notices.show(text)

    def _cwd(self) -> str | None:
        return self._session.workspace()

    # --- adding ------------------------------------------------------------------------------------
    def add_path(self, path: str) -> bool:
        """Check and add one local file; a refusal is told to the user and nothing is added."""
        if any(chip["path"] == path for chip in self._chips):
            return True
        limit = self._host.max_attachments
        if len(self._chips) >= limit:
            self._notify(f"At most {limit} attachments per message.")
            return False
        try:
            checked = self._host.check(path)
        except PromptRefused as exc:
            self._notify(str(exc))
            return False
        chip_id = str(next(_CHIP_IDS))
        chip = {
            "id": chip_id,
            "path": checked.path,
            "name": checked.name,
            "size": checked.size,
            "mime": checked.mime_type,
            "image": checked.mime_type.startswith("image/"),
            "thumbnail": "",
        }
        self._chips.append(chip)
        self.changed.emit()
        if chip["image"]:
            self._ops.spawn(self._thumbnail(chip_id, str(chip["path"])))
        return True

    async def _thumbnail(self, chip_id: str, path: str) -> None:
        png = await self._host.thumbnail(path)
        chip = next((c for c in self._chips if c["id"] == chip_id), None)
        if png is None or chip is None:
            return
        image = QImage.fromData(png)
        if not image.isNull():
            self.thumbnails[chip_id] = image
            chip["thumbnail"] = f"image://{THUMBNAIL_PROVIDER}/{chip_id}"
            self.changed.emit()

    @Slot()
    def chooseFiles(self) -> None:
        """The Attach button: a file dialog opened in the session's folder (not modal to the loop: the
        chosen files arrive through `filesSelected`)."""
        from PySide6.QtWidgets import QFileDialog

        def make() -> QFileDialog:
            dialog = QFileDialog(None, "Attach files", self._cwd() or "")
            dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
            dialog.filesSelected.connect(lambda files: [self.add_path(path) for path in files])
            return dialog

        self.dialog = open_dialog(self.dialog, make)

    @Slot("QVariantList")
    def addUrls(self, urls: list[Any]) -> None:
        """From the file dialog or a drop: local files only (anything else is named and refused)."""
        for url in urls:
            qurl = url if isinstance(url, QUrl) else QUrl(str(url))
            if not qurl.isLocalFile():
                self._notify(f"Only local files can be attached ({qurl.toDisplayString()[:80]}).")
                continue
            self.add_path(qurl.toLocalFile())

    @Slot(result=bool)
    def pasteFromClipboard(self) -> bool:
        """Ctrl+V in the composer: an image on the clipboard becomes an attachment (saved as a PNG),
        copied files become attachments; plain text is left to the text field (returns False)."""
        mime = QGuiApplication.clipboard().mimeData()
        if mime is None:
            return False
        if mime.hasImage():
            image = QImage(QGuiApplication.clipboard().image())
            if image.isNull():
                return False
            data = QByteArray()
            buffer = QBuffer(data)
            buffer.open(QIODevice.OpenModeFlag.WriteOnly)
            image.save(buffer, cast(bytes, "PNG"))  # PySide6 wants a str here, its stubs say bytes
            buffer.close()
            try:
                path = self._host.save_pasted_image(bytes(data.data()))
            except HostError as exc:
                self._notify(str(exc))
                return True
            self.add_path(path)
            return True
        if mime.hasUrls() and all(url.isLocalFile() for url in mime.urls()):
            self.addUrls(list(mime.urls()))
            return True
        return False

    # --- @ mentions ------------------------------------------------------------------------------
    @Slot(str, result="QVariantList")
    def mentionCandidates(self, query: str) -> list[str]:
        cwd = self._cwd()
        if not cwd:
            return []
        return self._host.mention_candidates(cwd, query)

    @Slot(str)
    def addMention(self, relative: str) -> None:
        cwd = self._cwd()
        if not cwd:
            return
        path = self._host.mention_target(cwd, relative)
        if path is None:
            self._notify("A mention must name a file inside the session's folder.")
            return
        self.add_path(path)

    # --- removing and sending ----------------------------------------------------------------------
    @Slot(str)
    def remove(self, chip_id: str) -> None:
        self._chips = [c for c in self._chips if c["id"] != chip_id]
        self.thumbnails.pop(chip_id, None)
        self.changed.emit()

    def thumbnail(self, chip_id: str) -> QImage:
        return self.thumbnails.get(chip_id, QImage())

    def take(self) -> list[dict[str, Any]]:
        """The chips to send (they also show on the optimistic message); the composer has none after."""
        chips, self._chips = self._chips, []
        self.changed.emit()
        return chips

    def restore(self, chips: list[dict[str, Any]]) -> None:
        """A refused send: the chips come back so nothing the user attached is lost."""
        known = {c["path"] for c in self._chips}
        self._chips = [c for c in chips if c["path"] not in known] + self._chips
        self.changed.emit()

    items = variant_property("QVariantList", lambda self: list(self._chips), notify=changed)
    count = Property(int, lambda self: len(self._chips), notify=changed)


def prompt_attachments(chips: list[dict[str, Any]]) -> tuple[PromptAttachment, ...]:
    """What the host sends for these chips (each file is checked again when the prompt is built)."""
    return tuple(PromptAttachment(chip["path"], chip["mime"]) for chip in chips)

"""Attachment cards and the preview panel, on the view side: card states come from main-side
resolutions of the current session + generation; a click asks the main side again (a resolution shown
on a card authorizes nothing). UI state only: which preview is open and what it shows."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, QSize, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QImage
from PySide6.QtQuick import QQuickImageProvider

from app.main.attachment_access import AttachmentError, display_name
from app.main.attachment_service import AttachmentService, Preview
from app.renderer.preview import preview_html

log = logging.getLogger(__name__)

IMAGE_PROVIDER = "attachment"


def _basename(uri: str) -> str:
    return uri.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] or uri


class AttachmentController(QObject):
    previewChanged = Signal()
    statesChanged = Signal()

    def __init__(
        self, service: AttachmentService, spawn: Callable[[Any], Any], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._spawn = spawn
        self._session: tuple[str, int] | None = None
        self._states: dict[str, dict[str, Any]] = {}
        self._preview: dict[str, Any] = {}
        self._image = QImage()
        self._image_serial = 0
        self.opened_urls: list[str] = []  # what was handed to the system (tests read it)
        self.open_external: Callable[[QUrl], bool] = QDesktopServices.openUrl

    # --- card states ------------------------------------------------------------------------------
    def set_session(self, session_key: str, generation: int) -> None:
        """A new session or generation: every earlier resolution is void (pending ones too)."""
        if self._session != (session_key, generation):
            self._session = (session_key, generation)
            self._states.clear()
            if self._preview:
                self.closePreview()

    def decorate(self, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards with their current state; unseen references start resolving (shown as pending)."""
        out = []
        for attachment in attachments:
            uri = str(attachment.get("uri") or "")
            state = self._states.get(uri)
            if state is None:
                state = self._states[uri] = self._pending(attachment)
                if self._session is not None and uri:
                    self._spawn(self._resolve(self._session, uri))
                elif not uri:
                    state.update(status="unavailable", reason="invalid reference")
            out.append({**attachment, **state})
        return out

    @staticmethod
    def _pending(attachment: dict[str, Any]) -> dict[str, Any]:
        uri = str(attachment.get("uri") or "")
        name = display_name(str(attachment.get("name") or _basename(uri)))
        return {"status": "pending", "name": name, "path": "", "kind": "", "outside": False, "reason": ""}

    async def _resolve(self, session: tuple[str, int], uri: str) -> None:
        key, generation = session
        try:
            resolution = await self._service.resolve(key, generation, uri)
        except AttachmentError as exc:
            if self._session == session and uri in self._states:
                self._states[uri].update(
                    status="unavailable", name=display_name(_basename(uri)), path="", reason=str(exc)
                )
                self.statesChanged.emit()
            return
        if self._session != session or uri not in self._states:
            return  # a generation change while this was pending: dropped
        self._states[uri].update(
            status="available",
            path=resolution.target,
            kind=resolution.kind,
            outside=resolution.outside_workspace,
            reason="",
        )
        self.statesChanged.emit()

    # --- actions ---------------------------------------------------------------------------------------
    @Slot(str)
    def activate(self, uri: str) -> None:
        """A card was clicked (or Enter/Space on it): remote opens in the browser, a local file shows in
        the panel (or an open button when it cannot be previewed)."""
        if self._session is not None:
            self._spawn(self._activate(self._session, uri))

    async def _activate(self, session: tuple[str, int], uri: str) -> None:
        key, generation = session
        state = self._states.get(uri, {})
        if state.get("kind") == "remote":
            await self._open(session, uri)
            return
        try:
            preview = await self._service.preview(key, generation, uri)
        except AttachmentError as exc:
            self._show({"name": display_name(_basename(uri)), "error": str(exc), "uri": uri})
            return
        if self._session == session:
            self._show_preview(uri, preview)

    def _show_preview(self, uri: str, preview: Preview) -> None:
        resolution = preview.resolution
        shown: dict[str, Any] = {
            "uri": uri,
            "name": resolution.name,
            "path": resolution.target,
            "kind": preview.kind,
            "outside": resolution.outside_workspace,
            "canOpen": True,
            "note": "Showing the beginning only (the file is larger)" if preview.truncated else "",
        }
        if preview.kind == "image":
            image = QImage.fromData(preview.data)
            if image.isNull():
                shown.update(kind="other", note="This image could not be decoded.")
            else:
                self._image = image
                self._image_serial += 1
                shown["image"] = f"image://{IMAGE_PROVIDER}/{self._image_serial}"
        elif preview.kind in ("text", "markdown", "csv"):
            body, note = preview_html(preview.kind, resolution.name, preview.data)
            shown["html"] = body
            shown["note"] = " ".join(filter(None, (shown["note"], note)))
        self._show(shown)

    def _show(self, shown: dict[str, Any]) -> None:
        self._preview = shown
        self.previewChanged.emit()

    @Slot(str)
    def openExternally(self, uri: str) -> None:
        if self._session is not None:
            self._spawn(self._open(self._session, uri))

    async def _open(self, session: tuple[str, int], uri: str) -> None:
        key, generation = session
        try:
            url = await self._service.open_target(key, generation, uri)
        except AttachmentError as exc:
            self._show({"name": display_name(_basename(uri)), "error": str(exc), "uri": uri})
            return
        self.opened_urls.append(url)
        if not self.open_external(QUrl(url)):
            self._show({"name": display_name(_basename(uri)), "error": "nothing opened it", "uri": uri})

    @Slot()
    def closePreview(self) -> None:
        self._preview = {}
        self._image = QImage()
        self.previewChanged.emit()

    def image(self) -> QImage:
        return self._image

    preview = Property("QVariantMap", lambda self: self._preview, notify=previewChanged)


class AttachmentImages(QQuickImageProvider):
    """Serves the previewed image from the bytes the main side read (QML never loads the file)."""

    def __init__(self, controller: AttachmentController) -> None:
        super().__init__(QQuickImageProvider.ImageType.Image)
        self._controller = controller

    def requestImage(self, image_id: str, size: QSize, requested: QSize) -> QImage:
        image = self._controller.image()
        if requested.isValid() and not image.isNull():
            image = image.scaled(requested.expandedTo(QSize(1, 1)), Qt.AspectRatioMode.KeepAspectRatio)
        if size is not None:
            size.setWidth(image.width())
            size.setHeight(image.height())
        return image

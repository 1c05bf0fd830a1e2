"""Attachment cards and the preview panel, on the view side: card states come from main-side
resolutions of the current session + generation; a click asks the main side again (a resolution shown
on a card authorizes nothing). UI state only: which preview is open and what it shows."""

from __future__ import annotations

import asyncio
import base64
import binascii
import itertools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QImage

from app.main.attachment_access import AttachmentError, basename, display_name
from app.main.attachment_service import AttachmentService, Preview, preview_kind
from app.main.user_images import make_thumbnail

log = logging.getLogger(__name__)

IMAGE_PROVIDER = "attachment"


MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024


def _decode_data_uri(uri: str) -> QImage | None:
    """A `data:image/...;base64,` image, bounded; None when it is anything else or does not decode."""
    header, _, payload = uri.partition(",")
    if not header.lower().startswith("data:image/") or not header.lower().endswith(";base64"):
        return None
    if len(payload) > MAX_INLINE_IMAGE_BYTES * 4 // 3 + 4:
        return None
    try:
        data = base64.b64decode(payload, validate=False)
    except (binascii.Error, ValueError):
        return None
    image = QImage.fromData(data)
    return None if image.isNull() else image


class AttachmentController(QObject):
    previewChanged = Signal()
    statesChanged = Signal()
    lightboxChanged = Signal()

    def __init__(
        self, service: AttachmentService, spawn: Callable[[Any], Any], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._spawn = spawn
        self._session: tuple[str, int] | None = None
        self._states: dict[str, dict[str, Any]] = {}
        self._preview: dict[str, Any] = {}
        self._images: dict[str, QImage] = {}  # what the image provider serves, by id
        self._serial = itertools.count(1)
        self._inline: dict[str, dict[str, Any]] = {}  # inline image uri -> its state
        self._lightbox = ""
        self.opened_urls: list[str] = []  # what was handed to the system (tests read it)
        self.open_external: Callable[[QUrl], bool] = QDesktopServices.openUrl

    # --- card states ------------------------------------------------------------------------------
    def set_session(self, session_key: str, generation: int) -> None:
        """A new session or generation: every earlier resolution is void (pending ones too)."""
        if self._session != (session_key, generation):
            self._session = (session_key, generation)
            self._states.clear()
            self._inline.clear()
            self._images = {k: v for k, v in self._images.items() if k.startswith("preview-")}
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
        # a native resource outranks compatibility evidence (a MEDIA line, OpenClaw's transcript) naming
        # the same target; the main side's identity also catches `~/x`, relative and file:// spellings
        native = {a["identity"] for a in out if a.get("identity") and a.get("source") == "acp-resource"}
        return [a for a in out if a.get("source") == "acp-resource" or a.get("identity") not in native]

    @staticmethod
    def _pending(attachment: dict[str, Any]) -> dict[str, Any]:
        uri = str(attachment.get("uri") or "")
        name = display_name(str(attachment.get("name") or basename(uri)))
        return {
            "status": "pending",
            "name": name,
            "path": "",
            "kind": "",
            "outside": False,
            "reason": "",
            "thumbnail": "",
            "identity": "",
        }

    async def _resolve(self, session: tuple[str, int], uri: str) -> None:
        key, generation = session
        try:
            resolution = await self._service.resolve(key, generation, uri)
        except AttachmentError as exc:
            if self._session == session and uri in self._states:
                self._states[uri].update(
                    status="unavailable", name=display_name(basename(uri)), path="", reason=str(exc)
                )
                self.statesChanged.emit()
            return
        if self._session != session or uri not in self._states:
            return  # a generation change while this was pending: dropped
        self._states[uri].update(
            status="available",
            identity=resolution.identity,
            path=resolution.target,
            kind=resolution.kind,
            outside=resolution.outside_workspace,
            reason="",
        )
        self.statesChanged.emit()
        if preview_kind(resolution) == "image":
            self._spawn(self._thumbnail(session, uri, resolution.target))

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
            self._show_error(uri, str(exc))
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
                shown["image"] = self._store("preview", image)
        elif preview.kind in ("text", "markdown", "csv"):
            from app.renderer.preview import preview_html  # pygments' lexer tables: not at startup

            body, note = preview_html(preview.kind, resolution.name, preview.data)
            shown["html"] = body
            shown["note"] = " ".join(filter(None, (shown["note"], note)))
        self._show(shown)

    def _show_error(self, uri: str, error: str) -> None:
        """The panel names what failed (by its sanitized basename only) and why."""
        self._show({"name": display_name(basename(uri)), "error": error, "uri": uri})

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
            self._show_error(uri, str(exc))
            return
        self.opened_urls.append(url)
        if not self.open_external(QUrl(url)):
            self._show_error(uri, "nothing opened it")

    @Slot()
    def closePreview(self) -> None:
        self._preview = {}
        self._images = {k: v for k, v in self._images.items() if not k.startswith("preview-")}
        self.previewChanged.emit()

    # --- images: thumbnails, inline images, the lightbox ------------------------------------------
    def _store(self, prefix: str, image: QImage) -> str:
        """Keep `image` for the provider; the URL changes each time so QML never shows a stale one."""
        if prefix == "preview":  # only the current preview is kept
            self._images = {k: v for k, v in self._images.items() if not k.startswith("preview-")}
        image_id = f"{prefix}-{next(self._serial)}"
        self._images[image_id] = image
        return f"image://{IMAGE_PROVIDER}/{image_id}"

    def image(self, image_id: str) -> QImage:
        return self._images.get(image_id, QImage())

    async def _thumbnail(self, session: tuple[str, int], uri: str, target: str) -> None:
        png = await asyncio.to_thread(make_thumbnail, target)
        state = self._states.get(uri)
        if png is None or state is None or self._session != session:
            return
        image = QImage.fromData(png)
        if not image.isNull():
            state["thumbnail"] = self._store("thumb", image)
            self.statesChanged.emit()

    def inline_images(self, uris: list[str]) -> list[dict[str, Any]]:
        """Images inside the agent's prose: embedded data decoded here (no I/O), local files read by the
        main side, remote ones never fetched (a card that opens in the browser on click)."""
        out = []
        for uri in uris:
            state = self._inline.get(uri)
            if state is None:
                state = self._inline[uri] = self._inline_state(uri)
            out.append(state)
        return out

    def _inline_state(self, uri: str) -> dict[str, Any]:
        state: dict[str, Any] = {"uri": uri, "source": "", "remote": False, "error": "", "name": ""}
        if uri.startswith("data:"):
            image = _decode_data_uri(uri)
            if image is None:
                state["error"] = "This image could not be decoded."
            else:
                state["source"] = self._store("inline", image)
            return state
        if uri.lower().startswith(("http://", "https://")):
            state.update(remote=True, name=display_name(basename(uri)))
            return state
        state["name"] = display_name(basename(uri))
        if self._session is not None:
            self._spawn(self._load_inline(self._session, uri))
        return state

    async def _load_inline(self, session: tuple[str, int], uri: str) -> None:
        key, generation = session
        state = self._inline.get(uri)
        try:
            preview = await self._service.preview(key, generation, uri)
        except AttachmentError as exc:
            if state is not None:
                state["error"] = str(exc)
                self.statesChanged.emit()
            return
        image = QImage.fromData(preview.data) if preview.kind == "image" else QImage()
        if state is None or self._session != session:
            return
        if image.isNull():
            state["error"] = "This image could not be shown."
        else:
            state["source"] = self._store("inline", image)
        self.statesChanged.emit()

    @Slot(str)
    def showLightbox(self, source: str) -> None:
        """An inline image or thumbnail clicked: show it large over the window (Esc closes)."""
        self._lightbox = source
        self.lightboxChanged.emit()

    @Slot()
    def closeLightbox(self) -> None:
        self._lightbox = ""
        self.lightboxChanged.emit()

    preview = Property("QVariantMap", lambda self: self._preview, notify=previewChanged)
    lightbox = Property(str, lambda self: self._lightbox, notify=lightboxChanged)

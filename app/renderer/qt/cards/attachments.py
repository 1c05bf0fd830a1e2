"""Attachment cards, inline images and the preview panel, on the view side: card states come from
main-side resolutions for the shown session + generation; a click asks the main side again (a resolution
shown on a card authorizes nothing). UI state only: which preview is open and what it shows.

Rows only look states up (`attachment_cards`, `inline_images`): a reference seen for the first time is
noted as wanted and resolved after the frame that showed it (`after_frame`)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
from typing import Any

from PySide6.QtCore import Property, QBuffer, QByteArray, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QImage, QImageReader

from app.contract.attachments import Preview
from app.contract.envelopes import LoadResult
from app.contract.errors import AttachmentError, Refusal
from app.contract.host_api import AttachmentsHost
from app.renderer.qt.cards.file_opening import FileOpening
from app.renderer.qt.cards.preview_content import embedded_content, preview_content
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

NATIVE = ("acp-resource", "acp-embedded")  # evidence a MEDIA line or a transcript entry never outranks
IMAGE_PROVIDER = "attachment"
# image ids are unique in the process: QML's pixmap cache is process-wide and keyed by the URL, so a
# second window's "inline-2" would show the first window's picture
_IMAGE_SERIAL = itertools.count(1)
MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024
MAX_INLINE_SIDE = 1280
MAX_INLINE_DECODED_BYTES = 192 * 1024 * 1024  # decoded images per chat before the next waits for a click
Session = tuple[str, int]


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
    return decode_inline_image(data)


def decode_inline_image(data: bytes) -> QImage | None:
    """An image of a reply, decoded at most MAX_INLINE_SIDE pixels on its longer side: it is shown at
    most 480 px wide (the lightbox fits the window), and forty 2048 px images decoded whole held 640 MB."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    reader = QImageReader(buffer)
    size = reader.size()
    if size.isValid() and max(size.width(), size.height()) > MAX_INLINE_SIDE:
        fitted = size.scaled(MAX_INLINE_SIDE, MAX_INLINE_SIDE, Qt.AspectRatioMode.KeepAspectRatio)
        reader.setScaledSize(fitted)
    image = reader.read()
    return None if image.isNull() else image


# A card whose file does not exist (yet: the agent names a file it is about to write) is checked again,
# after each of these delays, while its chat is shown; at most MAX_RETRYING cards wait at once.
RETRY_DELAYS_S = (1, 2, 4, 8, 16, 32)
MAX_RETRYING = 64


class AttachmentController(QObject):
    previewChanged = Signal()
    statesChanged = Signal()
    lightboxChanged = Signal()
    linkClicked = Signal(str)  # a web address an attachment card opened (the link policy decides)

    def __init__(self, host: AttachmentsHost, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._session: Session | None = None
        self._states: dict[str, dict[str, Any]] = {}  # card states by reference
        self._embedded: dict[str, dict[str, Any]] = {}  # content embedded in messages, by card key
        self._inline_bytes = 0  # decoded inline images of the chat shown
        self._inline: dict[str, dict[str, Any]] = {}  # inline image states by uri
        self._wanted_cards: list[str] = []
        self._wanted_images: list[str] = []
        self._retries: dict[str, int] = {}  # unavailable cards checked again: attempts so far
        self._preview: dict[str, Any] = {}
        self._images: dict[str, QImage] = {}  # what the image provider serves, by id
        self._lightbox = ""
        # handing a file to the desktop on a click; a web address goes out as `linkClicked`
        self.files = FileOpening(host, self._show_error, self.linkClicked.emit)

    # --- card and image states -------------------------------------------------------------------
    def on_shown(self, result: LoadResult) -> None:
        """A new session or generation: every earlier resolution is void (pending ones too)."""
        if self._session != (result.session_key, result.generation):
            self._session = (result.session_key, result.generation)
            self._states.clear()
            self._embedded.clear()
            self._inline_bytes = 0
            self._inline.clear()
            self._wanted_cards.clear()
            self._wanted_images.clear()
            self._retries.clear()
            self._images = {k: v for k, v in self._images.items() if k.startswith("preview-")}
            if self._preview:
                self.closePreview()

    def attachment_cards(self, attachments: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Cards with their current state; a reference not seen before is pending until resolved. A
        native resource outranks compatibility evidence (a MEDIA line, OpenClaw's transcript) naming the
        same target; the main side's identity also catches `~/x`, relative and file:// spellings."""
        out = []
        for attachment in attachments:
            if attachment.get("embedded") is not None:
                out.append(self._embedded_card(attachment))
                continue
            uri = str(attachment.get("uri") or "")
            state = self._states.get(uri)
            if state is None:
                state = self._states[uri] = self._pending(attachment)
                if uri:
                    self._wanted_cards.append(uri)
            out.append({**attachment, **state})
        native = {a["identity"] for a in out if a.get("identity") and a.get("source") == "acp-resource"}
        return [a for a in out if a.get("source") in NATIVE or a.get("identity") not in native]

    def _embedded_card(self, attachment: dict[str, Any]) -> dict[str, Any]:
        """A card for content the message carries itself: available at once, nothing read from disk;
        its key (`uri` on the card) names the content, not the file its uri names."""
        embedded = attachment["embedded"]
        uri = str(attachment.get("uri") or "")
        digest = hashlib.sha256(f"{uri}\0{embedded.get('text')}\0{embedded.get('size')}".encode()).hexdigest()
        key = f"embedded:{digest[:24]}"
        name = self._host.label(uri, str(attachment.get("name") or "") or None)
        self._embedded[key] = {**embedded, "name": name, "mimeType": attachment.get("mimeType") or ""}
        return {
            **attachment,
            "uri": key,
            "status": "available",
            "name": name,
            "path": "embedded in the message",
            "kind": "embedded",
            "outside": False,
            "reason": "",
            "thumbnail": "",
            "identity": "",
        }

    def _pending(self, attachment: dict[str, Any]) -> dict[str, Any]:
        uri = str(attachment.get("uri") or "")
        state = {
            "status": "pending",
            "name": self._host.label(uri, str(attachment.get("name") or "") or None),
            "path": "",
            "kind": "",
            "outside": False,
            "reason": "",
            "thumbnail": "",
            "identity": "",
        }
        if not uri:
            state.update(status="unavailable", reason="invalid reference")
        return state

    def inline_images(self, uris: list[str]) -> list[dict[str, Any]]:
        """Images inside the agent's prose: embedded data decoded here, local files read by the main
        side, remote ones never fetched (a card that opens in the browser on click)."""
        out = []
        for uri in uris:
            state = self._inline.get(uri)
            if state is None:
                state = self._inline[uri] = {
                    "uri": uri,
                    "source": "",
                    "remote": False,
                    "ask": "",  # why it waits for a click (a file outside the workspace, the budget)
                    "error": "",
                    "name": "",
                }
                self._wanted_images.append(uri)
            out.append(dict(state))  # a copy: the view compares what it showed with what is now
        return out

    @Slot()
    def after_frame(self) -> None:
        """Resolve the references the last frame showed for the first time."""
        cards, self._wanted_cards = self._wanted_cards, []
        images, self._wanted_images = self._wanted_images, []
        session = self._session
        if session is not None:
            for uri in cards:
                self._ops.spawn(self._resolve(session, uri))
        changed = False
        for uri in images:
            changed = self._start_inline(session, uri) or changed
        if changed:
            self.statesChanged.emit()

    async def _resolve(self, session: Session, uri: str) -> None:
        try:
            resolution = await self._host.resolve(*session, uri)
        except AttachmentError as exc:
            if self._session == session and uri in self._states:
                self._states[uri].update(
                    status="unavailable", name=self._host.label(uri), path="", reason=str(exc)
                )
                self.statesChanged.emit()
                if exc.refusal is Refusal.UNAVAILABLE:
                    self._retry_later(session, uri)
            return
        self._retries.pop(uri, None)
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
        if resolution.kind != "file":
            return
        try:
            png = await self._host.thumbnail(*session, uri)
        except AttachmentError:
            return  # gone or stale since: the card already says what it can
        image = QImage.fromData(png) if png else QImage()
        if not image.isNull() and self._session == session and uri in self._states:
            self._states[uri]["thumbnail"] = self._store("thumb", image)
            self.statesChanged.emit()

    def _retry_later(self, session: Session, uri: str) -> None:
        """Check a missing file's card again after the next delay (a file the agent names before it
        wrote it appears a moment later); bounded in attempts and in cards waiting."""
        attempt = self._retries.get(uri, 0)
        waiting = sum(1 for n in self._retries.values() if n < len(RETRY_DELAYS_S))
        if attempt >= len(RETRY_DELAYS_S) or (attempt == 0 and waiting >= MAX_RETRYING):
            return
        self._retries[uri] = attempt + 1
        QTimer.singleShot(int(RETRY_DELAYS_S[attempt] * 1000), self, lambda: self._retry(session, uri))

    def _retry(self, session: Session, uri: str) -> None:
        if self._session == session and self._states.get(uri, {}).get("status") == "unavailable":
            self._ops.spawn(self._resolve(session, uri))

    def _start_inline(self, session: Session | None, uri: str, clicked: bool = False) -> bool:
        """Decode an embedded image now, start loading a local one; True when its state changed. Past
        MAX_INLINE_DECODED_BYTES for the chat, an image waits for a click."""
        state = self._inline[uri]
        if self._inline_bytes >= MAX_INLINE_DECODED_BYTES and not clicked:
            state["ask"] = "Image not shown, to save memory \u2014 show"
            return True
        if uri.startswith("data:"):
            image = _decode_data_uri(uri)
            if image is None:
                state["error"] = "This image could not be decoded."
            else:
                self._keep_inline(state, image)
            return True
        state["name"] = self._host.label(uri)
        if uri.lower().startswith(("http://", "https://")):
            state["remote"] = True
            return True
        if session is not None:
            self._ops.spawn(self._load_inline(session, uri, clicked))
        return True

    def _keep_inline(self, state: dict[str, Any], image: QImage) -> None:
        state["ask"] = ""
        state["source"] = self._store("inline", image)
        self._inline_bytes += image.sizeInBytes()

    async def _load_inline(self, session: Session, uri: str, clicked: bool = False) -> None:
        """The main side reads a local image by itself only inside the workspace; one outside waits
        for the user's click (`showInlineImage`)."""
        state = self._inline.get(uri)
        try:
            if clicked:
                preview = await self._host.preview(*session, uri)
            else:
                preview = await self._host.inline_image(*session, uri)
        except AttachmentError as exc:
            if state is not None and self._session == session:
                if exc.refusal is Refusal.NOT_WITHOUT_A_CLICK:
                    state["ask"] = f"Image outside the workspace: {state['name']} \u2014 show"
                else:
                    state["error"] = str(exc)
                self.statesChanged.emit()
            return
        image = decode_inline_image(preview.data) if preview.kind == "image" else None
        if state is None or self._session != session:
            return
        if image is None:
            state["error"] = "This image could not be shown."
        else:
            self._keep_inline(state, image)
        self.statesChanged.emit()

    @Slot(str)
    def showInlineImage(self, uri: str) -> None:
        """The user clicked an image of the reply that waits for a click: decode or read it now."""
        if uri in self._inline and self._start_inline(self._session, uri, clicked=True):
            self.statesChanged.emit()

    # --- actions ---------------------------------------------------------------------------------------
    @Slot(str)
    def activate(self, uri: str) -> None:
        """A card was clicked (or Enter/Space on it): remote opens in the browser, a local file shows in
        the panel (or an open button when it cannot be previewed), a folder opens in the system's file
        manager at once. A card still being checked, or unavailable, does nothing."""
        if uri in self._embedded:
            self._show_embedded(uri)
        elif self._session is not None and self._states.get(uri, {}).get("status") == "available":
            self._ops.spawn(self._activate(self._session, uri))

    def _show_embedded(self, key: str) -> None:
        """The message's own copy in the panel, presented like a file of its name; never "Open with"
        (the file its uri names on disk is not what the agent sent)."""
        self._show(embedded_content(key, self._embedded[key]))

    async def _activate(self, session: Session, uri: str) -> None:
        if self._states.get(uri, {}).get("kind") in ("remote", "directory"):
            await self.files.open(session, uri)  # re-resolved by the main side on this click
            return
        name = self._states.get(uri, {}).get("name") or self._host.label(uri)
        self._show({"uri": uri, "name": name, "kind": "loading", "note": "Reading\u2026"})
        try:
            preview = await self._host.preview(*session, uri)
        except AttachmentError as exc:
            self._show_error(uri, str(exc))
            return
        if self._session == session and self._preview.get("uri") == uri:
            self._show_preview(uri, preview)

    def _show_preview(self, uri: str, preview: Preview) -> None:
        self._show(preview_content(uri, preview, self._store))

    def _show_error(self, uri: str, error: str) -> None:
        """The panel names what failed (by its sanitized basename only) and why."""
        self._show({"name": self._host.label(uri), "error": error, "uri": uri})

    def _show(self, shown: dict[str, Any]) -> None:
        self._preview = shown
        self.previewChanged.emit()

    @Slot(str)
    def openExternally(self, uri: str) -> None:
        if self._session is not None:
            self._ops.spawn(self.files.open(self._session, uri))

    @Slot(str)
    def openWith(self, uri: str) -> None:
        """ "Open with...": the desktop's application chooser; the default app where it has none."""
        if self._session is not None:
            self._ops.spawn(self.files.open_with(self._session, uri))

    @Slot(str)
    def showInFolder(self, uri: str) -> None:
        """ "Show in folder": the file manager with the file selected; the folder where there is none."""
        if self._session is not None:
            self._ops.spawn(self.files.show_in_folder(self._session, uri))

    @Slot()
    def closePreview(self) -> None:
        self._preview = {}
        self._images = {k: v for k, v in self._images.items() if not k.startswith("preview")}
        self.previewChanged.emit()

    # --- images for the provider, the lightbox ----------------------------------------------------------
    def _store(self, prefix: str, image: QImage) -> str:
        """Keep `image` for the provider; the URL changes each time so QML never shows a stale one."""
        if prefix == "preview":  # only the current preview is kept (a PDF's later pages: "preview_page")
            self._images = {k: v for k, v in self._images.items() if not k.startswith("preview")}
        image_id = f"{prefix}-{next(_IMAGE_SERIAL)}"
        self._images[image_id] = image
        return f"image://{IMAGE_PROVIDER}/{image_id}"

    def image(self, image_id: str) -> QImage:
        return self._images.get(image_id, QImage())

    @Slot(str)
    def showLightbox(self, source: str) -> None:
        """An inline image or thumbnail clicked: show it large over the window (Esc closes)."""
        self._lightbox = source
        self.lightboxChanged.emit()

    @Slot()
    def closeLightbox(self) -> None:
        self._lightbox = ""
        self.lightboxChanged.emit()

    preview = variant_property("QVariantMap", lambda self: self._preview, notify=previewChanged)
    lightbox = Property(str, lambda self: self._lightbox, notify=lightboxChanged)

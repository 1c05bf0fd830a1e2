"""Images the user brings in: pasted ones saved as real files (so every agent can get at least a link
to them), and thumbnails for chips and the user's message, made with Pillow off the GUI thread."""

from __future__ import annotations

import hashlib
import io
import time
import warnings
from pathlib import Path

from app.main.core import paths

THUMBNAIL_PX = 96
MAX_THUMBNAIL_SOURCE_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 80_000_000  # decompression bombs are refused, not decoded


def pasted_dir() -> Path:
    folder = paths.data_dir() / "pasted"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save_pasted_image(png: bytes) -> str:
    """Write a pasted image as a PNG under the app's data folder; the path is its identity."""
    digest = hashlib.sha256(png).hexdigest()[:10]
    path = pasted_dir() / f"pasted-{time.strftime('%Y%m%d-%H%M%S')}-{digest}.png"
    path.write_bytes(png)
    return str(path)


def make_thumbnail(path: str, size: int = THUMBNAIL_PX) -> bytes | None:
    """A PNG thumbnail of an image file, or None when it is not an image Pillow can read safely.
    Blocking: call it through `asyncio.to_thread`."""
    source = Path(path)
    try:
        if not source.is_file() or source.stat().st_size > MAX_THUMBNAIL_SOURCE_BYTES:
            return None
    except OSError:
        return None
    return _thumbnail(source, size)


def thumbnail_of_bytes(data: bytes, size: int = THUMBNAIL_PX) -> bytes | None:
    """`make_thumbnail` for an image already read (bounded and confined by the caller). Blocking."""
    if len(data) > MAX_THUMBNAIL_SOURCE_BYTES:
        return None
    return _thumbnail(io.BytesIO(data), size)


def _thumbnail(source: Path | io.BytesIO, size: int) -> bytes | None:
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)  # refuse, do not decode
            image = Image.open(source)
        with image:
            if image.width * image.height > MAX_PIXELS:
                return None
            image.thumbnail((size, size))
            out = io.BytesIO()
            image.convert("RGBA").save(out, format="PNG")
            return out.getvalue()
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        return None

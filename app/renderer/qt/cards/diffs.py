"""`diffs` in QML: a unified diff (a tool card's, or a changed file's) rendered for `DiffView.qml`.
Parsing and rendering are pure (`diff_view`, `diff_html`); this object only remembers the last few
results, because a binding re-asks whenever the theme or "show all" changes. A diff too large to make
(`app.contract.diffs.too_large`) is shown as its sentence and counts, never parsed."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot

from app.contract.diffs import TooLarge, too_large

if TYPE_CHECKING:  # loaded with the first diff shown, not at startup
    from app.renderer.present.diff_view import FileDiff

CACHE_SIZE = 32


class DiffRenderer(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._parsed: OrderedDict[str, list[FileDiff]] = OrderedDict()
        self._rendered: OrderedDict[tuple[str, bool, bool, bool], dict[str, Any]] = OrderedDict()

    @Slot(str, bool, bool, bool, result="QVariantMap")
    def render(self, diff: str, dark: bool, show_all: bool, side_by_side: bool = False) -> dict[str, Any]:
        """{html, shown, hidden, total, added, removed, tooLarge, files: [{path, created, added,
        removed}]}; `tooLarge` is the sentence shown instead of a diff left out, else empty;
        `side_by_side`: old and new lines in two columns (diff_split.py), else one unified column."""
        key = (diff, dark, show_all, side_by_side)
        cached = self._rendered.get(key)
        if cached is not None:
            self._rendered.move_to_end(key)
            return cached
        summary = too_large(diff)
        if summary is not None:
            result = _too_large_view(summary)
            _remember(self._rendered, key, result)
            return result
        from app.renderer.present.diff_html import DARK, LIGHT, render_diffs
        from app.renderer.present.diff_split import render_split

        files = self._parse(diff)
        rendered = (render_split if side_by_side else render_diffs)(files, DARK if dark else LIGHT, show_all)
        result = {
            "html": rendered.html,
            "shown": rendered.shown,
            "hidden": rendered.hidden,
            "total": rendered.total,
            "added": sum(f.added for f in files),
            "removed": sum(f.removed for f in files),
            "tooLarge": "",
            "files": [
                {"path": f.new_path, "created": f.created, "added": f.added, "removed": f.removed}
                for f in files
            ],
        }
        _remember(self._rendered, key, result)
        return result

    def _parse(self, diff: str) -> list[FileDiff]:
        parsed = self._parsed.get(diff)
        if parsed is None:
            from app.renderer.present.diff_view import parse_unified

            parsed = parse_unified(diff)
            _remember(self._parsed, diff, parsed)
        else:
            self._parsed.move_to_end(diff)
        return parsed


def _too_large_view(summary: TooLarge) -> dict[str, Any]:
    counts = {"added": summary.added, "removed": summary.removed}
    return {
        "html": "",
        "shown": 0,
        "hidden": 0,
        "total": 0,
        **counts,
        "tooLarge": summary.sentence(),
        "files": [{"path": summary.path, "created": summary.created, **counts}],
    }


def _remember(cache: OrderedDict, key: Any, value: Any) -> None:
    cache[key] = value
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)

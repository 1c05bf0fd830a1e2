"""The desktop's own file and folder dialogs (QFileDialog: Qt Quick's dialogs are not in the bundle),
opened without blocking the event loop: the choice arrives through the dialog's signal. One dialog per
purpose: asking again raises the open one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QUrl


def open_dialog(current: Any, make: Callable[[], Any]) -> Any:
    """Raise `current` when it is still open, else make a new dialog and open it; the dialog shown."""
    if current is not None and current.isVisible():
        current.raise_()
        return current
    dialog = make()
    dialog.open()
    return dialog


def folder_dialog(title: str, chosen: Callable[[str], None], start: str = "") -> Any:
    """A folder chooser calling `chosen` with the folder's path."""
    from PySide6.QtWidgets import QFileDialog

    dialog = QFileDialog(None, title, start)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.fileSelected.connect(lambda path: chosen(local_path(path)))
    return dialog


def local_path(chosen: str) -> str:
    """A path from a dialog or a drop: a file URL becomes its local path, anything else is trimmed."""
    return QUrl(chosen).toLocalFile() if chosen.startswith("file:") else chosen.strip()


SAVE_FILTERS = {"md": "Markdown (*.md)", "jsonl": "JSON Lines trace (*.jsonl)", "csv": "CSV (*.csv)"}


def save_dialog(title: str, suggested: str, chosen: Callable[[str], None]) -> Any:
    """A file saver starting at `suggested` (its folder and name; its extension picks the filter and is
    added when the user types none), calling `chosen` with the path; the desktop's dialog asks before
    replacing a file."""
    from PySide6.QtWidgets import QFileDialog

    suffix = suggested.rsplit(".", 1)[-1] if "." in suggested else ""
    dialog = QFileDialog(None, title, suggested)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setNameFilters([f for f in (SAVE_FILTERS.get(suffix), "All files (*)") if f])
    dialog.setDefaultSuffix(suffix)
    dialog.selectFile(suggested)
    dialog.fileSelected.connect(lambda path: chosen(local_path(path)))
    return dialog


def file_dialog(title: str, chosen: Callable[[str], None], filters: list[str], start: str = "") -> Any:
    """An existing file's chooser (`filters`: Qt name filters, "All files" added), calling `chosen` with
    its path."""
    from PySide6.QtWidgets import QFileDialog

    dialog = QFileDialog(None, title, start)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters([*filters, "All files (*)"])
    dialog.fileSelected.connect(lambda path: chosen(local_path(path)))
    return dialog

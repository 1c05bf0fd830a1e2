"""Which icon stands for what the views cannot name themselves: a tool call's kind (ACP's tool kinds;
anything else is a wrench). The icons are Lucide's, drawn by `icon_images.py` through `Icon.qml`;
QML: `Icon { icon: icons.toolKind(kind) }`."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

TOOL_KIND_ICONS = {
    "read": "file-text",
    "edit": "pencil",
    "delete": "trash",
    "move": "arrow-left-right",
    "search": "search",
    "execute": "terminal",
    "think": "brain",
    "fetch": "globe",
    "switch_mode": "refresh-cw",
}
OTHER_TOOL_ICON = "wrench"


class Icons(QObject):
    @Slot(str, result=str)
    def toolKind(self, kind: str) -> str:
        return TOOL_KIND_ICONS.get(kind, OTHER_TOOL_ICON)

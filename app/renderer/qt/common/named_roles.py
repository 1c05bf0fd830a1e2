"""Named roles of the list models QML reads (`model.kind`, `required property string method`): each name
gets a role number after Qt.UserRole, and `roleNames` hands QML the names. One numbering for every model,
so no model spells it differently."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QByteArray, QModelIndex, QPersistentModelIndex, Qt

ModelIndex = QModelIndex | QPersistentModelIndex  # what Qt may pass a model's rowCount and data


def numbered_roles(names: Iterable[str]) -> dict[int, str]:
    """Role number -> name, numbered from just after Qt.UserRole in the order given."""
    return {int(Qt.ItemDataRole.UserRole) + 1 + i: name for i, name in enumerate(names)}


def role_names(roles: dict[int, str]) -> dict[int, QByteArray]:
    """What a model's `roleNames` returns for `roles`."""
    return {role: QByteArray(name.encode()) for role, name in roles.items()}

"""QML properties and signals whose type is a QVariant list or map, named as Qt names them
("QVariantList", "QVariantMap"): PySide6 takes the name and QML gets a JavaScript array or object.
PySide6's type stubs know only Python types here, so this is the one place that says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

from PySide6.QtCore import Property, Signal

VariantType = Literal["QVariantList", "QVariantMap"]


def variant_property(
    type_name: VariantType,
    getter: Callable[[Any], Any],
    *,
    notify: Any = None,
    constant: bool = False,
) -> Any:
    """A read-only QML property of a QVariant list or map."""
    qt_type = cast(type, type_name)  # a Qt type name where the stubs expect a Python type
    if constant:
        return Property(qt_type, getter, constant=True)
    return Property(qt_type, getter, notify=notify)


def variant_signal(type_name: VariantType) -> Any:
    """A signal carrying one QVariant list or map."""
    return Signal(cast(type, type_name))

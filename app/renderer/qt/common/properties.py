"""Declaring QML properties where PySide6's type stubs fall short, in one place: a property Python code
also reads, typed as its value (the stubs type every Property as `Property`), and properties and
signals whose type is a QVariant list or map, named as Qt names them ("QVariantList", "QVariantMap"):
PySide6 takes the name and QML gets a JavaScript array or object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast

from PySide6.QtCore import Property, Signal

VariantType = Literal["QVariantList", "QVariantMap"]
T = TypeVar("T")


def value_property(kind: type[T], getter: Callable[[Any], T], *, notify: Any) -> T:
    """A read-only QML property that Python code reads too, typed for it as the value it holds."""
    return cast(T, Property(kind, getter, notify=notify))


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

"""A small reader of the app's QML files for checks over every view: the object declarations of a file
(`Text { ... }`, `contentItem: Button { ... }`), each with the properties it sets directly and where.

Not a QML parser: enough of the grammar the views use (comments, string and template literals, object
declarations, JavaScript blocks and expressions in parentheses or brackets) to tell an object's own
property assignments from what sits inside its values, its functions and its children."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TYPE = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*$")
_ASSIGNED = re.compile(
    r"(?:(?:readonly\s+|required\s+|default\s+)*property\s+[\w<>.]+\s+)?([A-Za-z_][\w.]*)\s*:"
)


@dataclass
class QmlObject:
    """One object declaration: its type, the line it starts on, and the values of the properties it
    sets itself (a child object assigned to a property is `Type {...}` there)."""

    type: str
    line: int
    brace: int  # the offset of its opening brace in the file's text
    props: dict[str, str] = field(default_factory=dict)
    parent: QmlObject | None = None


def mask(text: str) -> str:
    """The text with comments blanked and string literals' insides replaced by `_` (same length, so
    offsets and line numbers hold), the quotes kept."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out[i:end] = [ch if ch == "\n" else " " for ch in text[i:end]]
            i = end
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out[i + 1 : j] = [ch if ch == "\n" else "_" for ch in text[i + 1 : j]]
            i = j + 1
        else:
            i += 1
    return "".join(out)


def objects(text: str) -> list[QmlObject]:
    """Every object declared in one QML text, in the order they start."""
    masked = mask(text)
    found: list[QmlObject] = []
    # each open brace: the object it starts, or None for a JavaScript block / literal
    stack: list[QmlObject | None] = []
    statement_start = 0
    depth_paren = 0
    i, n = 0, len(masked)
    while i < n:
        c = masked[i]
        if c in "([":
            depth_paren += 1
        elif c in ")]":
            depth_paren = max(0, depth_paren - 1)
        elif c == "{" and depth_paren == 0:
            head = masked[statement_start:i].strip()
            type_name = head.rsplit(":", 1)[-1].strip() if head else ""
            owner = stack[-1] if stack else None
            if _TYPE.match(type_name) and (not stack or owner is not None):
                obj = QmlObject(type_name, text.count("\n", 0, i) + 1, i, parent=owner)
                if owner is not None and ":" in head:
                    name = _ASSIGNED.match(head)
                    if name:
                        owner.props[name.group(1)] = type_name + " {...}"
                found.append(obj)
                stack.append(obj)
            else:
                stack.append(None)
            statement_start = i + 1
        elif c == "}" and depth_paren == 0:
            if stack and stack[-1] is not None:
                _assignment(text, masked, statement_start, i, stack[-1])  # the body's last statement
            if stack:
                stack.pop()
            statement_start = i + 1
        elif c in ";\n" and depth_paren == 0 and (not stack or stack[-1] is not None):
            if c == "\n" and _continues(masked, i):
                i += 1
                continue
            if stack:
                _assignment(text, masked, statement_start, i, stack[-1])  # type: ignore[arg-type]
            statement_start = i + 1
        i += 1
    return found


_OPERATORS = "?:+-*/|&=,.<>"


def _continues(masked: str, newline: int) -> bool:
    """A line break inside an expression: the line ends with an operator or the next starts with one."""
    before = masked[:newline].rstrip(" \t")
    after = masked[newline + 1 :].lstrip(" \t\n")
    return bool(before) and (before[-1] in _OPERATORS or (after[:1] in tuple(_OPERATORS) and after[:1] != ""))


def _assignment(text: str, masked: str, start: int, end: int, owner: QmlObject) -> None:
    """Record `name: value` if the statement [start, end) of an object's body is one (a value that
    goes on over the next lines is cut at the line: enough to classify it)."""
    statement = masked[start:end]
    match = _ASSIGNED.match(statement.strip())
    if not match:
        return
    offset = start + (len(statement) - len(statement.lstrip())) + match.end()
    owner.props.setdefault(match.group(1), text[offset:end].strip())

"""The Lucide icons the app draws, copied from the `python-lucide` package (a development tool, not a
dependency: `pip install python-lucide`) into `resources/icons/lucide/` with Lucide's licence.
`python -m app.packaging lucide` copies every name the views use (`used_icons`) and drops the rest;
the files are kept in the repository, so neither the app nor its build needs the package."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from app.renderer.qt.common.icons import OTHER_TOOL_ICON, TOOL_KIND_ICONS

# the literals of an `icon:` binding (IconLabel, Icon), of an `iconName:` one (on a button: its `icon`
# is Qt's) and of the functions that name icons; a condition may go on a line below
_ICON_BINDING = re.compile(r"\b(?:icon|iconName):\s*((?:[^;}\n]|\n\s*[?:])*)")
_ICON_FUNCTION = re.compile(r"function \w*[Ii]con\(.*?\n\s*\}", re.S)
# a quoted name not compared with (`status === "failed" ? "circle-x" : ...` names only circle-x)
_LITERAL = re.compile(r'(?<![=!]==\s)(?<![=!]=\s)"([a-z][a-z0-9-]*)"')
LICENCE = """ISC License

Copyright (c) for portions of Lucide are held by Cole Bemis 2013-2022 as part of Feather (MIT). All other
copyright (c) for Lucide are held by Lucide Contributors 2022.

Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is
hereby granted, provided that the above copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE
INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF
USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT
OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
"""


def icons_in_qml(text: str) -> set[str]:
    """Every icon name one QML text can ask for: the literals of its `icon:` bindings and of its
    functions named `...Icon`."""
    found: set[str] = set()
    for binding in _ICON_BINDING.findall(text):
        found.update(_LITERAL.findall(binding))
    for function in _ICON_FUNCTION.findall(text):
        found.update(_LITERAL.findall(function))
    return found


def used_icons(qml: Path) -> set[str]:
    names = set(TOOL_KIND_ICONS.values()) | {OTHER_TOOL_ICON}
    for path in qml.rglob("*.qml"):
        names |= icons_in_qml(path.read_text(encoding="utf-8"))
    return names


def write_icons(qml: Path, target: Path) -> list[Path]:
    """Copy the used icons from python-lucide's database into `target`; drop icons no view uses."""
    from lucide import get_default_db_path

    names = used_icons(qml)
    with sqlite3.connect(get_default_db_path()) as db:
        svgs = dict(
            db.execute(
                f"SELECT name, svg FROM icons WHERE name IN ({','.join('?' * len(names))})", sorted(names)
            )
        )
    missing = names - svgs.keys()
    if missing:
        raise ValueError(f"not in Lucide: {', '.join(sorted(missing))}")
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.svg"):
        if old.stem not in names:
            old.unlink()
    written = []
    for name, svg in sorted(svgs.items()):
        path = target / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    (target / "LICENSE").write_text(LICENCE, encoding="utf-8")
    return written

"""The sidebar grouped by folder: each chat under the folder it works in (the project), named first and
then where it is (a narrow sidebar cuts the end, never the name), the home folder written as ~, the
folders in the order their most recent chat comes. Pure, so a test gives the home folder."""

from __future__ import annotations

import os
from typing import Any

NO_FOLDER = "No folder"  # an agent that does not say where a chat works


def folder_group(cwd: str | None, home: str | None = None) -> str:
    """The group a chat working in `cwd` falls in: "name · where" ("project · ~/work")."""
    if not cwd:
        return NO_FOLDER
    home = os.path.expanduser("~") if home is None else home
    path = os.path.normpath(cwd)
    if home and home != os.sep and (path == home or path.startswith(home + os.sep)):
        path = "~" + path[len(home) :]
    parent, name = os.path.split(path)
    return f"{name} \u00b7 {parent}" if name and parent else path


def grouped_by_first(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with each group's rows together, the groups in the order of their first row (the
    rows come newest first, so the folder worked in last leads), each group's rows in their order."""
    order: dict[str, int] = {}
    for entry in entries:
        order.setdefault(entry["group"], len(order))
    return sorted(entries, key=lambda entry: order[entry["group"]])

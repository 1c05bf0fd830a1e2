"""The audit log of the decisions rules made for the user: one JSON line per decision in the data
folder (`permission-audit.jsonl`), newest last, the newest MAX_ENTRIES kept; the Settings page lists it
and exports it as CSV. A line that is not an entry (the file edited by hand, a write cut short) is
skipped when read; a log that cannot be written is kept in memory for this run, and said once."""

from __future__ import annotations

import csv
import io
import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.main.core import paths
from app.main.core.problems import LocalProblems
from app.main.files.atomic import PRIVATE, atomic_write_text, replace_file

log = logging.getLogger(__name__)

MAX_ENTRIES = 5_000
COLUMNS = ("at", "agent", "folder", "chat", "request", "decision", "option", "rule", "rule_id")


def entry(**values: str) -> dict[str, str]:
    """An audit entry: when, for which agent, folder and chat, what was asked, what the rule chose."""
    at = datetime.now(UTC).isoformat(timespec="seconds")
    return {"at": at, **{column: str(values.get(column, "")) for column in COLUMNS if column != "at"}}


class AuditLog:
    def __init__(self, data_dir: Path | None = None, problems: LocalProblems | None = None) -> None:
        self.path = (data_dir or paths.data_dir()) / "permission-audit.jsonl"
        self._problems = problems
        self._entries = self._read()
        self._memory_only = False

    def _read(self) -> list[dict[str, str]]:
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return []
        entries: list[dict[str, str]] = []
        for line in lines[-MAX_ENTRIES:]:
            try:
                value: Any = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict) and all(isinstance(value.get(c), str) for c in COLUMNS):
                entries.append({c: value[c] for c in COLUMNS})
        return entries

    def add(self, record: dict[str, str]) -> None:
        self._entries.append(record)
        trimmed = len(self._entries) > MAX_ENTRIES
        del self._entries[:-MAX_ENTRIES]
        if self._memory_only:
            return
        try:
            if trimmed:  # the oldest go: the file is written again, whole
                text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self._entries)
                replace_file(self.path, text.encode("utf-8"))
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with open(self.path, "a", encoding="utf-8") as file:
                    file.write(json.dumps(record, ensure_ascii=False) + "\n")
                self.path.chmod(PRIVATE)
        except OSError as exc:
            self._memory_only = True
            log.error("cannot write %s: %s", self.path, exc)
            if self._problems is not None:
                self._problems.add(
                    f"The log of your permission rules' decisions cannot be saved in "
                    f"{paths.shown(self.path)} ({exc.strerror}): it is kept only until you quit.",
                    str(exc),
                )

    def newest(self, limit: int = 200) -> list[dict[str, str]]:
        return list(reversed(self._entries[-limit:]))

    def export(self, path: str) -> int:
        """Every entry as CSV (a spreadsheet opens it); the number written. OSError when it cannot be."""
        out = io.StringIO()
        writer = csv.DictWriter(out, COLUMNS)
        writer.writeheader()
        writer.writerows(self._entries)
        atomic_write_text(path, out.getvalue(), PRIVATE)
        return len(self._entries)

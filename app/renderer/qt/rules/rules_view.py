"""The user's permission rules, the UI side [rules]: the rules and the newest decisions they made (for
Settings), the rules a waiting permission card offers ("Always allow…" / "Always deny…"), keeping one,
undoing one (from Settings, or from the card a rule answered), and the audit log exported as CSV.
What a rule matches and answers is the main side's (app/main/rules); this lists and asks."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope
from app.contract.host_api import SessionsHost
from app.contract.rules import PermissionRulesHost, RuleDecisionName
from app.renderer.qt.common.desktop_dialog import open_dialog, save_dialog
from app.renderer.qt.common.operations import Operations

RULES = "rules"  # the notices' topic
AUDIT_SHOWN = 50  # the newest decisions Settings lists (Export writes them all)


def _decision(word: str) -> RuleDecisionName | None:
    return "allow" if word == "allow" else "deny" if word == "deny" else None


class PermissionRulesView(QObject):
    changed = Signal()

    def __init__(
        self,
        host: PermissionRulesHost,
        sessions: SessionsHost,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._listed: tuple[list[dict[str, Any]], list[dict[str, str]]] | None = None  # read when shown
        self._dialog: Any = None
        self._folder = str(Path.home())
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind in ("rules_changed", "permission_resolved"):  # a rule kept, undone or used
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        """The rules and decisions are read again the next time a view shows them (not before: most
        windows never open Settings, and a permission answered costs no reading)."""
        self._listed = None
        self.changed.emit()

    def _lists(self) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        if self._listed is None:
            self._listed = [asdict(rule) for rule in self._host.rules()], self._host.audit(AUDIT_SHOWN)
        return self._listed

    @Slot(str, str, result=list)
    def offers(self, request_id: str, decision: str) -> list[str]:
        """What "Always allow…" / "Always deny…" offers for a waiting request, in words."""
        chosen = _decision(decision)
        return self._host.offers(request_id, chosen) if chosen is not None else []

    @Slot(str, str, int)
    def remember(self, request_id: str, decision: str, index: int) -> None:
        """Keep the offered rule: it answers this request and every waiting one it matches."""
        chosen = _decision(decision)
        if chosen is not None and self._host.remember(request_id, chosen, index) is None:
            self._ops.notices.show("That request was already answered: no rule was kept.", topic=RULES)

    @Slot(str, str, bool)
    def change(self, rule_id: str, decision: str, every_folder: bool) -> None:
        """Settings' editor: allow ↔ deny, or this folder → every folder."""
        chosen = _decision(decision)
        if chosen is not None:
            self._host.change(rule_id, chosen, every_folder)

    @Slot(str)
    def remove(self, rule_id: str) -> None:
        if self._host.remove(rule_id):
            self._ops.notices.show("The rule was removed: such requests are asked again.", topic=RULES)

    @Slot()
    def exportAudit(self) -> None:
        suggested = str(Path(self._folder) / "clawqt-permission-decisions.csv")
        self._dialog = open_dialog(
            self._dialog, lambda: save_dialog("Export the rules' decisions", suggested, self.export_to)
        )

    def export_to(self, path: str) -> None:
        if not path:
            return
        count = self._ops.call(
            "The decisions were not exported", lambda: self._host.export_audit(path), topic=RULES
        )
        if count is not None:
            self._folder = str(Path(path).parent)
            self._ops.notices.show(f"{count:,} decisions exported to {path}", topic=RULES)

    rules = Property(list, lambda self: self._lists()[0], notify=changed)
    audit = Property(list, lambda self: self._lists()[1], notify=changed)

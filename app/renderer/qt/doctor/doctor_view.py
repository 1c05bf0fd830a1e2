"""`doctor`: the protocol doctor's window for one agent (Settings > Agents' Doctor, the inspector's
Protocol doctor): what the agent offered and ClawQt declared, the features either side leaves off,
its stderr's tail, and a check run on demand whose steps come in as they end. The report and the
check are the main side's (`DoctorHost`); this object holds what is shown and the check's state."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QGuiApplication

from app.contract.doctor import CheckStep, DoctorHost, DoctorReport, Finding
from app.contract.errors import HostError
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

NOT_STARTED = "It has not started in this window yet: Check starts it on a connection of its own."


def _finding(finding: Finding) -> dict[str, Any]:
    return {"side": finding.side, "feature": finding.feature, "on": finding.on, "words": finding.words}


def _step(step: CheckStep) -> dict[str, Any]:
    return {"name": step.name, "ok": step.ok, "seconds": round(step.seconds, 3), "words": step.words}


def report_text(report: DoctorReport) -> str:
    """The report as plain text, for a bug report."""
    lines = [f"ClawQt protocol doctor: {report.agent_name} ({report.command})", ""]
    for side, heading in (("agent", "What the agent offers"), ("clawqt", "What ClawQt allows it")):
        lines.append(heading + ":")
        lines += [
            f"  [{'on' if f.on else 'off'}] {f.feature}: {f.words}" for f in report.findings if f.side == side
        ]
        lines.append("")
    if report.steps:
        lines.append("Check:")
        lines += [
            f"  [{'ok' if s.ok else 'failed'}] {s.name} ({s.seconds:.2f} s): {s.words}" for s in report.steps
        ]
        lines.append("")
    lines += ["initialize, received:", json.dumps(report.offered, indent=2, sort_keys=True), ""]
    lines += ["initialize, sent:", json.dumps(report.declared, indent=2, sort_keys=True), ""]
    lines += ["stderr (last lines):", report.stderr_tail or "(nothing)"]
    return "\n".join(lines)


class DoctorView(QObject):
    changed = Signal()

    def __init__(
        self,
        host: DoctorHost,
        ops: Operations,
        parent: QObject | None = None,
        current: Callable[[], str] = lambda: "",
    ) -> None:
        """`current`: the agent id of the chat opened last (the one the inspector shows)."""
        super().__init__(parent)
        self._host = host
        self._current = current
        self._ops = ops
        self._open = False
        self._agent_id = ""
        self._report: DoctorReport | None = None
        self._steps: list[dict[str, Any]] = []
        self._checking = False
        self._note = ""

    def _get(self, name: str) -> Any:
        report = self._report
        return getattr(report, name) if report is not None else None

    isOpen = Property(bool, lambda self: self._open, notify=changed)
    agentId = Property(str, lambda self: self._agent_id, notify=changed)
    agentName = Property(str, lambda self: self._get("agent_name") or self._agent_id, notify=changed)
    command = Property(str, lambda self: self._get("command") or "", notify=changed)
    running = Property(bool, lambda self: bool(self._get("running")), notify=changed)
    checking = Property(bool, lambda self: self._checking, notify=changed)
    note = Property(str, lambda self: self._note, notify=changed)  # what the report cannot say yet
    offered = Property(str, lambda self: _json(self._get("offered")), notify=changed)
    declared = Property(str, lambda self: _json(self._get("declared")), notify=changed)
    stderrTail = Property(str, lambda self: self._get("stderr_tail") or "", notify=changed)
    findings = variant_property(
        "QVariantList", lambda self: [_finding(f) for f in self._get("findings") or ()], notify=changed
    )
    steps = variant_property("QVariantList", lambda self: list(self._steps), notify=changed)

    @Slot(str)
    def open(self, agent_id: str) -> None:
        """The report on `agent_id` from the window's own connection to it, when it runs."""
        self._open, self._agent_id, self._steps = True, agent_id, []
        self._report = self._host.report(agent_id)
        self._note = "" if self._report is not None else NOT_STARTED
        self.changed.emit()

    @Slot()
    def openCurrent(self) -> None:
        """The inspector's Protocol doctor: the agent whose traffic it shows."""
        if self._current():
            self.open(self._current())

    @Slot()
    def close(self) -> None:
        self._open = False
        self.changed.emit()

    @Slot(bool)
    def check(self, send_message: bool) -> None:
        """Run the check (a short message only when the user allowed it: it may cost tokens)."""
        if self._checking or not self._agent_id:
            return
        self._checking, self._steps, self._note = True, [], ""
        self.changed.emit()
        self._ops.spawn(self._check(self._agent_id, send_message))

    async def _check(self, agent_id: str, send_message: bool) -> None:
        try:
            report = await self._host.check(agent_id, send_message, self._step_done)
        except HostError as exc:
            self._note = f"The check could not run: {exc}"
        else:
            if agent_id == self._agent_id:
                self._report = report
                self._steps = [_step(s) for s in report.steps]
        finally:
            self._checking = False
            self.changed.emit()

    def _step_done(self, step: CheckStep) -> None:
        self._steps.append(_step(step))
        self.changed.emit()

    @Slot()
    def copyReport(self) -> None:
        if self._report is not None:
            QGuiApplication.clipboard().setText(report_text(self._report))

    def text(self) -> str:
        return report_text(self._report) if self._report is not None else self._note


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True) if value else ""

"""`terminalAccess` in QML: how the current agent reaches the user's terminals (one line in the terminal
panel) and "Connect OpenClaw": the command is shown first, runs only when the user confirms, and what it
printed is shown after. The main side (`TerminalAccessHost`) decides and runs everything."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.errors import HostError
from app.contract.terminal_hosts import TerminalAccessHost
from app.contract.user_terminals import TerminalAccessState
from app.renderer.qt.common.operations import Operations

SUMMARIES = {
    "per-session": "{agent} can use your shared terminals through ClawQt's local terminal tools.",
    "connect": "{agent} cannot see your terminals yet: connect it to ClawQt's terminal tools.",
    "connected": "{agent} is connected to ClawQt's terminal tools.",
    "unavailable": "This agent cannot use terminal tools.",
}


class TerminalAccess(QObject):
    changed = Signal()

    def __init__(self, host: TerminalAccessHost, ops: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self._ops = ops
        self._state: TerminalAccessState | None = None
        self._confirming = False
        self._busy = False
        self._result = ""
        self._result_ok = False

    def _field(self, name: str, default: str = "") -> str:
        return str(getattr(self._state, name, default) or default) if self._state is not None else default

    def _summary(self) -> str:
        if self._state is None:
            return ""
        if self._state.delivery == "unavailable" and self._state.problem:
            return self._state.problem
        agent = self._state.agent_name or "The agent"
        if agent.startswith("openclaw"):
            agent = "OpenClaw"
        return SUMMARIES[self._state.delivery].format(agent=agent)

    delivery = Property(str, lambda self: self._field("delivery"), notify=changed)
    problem = Property(str, lambda self: self._field("problem"), notify=changed)  # why agents cannot reach
    summary = Property(str, _summary, notify=changed)
    command = Property(str, lambda self: self._field("connect_command"), notify=changed)
    confirming = Property(bool, lambda self: self._confirming, notify=changed)
    busy = Property(bool, lambda self: self._busy, notify=changed)
    result = Property(str, lambda self: self._result, notify=changed)
    resultOk = Property(bool, lambda self: self._result_ok, notify=changed)

    @Slot()
    def refresh(self) -> None:
        self._state = self._host.state()
        self.changed.emit()

    @Slot()
    def askToConnect(self) -> None:
        """Show what Connect would run (the server starts first: the command names its address)."""
        self._confirming, self._busy, self._result = True, True, ""
        self.changed.emit()
        self._ops.spawn(self._prepare())

    async def _prepare(self) -> None:
        try:
            self._state = await self._host.prepare()
        finally:
            self._busy = False
            self.changed.emit()

    @Slot()
    def cancel(self) -> None:
        self._confirming = False
        self.changed.emit()

    @Slot()
    def confirm(self) -> None:
        """The user agreed to the shown command: run it."""
        if not self._confirming or self._busy:
            return
        self._busy = True
        self.changed.emit()
        self._ops.spawn(self._connect())

    async def _connect(self) -> None:
        try:
            outcome = await self._host.connect_openclaw()
            self._result_ok = outcome.ok
            self._result = (
                "Connected. " + (outcome.output or "")
                if outcome.ok
                else "Could not connect: " + outcome.output
            ).strip()
        except HostError as exc:
            self._result_ok, self._result = False, f"Could not connect: {exc}"
        finally:
            self._busy = False
            self._confirming = not self._result_ok
            self._state = self._host.state()
            self.changed.emit()

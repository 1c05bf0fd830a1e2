"""`usage` in QML: the usage ledger in Settings (each day's tokens of the last SPAN_DAYS, by agent, each
agent's totals, the chats that used most) and the daily token budget: set there (kept in the config
file's notifications), and warned about in the window once a day at WARN_AT of it and once past it, as
turns end. The ledger is the main side's (the search database); this reads it when shown and after each
turn."""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.envelopes import Envelope
from app.contract.host_api import SessionsHost
from app.contract.search import SearchHost
from app.contract.settings_hosts import SettingsHost
from app.contract.usage import UsageChat, UsageDay
from app.renderer.present.usage_chart import (
    SPAN_DAYS,
    TOP_CHATS,
    WARN_AT,
    agent_totals,
    budget_warning,
    chart_days,
    chat_totals,
)
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import variant_property

USAGE = "usage"  # the notices' topic


class UsageView(QObject):
    changed = Signal()

    def __init__(
        self,
        search: SearchHost,
        settings: SettingsHost,
        sessions: SessionsHost,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._search = search
        self._settings = settings
        self._ops = ops
        self._days: list[UsageDay] = []
        self._chart: list[dict[str, Any]] = []  # the days as charted, made once per reading
        self._chats: list[dict[str, Any]] = []  # the chats that used most, in words
        self._budget = int(settings.notifications().get("dailyTokens", 0) or 0)
        self._warned: tuple[str, set[float]] = ("", set())  # (the day, the levels warned that day)
        self._problem = ""
        sessions.subscribe(self._on_envelope)

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "prompt_settled" and self._budget > 0:  # a turn's tokens are in: the day's
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Read the ledger again (Settings shows it; a turn ended under a budget)."""
        self._ops.run(self._ledger(), "Could not read the usage ledger", done=self._read)

    async def _ledger(self) -> tuple[list[UsageDay], list[UsageChat]]:
        return await self._search.usage(SPAN_DAYS), await self._search.usage_chats(SPAN_DAYS, TOP_CHATS)

    def _read(self, ledger: tuple[list[UsageDay], list[UsageChat]]) -> None:
        days, chats = ledger
        self._days, self._chart, self._chats = days, chart_days(days, date.today()), chat_totals(chats)
        self.changed.emit()
        today = date.today().isoformat()
        day, warned = self._warned
        if day != today:
            warned = set()
            self._warned = (today, warned)
        due = budget_warning(self._today(), self._budget, warned)
        if due is not None:
            level, words = due
            warned.update(w for w in WARN_AT if w <= level)
            self._ops.notices.show(words, topic=USAGE)

    def _today(self) -> int:
        today = date.today().isoformat()
        return sum(entry.tokens for entry in self._days if entry.day == today)

    @Slot(int)
    def setBudget(self, tokens: int) -> None:
        """A day's token budget (0: none), kept in the config file."""
        tokens = max(0, tokens)
        if tokens != self._budget:
            self._budget = tokens
            self._warned = (self._warned[0], set())  # a new budget is warned about afresh
            self.changed.emit()
            saving = self._settings.save_notifications({"dailyTokens": tokens})
            self._ops.run(saving, "Could not save the budget", done=self._saved)

    def _saved(self, problem: str) -> None:
        self._problem = problem
        self.changed.emit()

    days = variant_property("QVariantList", lambda self: self._chart, notify=changed)
    agents = variant_property("QVariantList", lambda self: agent_totals(self._days), notify=changed)
    chats = variant_property("QVariantList", lambda self: self._chats, notify=changed)
    maxTokens = Property(int, lambda self: max((d["tokens"] for d in self._chart), default=0), notify=changed)
    today = Property(int, lambda self: self._today(), notify=changed)
    budget = Property(int, lambda self: self._budget, notify=changed)
    problem = Property(str, lambda self: self._problem, notify=changed)

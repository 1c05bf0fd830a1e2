"""Qt's own model checker (`QAbstractItemModelTester`) on the list models under test. It reports a broken
model contract (a bad index, rows changed without begin/end signals, inconsistent counts) as warnings
in the `qt.modeltest` category: they are collected here and fail the test."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, qInstallMessageHandler
from PySide6.QtTest import QAbstractItemModelTester

_WARN = QAbstractItemModelTester.FailureReportingMode.Warning


class ModelChecks:
    def __init__(self) -> None:
        self.failures: list[str] = []
        self._testers: dict[int, QAbstractItemModelTester] = {}
        self._models: list[QAbstractItemModel] = []
        self._previous: Any = qInstallMessageHandler(self._handle)

    def _handle(self, kind: Any, context: Any, message: str) -> None:
        if context.category == "qt.modeltest" or message.startswith("FAIL!"):
            self.failures.append(message)
        elif self._previous is not None:
            self._previous(kind, context, message)

    def watch(self, model: QAbstractItemModel) -> QAbstractItemModel:
        """Check `model` now and after every change it announces (each model once)."""
        if id(model) not in self._testers:
            self._models.append(model)  # keep it alive as long as its tester
            self._testers[id(model)] = QAbstractItemModelTester(model, _WARN)
        return model

    @property
    def watched(self) -> int:
        return len(self._testers)

    def close(self) -> None:
        qInstallMessageHandler(self._previous)
        self._testers.clear()
        self._models.clear()

    def assert_clean(self) -> None:
        assert not self.failures, "QAbstractItemModelTester: " + "; ".join(self.failures[:5])

"""The `rules` host part (contract: PermissionRulesHost) over the shared permission rules."""

from __future__ import annotations

from app.contract.errors import HostError
from app.contract.rules import RuleDecisionName, RuleView
from app.main.rules.book import PermissionRules
from app.main.rules.rule import PermissionRule


def view(rule: PermissionRule) -> RuleView:
    return RuleView(rule.id, rule.words(), rule.agent, rule.folder, rule.decision, rule.created)


class RulesOfUser:
    def __init__(self, book: PermissionRules) -> None:
        self.book = book

    def rules(self) -> list[RuleView]:
        return [view(rule) for rule in reversed(self.book.rules())]  # the newest first

    def offers(self, request_id: str, decision: RuleDecisionName) -> list[str]:
        return [rule.words() for rule in self.book.offers(request_id, decision)]

    def remember(self, request_id: str, decision: RuleDecisionName, index: int) -> RuleView | None:
        rule = self.book.remember(request_id, decision, index)
        return view(rule) if rule is not None else None

    def change(self, rule_id: str, decision: RuleDecisionName, every_folder: bool) -> RuleView | None:
        rule = self.book.change(rule_id, decision, every_folder)
        return view(rule) if rule is not None else None

    def remove(self, rule_id: str) -> bool:
        return self.book.remove(rule_id)

    def audit(self, limit: int = 200) -> list[dict[str, str]]:
        return self.book.audit.newest(limit)

    def export_audit(self, path: str) -> int:
        try:
            return self.book.audit.export(path)
        except OSError as exc:
            raise HostError(
                f"The log could not be saved to {path}: {exc.strerror}.", code="export-failed"
            ) from exc

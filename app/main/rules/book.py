"""The user's permission rules, kept in the data folder (`permission-rules.json`) and shared by every
agent: which rule decides a request (`decide`), the requests still waiting for the user (a new rule
answers those it matches at once), the rules a card offers, and the audit log of every decision a
rule made. One `AgentRules` per agent's chat service is what its permission desk asks.

A rule only ever picks one of the options the agent offered (its "allow once" or "reject once", else
its "always" one); a request offering neither is asked. Rules answer nothing but
`session/request_permission`: the file-system boundary, the proposal command's own permission and the
terminal checks are decided elsewhere and never by a rule."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.main.core.problems import LocalProblems
from app.main.rules.audit import AuditLog, entry
from app.main.rules.rule import Decision, PermissionRule, RequestFacts, facts_of, matches, offers
from app.main.stores.json_map import JsonMap

log = logging.getLogger(__name__)

OPTION_KINDS = {"allow": ("allow_once", "allow_always"), "deny": ("reject_once", "reject_always")}


class RulesFile(JsonMap[dict[str, str]]):
    entry_kind = "a permission rule"

    def accept(self, value: object) -> dict[str, str] | None:
        rule = PermissionRule.read(value)
        return rule.record() if rule is not None else None


@dataclass(frozen=True)
class RuleDecision:
    option_id: str
    rule: PermissionRule


@dataclass
class Waiting:
    agent: str
    chat: str
    cwd: str
    facts: RequestFacts
    title: str
    options: list[dict[str, Any]]
    answer: Callable[[RuleDecision], bool]  # True when the request took the rule's answer


def chosen_option(decision: Decision, options: list[dict[str, Any]]) -> str | None:
    for kind in OPTION_KINDS[decision]:
        option = next(
            (o for o in options if o.get("kind") == kind and isinstance(o.get("optionId"), str)), None
        )
        if option is not None:
            return str(option["optionId"])
    return None


class PermissionRules:
    def __init__(self, data_dir: Path | None = None, problems: LocalProblems | None = None) -> None:
        self._file = RulesFile("permission-rules.json", data_dir, problems, "permission rules")
        self.audit = AuditLog(data_dir, problems)
        self._waiting: dict[str, Waiting] = {}
        self.listeners: list[Callable[[], None]] = []  # the rules changed (Settings lists them)

    def rules(self) -> list[PermissionRule]:
        found = (PermissionRule.read(raw) for raw in self._file.items().values())
        return sorted((r for r in found if r is not None), key=lambda r: r.created)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a broken view must not stop a rule from being kept
                log.exception("a permission rules listener failed")

    def decide(self, waiting: Waiting, rules: list[PermissionRule] | None = None) -> RuleDecision | None:
        """The rule that answers this request now, else None; `rules`: the kept ones, when read already."""
        for rule in reversed(self.rules() if rules is None else rules):  # the newest that matches wins
            if matches(rule, waiting.agent, waiting.cwd, waiting.facts):
                option = chosen_option(rule.decision, waiting.options)
                if option is not None:
                    return RuleDecision(option, rule)
        return None

    def record(self, waiting: Waiting, decided: RuleDecision) -> None:
        name = next(
            (str(o.get("name") or "") for o in waiting.options if o.get("optionId") == decided.option_id), ""
        )
        self.audit.add(
            entry(
                agent=waiting.agent, folder=waiting.cwd, chat=waiting.chat, request=waiting.title,
                decision=decided.rule.decision, option=name or decided.option_id, rule=decided.rule.words(),
                rule_id=decided.rule.id,
            )
        )  # fmt: skip

    def wait(self, request_id: str, waiting: Waiting) -> None:
        self._waiting[request_id] = waiting

    def done(self, request_id: str) -> None:
        self._waiting.pop(request_id, None)

    def offers(self, request_id: str, decision: Decision) -> list[PermissionRule]:
        waiting = self._waiting.get(request_id)
        return offers(waiting.agent, waiting.cwd, waiting.facts, decision) if waiting is not None else []

    def change(self, rule_id: str, decision: Decision, every_folder: bool) -> PermissionRule | None:
        """The rules editor: a rule's decision turned round, or its folder widened to every folder; the
        changed rule answers the waiting requests it now matches. None when there is no such rule."""
        rule = next((r for r in self.rules() if r.id == rule_id), None)
        if rule is None:
            return None
        changed = replace(rule, decision=decision, folder="" if every_folder else rule.folder)
        self.add(changed)
        return changed

    def add(self, rule: PermissionRule) -> None:
        """Keep `rule` and answer every waiting request it matches."""
        self._file.set(rule.id, rule.record())
        kept = self.rules()
        for request_id, waiting in list(self._waiting.items()):
            decided = self.decide(waiting, kept)
            if decided is not None and decided.rule.id == rule.id and waiting.answer(decided):
                self.record(waiting, decided)
                self._waiting.pop(request_id, None)
        self._changed()

    def remember(self, request_id: str, decision: Decision, index: int) -> PermissionRule | None:
        """The card's "Always allow/deny": the offered rule `index`, kept; None when the request ended."""
        offered = self.offers(request_id, decision)
        if not 0 <= index < len(offered):
            return None
        self.add(offered[index])
        return offered[index]

    def remove(self, rule_id: str) -> bool:
        if rule_id not in self._file.items():
            return False
        self._file.set(rule_id, {})
        self._changed()
        return True


class AgentRules:
    """One agent's view of the rules: what its permission desk asks."""

    def __init__(self, book: PermissionRules, agent: str) -> None:
        self.book = book
        self.agent = agent

    def check(
        self, request_id: str, chat: str, cwd: str, tool_call: dict[str, Any], options: list[dict[str, Any]],
        answer: Callable[[RuleDecision], bool],
    ) -> RuleDecision | None:  # fmt: skip
        """The rule's answer now (recorded), or None: then the request waits, and a rule added while it
        does answers it through `answer`."""
        title = str(tool_call.get("title") or "")
        waiting = Waiting(self.agent, chat, cwd, facts_of(tool_call), title, options, answer)
        decided = self.book.decide(waiting)
        if decided is not None:
            self.book.record(waiting, decided)
            return decided
        self.book.wait(request_id, waiting)
        return None

    def done(self, request_id: str) -> None:
        self.book.done(request_id)

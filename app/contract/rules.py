"""The user's permission rules as the renderer sees them (host part `rules`): the rules kept, the ones a
waiting permission card offers, the audit log of what rules decided, and the envelope that says the
rules changed. The main side decides what a rule matches and answers (app/main/rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

RuleDecisionName = Literal["allow", "deny"]


@dataclass(frozen=True)
class RuleView:
    id: str
    words: str  # "Allow commands starting with “git status” in /home/me/project"
    agent: str
    folder: str  # "" for every folder
    decision: RuleDecisionName
    created: str


@dataclass(frozen=True)
class RulesChangedEnvelope:
    """A rule was added or removed (the Settings page lists them again)."""

    session_key: str | None = None
    kind: Literal["rules_changed"] = "rules_changed"


class PermissionRulesHost(Protocol):
    def rules(self) -> list[RuleView]: ...

    def offers(self, request_id: str, decision: RuleDecisionName) -> list[str]:
        """The rules "Always allow/deny" offers for a waiting request, in words, narrowest first."""
        ...

    def remember(self, request_id: str, decision: RuleDecisionName, index: int) -> RuleView | None:
        """Keep offer `index` (it answers the request and every other waiting one it matches); None
        when the request is no longer waiting."""
        ...

    def change(self, rule_id: str, decision: RuleDecisionName, every_folder: bool) -> RuleView | None:
        """The rules editor: the decision turned round, or the folder widened to every folder (a rule
        for every folder stays so); None when there is no such rule."""
        ...

    def remove(self, rule_id: str) -> bool: ...

    def audit(self, limit: int = 200) -> list[dict[str, str]]:
        """The newest decisions rules made, newest first (at, agent, folder, chat, request, decision,
        option, rule, rule_id)."""
        ...

    def export_audit(self, path: str) -> int:
        """Every decision as CSV at `path`; how many. HostError when the file cannot be written."""
        ...

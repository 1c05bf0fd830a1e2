"""A permission rule and what it matches. A rule is the user's standing answer to the agent's
`session/request_permission`: for one agent, in one folder (and the folders inside it) or in every
folder, allow or deny every call of a tool kind, a command that starts with given words, or a call
whose files all match a pattern in the folder.

Matching is deliberately narrow: a command rule matches only a simple command (no shell operator, so
`git status && rm -rf ~` is asked, not allowed by "git status"), whole words only ("git status" never
matches "git statusx"), and only the command the request states it runs (`rawInput.command`), never its
title (the agent's summary); a path rule only files inside the chat's folder (a `..` or an absolute path
outside it is never matched). A request a rule does not match is asked as before."""

from __future__ import annotations

import fnmatch
import os
import re
import uuid
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from app.contract.acp_fields import stated_command
from app.main.core.paths import within

Decision = Literal["allow", "deny"]
Scope = Literal["kind", "command", "path"]
SHELL_OPERATORS = re.compile(r"[;&|<>`\n\r]|\$\(")  # what chains, redirects or substitutes commands
MAX_VALUE_CHARS = 500
FIELDS = ("id", "agent", "folder", "decision", "scope", "kind", "value", "created")


@dataclass(frozen=True)
class PermissionRule:
    id: str
    agent: str  # the agent's id (as Settings > Agents names it)
    folder: str  # "" for every folder
    decision: Decision
    scope: Scope
    kind: str  # the tool kind the rule is about ("execute", "edit", ...)
    value: str = ""  # a command's first words, or a path pattern relative to the folder
    created: str = ""

    @staticmethod
    def make(
        agent: str, folder: str, decision: Decision, scope: Scope, kind: str, value: str = ""
    ) -> PermissionRule:
        created = datetime.now(UTC).isoformat(timespec="seconds")
        return PermissionRule(uuid.uuid4().hex[:12], agent, folder, decision, scope, kind, value, created)

    def record(self) -> dict[str, str]:
        return {key: str(value) for key, value in asdict(self).items()}

    @staticmethod
    def read(raw: Any) -> PermissionRule | None:
        """A rule as the rules file holds it; None for anything else."""
        if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in FIELDS):
            return None
        if raw["decision"] not in ("allow", "deny") or raw["scope"] not in ("kind", "command", "path"):
            return None
        if len(raw["value"]) > MAX_VALUE_CHARS or (raw["scope"] != "kind" and not raw["value"]):
            return None
        return PermissionRule(**{k: raw[k] for k in FIELDS})

    def words(self) -> str:
        """The rule as the user reads it: "allow commands starting with `git status` in ~/project"."""
        what = {
            "kind": f"every {self.kind or 'tool'} call",
            "command": f"commands starting with “{self.value}”",
            "path": f"{self.kind or 'tool'} calls on files matching “{self.value}”",
        }[self.scope]
        where = f"in {self.folder}" if self.folder else "in every folder"
        return f"{'Allow' if self.decision == 'allow' else 'Deny'} {what} {where}"


@dataclass(frozen=True)
class RequestFacts:
    """What a rule can match in a permission request."""

    kind: str
    command: str | None  # the command it states, when it states one
    paths: tuple[str, ...]  # the files it names


def facts_of(tool_call: Any) -> RequestFacts:
    call = tool_call if isinstance(tool_call, dict) else {}
    raw: dict[str, Any] = call["rawInput"] if isinstance(call.get("rawInput"), dict) else {}
    source = stated_command(call)  # what runs, as the card shows it: never the title
    command: str | None = None
    if isinstance(source, str):
        command = source.strip()
    elif isinstance(source, list) and source and all(isinstance(w, str) for w in source):
        command = " ".join(source)
    paths = [loc.get("path") for loc in call.get("locations") or [] if isinstance(loc, dict)]
    paths += [raw.get(k) for k in ("path", "file_path", "filePath")]
    kind = call.get("kind") if isinstance(call.get("kind"), str) else ""
    return RequestFacts(kind or "other", command, tuple(p for p in paths if isinstance(p, str) and p))


def _relative(path: str, cwd: str) -> str | None:
    """`path` relative to the chat's folder, or None when it is outside it."""
    full = os.path.normpath(path if os.path.isabs(path) else os.path.join(cwd, path))
    return os.path.relpath(full, cwd) if cwd and within(full, cwd) else None


def first_words(command: str) -> str:
    """The words a command rule offers to remember: the program, and its subcommand when it has one."""
    words = command.split()
    keep = words[:2] if len(words) > 1 and not words[1].startswith("-") else words[:1]
    return " ".join(keep)[:MAX_VALUE_CHARS]


def matches(rule: PermissionRule, agent: str, cwd: str, facts: RequestFacts) -> bool:
    if rule.agent != agent or (rule.folder and not within(cwd, rule.folder)):
        return False
    if rule.scope == "kind":
        return facts.kind == rule.kind
    if rule.scope == "command":
        command = facts.command
        if command is None or SHELL_OPERATORS.search(command):
            return False
        return command.split()[: len(rule.value.split())] == rule.value.split()
    relative = [_relative(p, cwd) for p in facts.paths]
    if facts.kind != rule.kind or not relative or any(r is None for r in relative):
        return False
    return all(fnmatch.fnmatchcase(r, rule.value) for r in relative if r is not None)


def offers(agent: str, cwd: str, facts: RequestFacts, decision: Decision) -> list[PermissionRule]:
    """The rules "Always allow" / "Always deny" offers for a request, narrowest first."""
    found: list[PermissionRule] = []
    if facts.command and not SHELL_OPERATORS.search(facts.command):
        found.append(
            PermissionRule.make(agent, cwd, decision, "command", facts.kind, first_words(facts.command))
        )
    relative = [_relative(p, cwd) for p in facts.paths]
    if relative and all(r is not None for r in relative):
        top = {(r or "").split("/", 1)[0] for r in relative}
        pattern = f"{top.pop()}/*" if len(top) == 1 and all("/" in (r or "") for r in relative) else "*"
        found.append(PermissionRule.make(agent, cwd, decision, "path", facts.kind, pattern))
    found.append(PermissionRule.make(agent, cwd, decision, "kind", facts.kind))
    return found

"""A trace for a bug report: the protocol log's traffic with what is the user's own taken out, by rules
the user is shown before saving (RULES), and a first line saying what was taken out. `clawqt replay`
reads it like any trace (the first line is a note it skips).

What goes: values handed to an agent or an MCP server as environment or headers (in `session/new`'s
`mcpServers`, and the agents' own environment from the config) wherever they appear, a JSON field
whose name says it holds a secret (token, password, API key, authorization, cookie), text shaped like
a credential (API keys of the common providers, bearer tokens, JWTs, a password in an address,
ClawQt's own tokens), the contents of files read or written through ClawQt and of diffs, and the
user's home folder in paths (as `~`)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from app.contract.credentials import TRACED, redact_text
from app.contract.protocol_log import REPORT_RULES as RULES

MIN_SECRET = 6  # characters of a value below which it is not searched for elsewhere (too common)
MAX_DEPTH = 64
FILE_LINES = 200  # lines of each file read or written looked for elsewhere in the trace
FILE_METHODS = frozenset({"fs/read_text_file", "fs/write_text_file"})
FILE_KEYS = frozenset({"content"})  # of those methods' params and results
DIFF_KEYS = frozenset({"oldText", "newText"})
SECRET_NAME = re.compile(r"token|secret|passw|api[-_]?key|_key$|credential", re.IGNORECASE)  # env names
SECRET_KEY = re.compile(r"token|secret|passw|api[-_]?key|authorization|cookie|credential", re.IGNORECASE)
CREDENTIAL_SHAPES = re.compile(
    r"\bsk-[A-Za-z0-9_-]{16,}"  # OpenAI, Anthropic (sk-ant-...)
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bAIza[0-9A-Za-z_-]{30,}"
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # a JWT
    r"|(?<=[Bb]earer )[A-Za-z0-9._~+/=-]{12,}"
)
PASSWORD_IN_URL = re.compile(r"(?<=://)([^/\s:@]+):[^/\s@]+@")


class Redactor:
    """One trace's redaction: what it learned from the traffic (values sent as environment or headers)
    and what it took out, counted by rule."""

    def __init__(self, known: dict[str, str], home: str) -> None:
        """`known`: secret values by their name (the agents' environment from the config)."""
        self._known = {value: name for value, name in known.items() if len(value) >= MIN_SECRET}
        self._home = home.rstrip("/") if len(home.rstrip("/")) > 1 else ""
        self.counts: Counter[str] = Counter()

    def learn(self, message: Any, method: str = "", depth: int = 0) -> None:
        """Note the values the traffic hands out as environment or headers (`{"name", "value"}` pairs),
        and the lines of files read or written through ClawQt (an agent quoting a file in its answer
        quotes its lines)."""
        if depth > MAX_DEPTH:
            return
        if isinstance(message, dict):
            for key, value in message.items():
                if isinstance(value, str) and key in FILE_KEYS and method in FILE_METHODS:
                    self._learn_file(value)
                    continue
                if key in ("env", "headers") and isinstance(value, list):
                    for pair in value:
                        given = pair.get("value") if isinstance(pair, dict) else None
                        if isinstance(given, str) and len(given) >= MIN_SECRET:
                            self._known.setdefault(given, f"{key} {pair.get('name', '')}".strip())
                else:
                    self.learn(value, method, depth + 1)
        elif isinstance(message, list):
            for item in message:
                self.learn(item, method, depth + 1)

    def _learn_file(self, content: str) -> None:
        for line in content.splitlines()[:FILE_LINES]:
            line = line.strip()
            if len(line) >= MIN_SECRET:
                self._known.setdefault(line, "file contents")

    def message(self, message: Any, method: str, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            return "[redacted: nested too deep]"
        if isinstance(message, dict):
            return {key: self._field(key, value, method, depth) for key, value in message.items()}
        if isinstance(message, list):
            return [self.message(item, method, depth + 1) for item in message]
        if isinstance(message, str):
            return self.text(message)
        return message

    def _field(self, key: str, value: Any, method: str, depth: int) -> Any:
        if isinstance(value, str) and (key in DIFF_KEYS or (key in FILE_KEYS and method in FILE_METHODS)):
            self.counts["file contents"] += 1
            return f"[file contents: {len(value)} characters]"
        if isinstance(value, str) and value and SECRET_KEY.search(key):
            self.counts["secret fields"] += 1
            return f"[redacted: {key}]"
        if key in ("env", "headers") and isinstance(value, list):
            return [self._pair(pair) for pair in value]
        return self.message(value, method, depth + 1)

    def _pair(self, pair: Any) -> Any:
        if isinstance(pair, dict) and isinstance(pair.get("value"), str):
            self.counts["environment and headers"] += 1
            return {**pair, "value": f"[redacted: {pair.get('name', 'value')}]"}
        return self.message(pair, "", 1)

    def text(self, text: str) -> str:
        for value, name in self._known.items():
            if value in text:
                self.counts["environment and headers"] += text.count(value)
                text = text.replace(value, f"[redacted: {name}]")
        text, shaped = CREDENTIAL_SHAPES.subn("[redacted credential]", text)
        text, passwords = PASSWORD_IN_URL.subn(r"\1:[redacted]@", text)
        own = redact_text(text, TRACED)
        self.counts["credentials"] += shaped + passwords + (own != text)
        if self._home and self._home in own:
            self.counts["home folder"] += own.count(self._home)
            own = re.sub(re.escape(self._home) + r"(?=/|\b|$)", "~", own)
        return own

    def summary(self) -> str:
        """What was taken out, for the trace's first line."""
        taken = ", ".join(f"{count} {rule}" for rule, count in sorted(self.counts.items()) if count)
        rules = "; ".join(RULES)
        return f"ClawQt trace for a bug report. Taken out: {taken or 'nothing'}. Rules: {rules}"

"""`clawqt replay TRACE [--json]`: a recorded trace rendered headlessly through the same code as the live
app: the main side's session state machine (`app/main/replay/feed.py`) turns the trace into envelopes
and committed loads, the renderer's timeline store reduces and groups them, and the one serializer
(`app/renderer/timeline/serialize.py`) prints the grouped timeline as JSON or as a transcript.

What the timeline does not hold comes from the trace itself and is added here: each session's
`agentRequests` (the agent's fs/terminal requests with the client's answers) and the top-level
`failures` (a start or session opening that failed). A replay that renders no session is a failure
(exit 1, `exit_status`): a trace whose `session/new` failed must not look like an empty success.

Each session's `diagnostics.ignored` counts what was not applied: messages the machine ignored while
that session was shown (those before any session count for the first one) plus the envelopes its
timeline ignored.
"""

from __future__ import annotations

import shlex
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.main.replay.feed import AgentRequest, TraceError, TraceFailure, TraceIgnored, feed_trace, read_trace
from app.main.replay.requests import failure_text
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.serialize import timeline_json, transcript
from app.renderer.timeline.store import replayed_timelines

__all__ = ["TraceError", "exit_status", "problems", "replay_json", "replay_text"]

NO_SESSION = "no session could be rendered from the trace"


def replay_json(path: Path) -> dict[str, Any]:
    """`{"sessions": [...], "failures": [...]}`, the sessions in the order they were first opened."""
    ignored: Counter[str | None] = Counter()
    requests: defaultdict[str | None, list[dict[str, Any]]] = defaultdict(list)
    failures: list[dict[str, Any]] = []

    def timeline_outputs() -> Iterator[Any]:
        """The envelopes and loads, streamed on to the timelines; the rest noted in the books above."""
        for output in feed_trace(read_trace(path)):
            if isinstance(output, TraceIgnored):
                ignored[output.session_key] += output.count
            elif isinstance(output, TraceFailure):
                failures.append(output.record())
            elif isinstance(output, AgentRequest):
                requests[output.session_key].append(output.record())
            else:
                yield output

    sessions = []
    for index, timeline in enumerate(replayed_timelines(timeline_outputs())):
        key = timeline.session_key
        extra = ignored[key] + (ignored[None] if index == 0 else 0)
        sessions.append(_session_json(timeline, extra, requests[key]))
    return {"sessions": sessions, "failures": failures}


def _session_json(timeline: Timeline, ignored: int, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """The timeline's JSON with the trace's `agentRequests` before its diagnostics."""
    session = timeline_json(timeline, ignored)
    diagnostics = session.pop("diagnostics")
    return {**session, "agentRequests": requests, "diagnostics": diagnostics}


def exit_status(replayed: dict[str, Any]) -> int:
    """0 when at least one session rendered (failures of others are reported, not fatal), else 1."""
    return 0 if replayed["sessions"] else 1


def problems(replayed: dict[str, Any]) -> list[str]:
    """The lines for stderr: each failure, then, when nothing rendered, that nothing did."""
    level = "warning" if replayed["sessions"] else "error"
    lines = [f"{level}: {failure_text(f)}" for f in replayed["failures"]]
    if not replayed["sessions"]:
        lines.append(f"error: {NO_SESSION}" + ("" if replayed["failures"] else " (it opens none)"))
    return lines


def replay_text(replayed: dict[str, Any]) -> str:
    """A readable transcript of the same grouping (for people), each session followed by what the
    agent asked of the client."""
    parts = []
    for session in replayed["sessions"]:
        parts.append(transcript([session]))
        if session["agentRequests"]:
            lines = [f"- {request_text(r)}" for r in session["agentRequests"]]
            parts.append("## Requests the agent made of ClawQt\n\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)


def request_text(record: dict[str, Any]) -> str:
    """One agent request as a line: the method, what it names, and the answer."""
    method, params = record["method"], record["params"]
    if method == "terminal/create":
        argv = [str(params.get("command", "")), *(str(a) for a in params.get("args") or [])]
        subject = shlex.join(argv) + (f" (in {params['cwd']})" if params.get("cwd") else "")
    elif method.startswith("fs/"):
        content = params.get("content")
        size = f" ({len(content)} characters)" if isinstance(content, str) else ""
        subject = f"{params.get('path')}{size}"
    else:
        subject = str(params.get("terminalId"))
    return f"{method} {subject}: {_answer_text(record)}"


def _answer_text(record: dict[str, Any]) -> str:
    if record["outcome"] == "unanswered":
        return "no answer in the trace"
    if record["outcome"] == "error":
        error = record["error"] if isinstance(record["error"], dict) else {}
        return f"error {error.get('code')}: {error.get('message')}"
    result = record["result"] if isinstance(record["result"], dict) else {}
    if "terminalId" in result:
        return f"terminal {result['terminalId']}"
    facts = [f"{len(result[n])} characters" for n in ("content", "output") if isinstance(result.get(n), str)]
    facts += ["truncated"] if result.get("truncated") else []
    facts += [_exit_text(result.get("exitStatus") if "output" in result else result)]
    return ", ".join(f for f in facts if f) or "ok"


def _exit_text(status: Any) -> str:
    """`exitStatus` (terminal/output) or the wait_for_exit result: "exit code 0", "signal SIGKILL"."""
    if not isinstance(status, dict):
        return ""
    if status.get("signal"):
        return f"signal {status['signal']}"
    return f"exit code {status['exitCode']}" if status.get("exitCode") is not None else ""

"""`clawqt replay TRACE [--json]`: render a recorded trace headlessly through the same routing
(`app.main.session_routing.route_update`), reducer and grouping code the app uses.

Trace semantics: a sent `session/new` and its response map the ACP id to the request's
`_meta.sessionKey` (else the ACP id); a sent `session/load` starts that key's timeline afresh, makes its
id the key, and marks updates before its response historical; a sent `session/prompt` creates the
optimistic user segment (text and resource links, `_meta.messageId` if given); received
`session/update`s are routed and reduced; a received `session/request_permission` makes a pending
permission item that the sent answer settles; the prompt's response settles the turn. Anything else is
counted in the session's `diagnostics.ignored` (the active session's, or the first session's).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.contract.envelopes import (
    LoadResult,
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptSettledEnvelope,
    SessionUpdateEnvelope,
)
from app.main.session_routing import ActiveSession, LivePrompt, LoadTransaction, rewrite, route_update
from app.renderer.timeline.items import MessageSegment, PermissionItem, PlanItem, Thought, ToolCall
from app.renderer.timeline.parts import AttachmentPart, content_to_part
from app.renderer.timeline.questions import question_directory
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.store import TimelineStore
from app.renderer.timeline.terminal_screen import render_screen
from app.renderer.timeline.turn_view import copy_text, group_attachments, item_text, user_text


class TraceError(ValueError):
    """The trace file cannot be read at all (a bad line is counted, not fatal)."""


@dataclass
class _Pending:
    method: str
    params: dict[str, Any]
    t: float
    txn: LoadTransaction | None = None
    message_id: str | None = None
    key: str | None = None


@dataclass
class ReplayState:
    store: TimelineStore = field(default_factory=TimelineStore)
    pending: dict[Any, _Pending] = field(default_factory=dict)
    permissions: dict[Any, tuple[str, int, str]] = field(default_factory=dict)  # rpc id -> key, gen, req
    live_by_acp: dict[str, LivePrompt] = field(default_factory=dict)
    active: ActiveSession | None = None
    loading: LoadTransaction | None = None
    generation: int = 0
    keys_in_order: list[str] = field(default_factory=list)
    ignored: dict[str, int] = field(default_factory=dict)
    unattributed: int = 0
    prompts: int = 0

    def ignore(self) -> None:
        if self.active is not None:
            self.ignored[self.active.key] = self.ignored.get(self.active.key, 0) + 1
        else:
            self.unattributed += 1


def read_trace(path: Path) -> Iterator[dict[str, Any]]:
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"cannot read the trace {path}: {exc}") from exc
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                yield {"dir": "garbage"}
                continue
            yield entry if isinstance(entry, dict) else {"dir": "garbage"}


def _emit(state: ReplayState, envelope: Any) -> None:
    _, _ = state.store.apply(envelope)


def _on_send(state: ReplayState, msg: dict[str, Any], t: float) -> None:
    method = msg.get("method")
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    if method is None:  # our answer to an agent request
        answered = state.permissions.pop(msg.get("id"), None)
        if answered is None:
            state.ignore()
            return
        key, generation, request_id = answered
        outcome = (msg.get("result") or {}).get("outcome") if isinstance(msg.get("result"), dict) else None
        outcome = outcome if isinstance(outcome, dict) else {}
        option = outcome.get("optionId") if outcome.get("outcome") == "selected" else None
        _emit(
            state,
            PermissionResolvedEnvelope(
                key, generation, request_id, "selected" if option else "cancelled", option, "answered"
            ),
        )
        return
    if "id" not in msg:
        if method != "session/cancel":
            state.ignore()
        return
    pending = _Pending(method, params, t)
    if method == "session/new":
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        key = meta.get("sessionKey") if isinstance(meta.get("sessionKey"), str) else None
        pending.txn = LoadTransaction(key or "", state.generation + 1, None)
        state.loading = pending.txn
    elif method == "session/load" and isinstance(params.get("sessionId"), str):
        pending.txn = LoadTransaction(params["sessionId"], state.generation + 1, params["sessionId"])
        state.loading = pending.txn
    elif method == "session/prompt":
        _start_prompt(state, pending, params)
    state.pending[msg["id"]] = pending


def _start_prompt(state: ReplayState, pending: _Pending, params: dict[str, Any]) -> None:
    acp_id = params.get("sessionId")
    active = state.active
    if active is None or active.acp_id != acp_id:
        state.ignore()
        return
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    state.prompts += 1
    message_id = meta.get("messageId") if isinstance(meta.get("messageId"), str) else None
    message_id = message_id or f"user:replay-{state.prompts}"
    blocks = params.get("prompt") if isinstance(params.get("prompt"), list) else []
    text = "\n".join(
        b.get("text", "")
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    )
    attachments = [
        content_to_part(b, "user")
        for b in blocks
        if isinstance(b, dict) and b.get("type") in ("resource_link", "image", "resource")
    ]
    timeline = state.store.timelines.get(active.key)
    if timeline is not None:
        timeline.add_optimistic(message_id, text, [a for a in attachments if isinstance(a, AttachmentPart)])
    live = LivePrompt(active.key, active.acp_id, active.generation, active.cwd, message_id)
    state.live_by_acp[active.acp_id] = live
    active.historical = False
    pending.message_id = message_id
    pending.key = active.key


def _on_recv(state: ReplayState, msg: dict[str, Any], t: float) -> None:
    method = msg.get("method")
    if method == "session/update" and "id" not in msg:
        route = route_update(msg.get("params"), state.live_by_acp, state.loading, state.active)
        if route.envelope is not None:
            _emit(state, route.envelope)
        elif route.kind in ("dropped", "malformed"):
            state.ignore()
        return
    if method == "session/request_permission" and "id" in msg:
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        live = state.live_by_acp.get(params.get("sessionId"))
        if live is None or state.loading is not None:
            state.ignore()
            return
        request_id = f"rpc-{msg['id']}"
        state.permissions[msg["id"]] = (live.key, live.generation, request_id)
        options = params.get("options") if isinstance(params.get("options"), list) else []
        tool_call = params.get("toolCall") if isinstance(params.get("toolCall"), dict) else {}
        _emit(
            state,
            PermissionRequestEnvelope(
                live.key,
                live.generation,
                request_id,
                tool_call,
                tuple(o for o in options if isinstance(o, dict)),
            ),
        )
        return
    if method is not None or "id" not in msg:
        state.ignore()
        return
    pending = state.pending.pop(msg["id"], None)
    if pending is None:
        state.ignore()
        return
    _on_response(state, pending, msg, t)


def _on_response(state: ReplayState, pending: _Pending, msg: dict[str, Any], t: float) -> None:
    result = msg.get("result") if isinstance(msg.get("result"), dict) else None
    if pending.txn is not None:
        if state.loading is pending.txn:
            state.loading = None
        if result is None:
            return  # a failed load changes nothing
        txn = pending.txn
        if pending.method == "session/new":
            acp_id = result.get("sessionId")
            if not isinstance(acp_id, str):
                state.ignore()
                return
            txn.acp_id = acp_id
            txn.key = txn.key or acp_id
        state.generation = txn.generation
        assert txn.acp_id is not None
        updates = tuple(
            SessionUpdateEnvelope(txn.key, txn.generation, True, rewrite(p, txn.key))
            for p in txn.buffer
            if p.get("sessionId") == txn.acp_id
        )
        cwd = pending.params.get("cwd") if isinstance(pending.params.get("cwd"), str) else ""
        state.store.load(LoadResult(txn.key, txn.generation, cwd, updates))
        state.active = ActiveSession(txn.key, txn.acp_id, txn.generation, cwd, historical=True)
        if txn.key not in state.keys_in_order:
            state.keys_in_order.append(txn.key)
        return
    if pending.method == "session/prompt" and pending.key is not None and pending.message_id:
        acp_id = pending.params.get("sessionId")
        live = state.live_by_acp.pop(acp_id, None) if isinstance(acp_id, str) else None
        generation = live.generation if live else state.generation
        stop = result.get("stopReason") if result else None
        error = None if result is not None else str((msg.get("error") or {}).get("message", "error"))
        _emit(
            state,
            PromptSettledEnvelope(
                pending.key,
                generation,
                pending.message_id,
                stop if isinstance(stop, str) else None,
                error,
                round(t - pending.t, 3),
            ),
        )


def replay_entries(entries: Iterable[dict[str, Any]]) -> ReplayState:
    state = ReplayState()
    for entry in entries:
        direction = entry.get("dir")
        msg = entry.get("msg")
        t = entry.get("t") if isinstance(entry.get("t"), int | float) else 0.0
        if direction == "stderr":
            continue
        if direction not in ("send", "recv") or not isinstance(msg, dict):
            state.ignore()
            continue
        (_on_send if direction == "send" else _on_recv)(state, msg, float(t))
    return state


# --- output ------------------------------------------------------------------------------------------
def _attachment_json(attachment: Any) -> dict[str, Any]:
    return {
        "name": attachment.name,
        "uri": attachment.uri,
        "source": attachment.source,
        "status": attachment.status,
    }


def _item_json(item: Any) -> dict[str, Any] | None:
    if isinstance(item, MessageSegment):
        if not item.visible:
            return None
        return {"kind": "message", "id": item.id, "text": item_text(item)}
    if isinstance(item, Thought):
        return {"kind": "thought", "id": item.id, "text": item_text(item)}
    if isinstance(item, ToolCall):
        terminal = item.terminal
        return {
            "kind": "tool",
            "id": item.id,
            "tool": {
                "toolCallId": item.tool_call_id,
                "title": item.title,
                "toolKind": item.tool_kind,
                "status": item.status,
                "terminal": None
                if terminal is None
                else {
                    "terminalId": terminal.terminal_id,
                    "cwd": terminal.cwd,
                    "output": render_screen(terminal.output),
                    "exitCode": terminal.exit_code,
                    "signal": terminal.signal,
                },
            },
        }
    if isinstance(item, PermissionItem):
        return {
            "kind": "permission",
            "id": item.id,
            "permission": {
                "status": item.status,
                "options": [
                    {"optionId": o.get("optionId"), "name": o.get("name"), "kind": o.get("kind")}
                    for o in item.options
                ],
            },
        }
    if isinstance(item, PlanItem):
        return {"kind": "plan", "id": item.id, "plan": {"entries": item.entries}}
    return None


def timeline_json(timeline: Timeline, ignored: int) -> dict[str, Any]:
    groups = []
    for group in timeline.grouping.groups:
        attachments = [_attachment_json(a) for a in group_attachments(timeline.items, group)]
        if group.kind == "user":
            groups.append(
                {
                    "kind": "user",
                    "id": group.id,
                    "text": user_text(timeline.items, group),
                    "attachments": attachments,
                }
            )
            continue
        items = [j for j in (_item_json(timeline.items[i]) for i in group.item_ids) if j is not None]
        groups.append(
            {
                "kind": "assistant-turn",
                "id": group.id,
                "items": items,
                "attachments": attachments,
                "copyText": copy_text(timeline.items, group),
            }
        )
    directory = question_directory(timeline.items, timeline.grouping, limit=10**9)
    return {
        "key": timeline.session_key,
        "title": timeline.meta.title,
        "groups": groups,
        "questions": [q.title for q in directory.entries],
        "diagnostics": {"ignored": ignored + timeline.ignored},
    }


def replay_json(path: Path) -> dict[str, Any]:
    state = replay_entries(read_trace(path))
    sessions = []
    for index, key in enumerate(state.keys_in_order):
        timeline = state.store.timelines[key]
        extra = state.ignored.get(key, 0) + (state.unattributed if index == 0 else 0)
        sessions.append(timeline_json(timeline, extra))
    return {"sessions": sessions}


def replay_text(path: Path) -> str:
    """A readable transcript of the same grouping (for people)."""
    out: list[str] = []
    for session in replay_json(path)["sessions"]:
        out.append(f"# {session['title'] or session['key']}\n")
        for group in session["groups"]:
            if group["kind"] == "user":
                out.append(f"## You\n\n{group['text']}\n")
            else:
                out.append("## Agent\n")
                for item in group["items"]:
                    if item["kind"] in ("message", "thought"):
                        prefix = "> " if item["kind"] == "thought" else ""
                        out.append("\n".join(prefix + line for line in item["text"].splitlines()) + "\n")
                    elif item["kind"] == "tool":
                        tool = item["tool"]
                        out.append(f"- [{tool['status']}] {tool['title']} ({tool['toolKind']})")
                        if tool["terminal"]:
                            out.append("```console\n" + tool["terminal"]["output"] + "\n```")
                    elif item["kind"] == "permission":
                        out.append(f"- permission: {item['permission']['status']}")
                    elif item["kind"] == "plan":
                        out.extend(f"- [{e['status']}] {e['content']}" for e in item["plan"]["entries"])
            for attachment in group["attachments"]:
                out.append(f"- attachment: {attachment['name']} <{attachment['uri']}>")
            out.append("")
    return "\n".join(out)

"""Terminal-action proposals, tied together: the prompt's channel and canonical invocation, the silent
permission answer, the endpoint's requests, the cards, the user's confirmation and the lifecycle.

Ownership: `ProposalService` owns the channels (`ProposalChannels`), the endpoint (`ProposalEndpoint`)
and the futures of the CLI's final lines; it emits `ProposalEnvelope`s through the chat service and
dispatches a confirmed action to the user's terminals (`UserTerminals`). The chat service calls it at
three points: when the user sends a message (`prompt_context`), when the agent asks permission
(`on_permission`), and on the lifecycle (`stopped`, `session_closed`, `agent_gone`).

Authority: only `confirm` (the user's click or key on a card, through the `proposals` host part) changes
a terminal, and only after `ProposalChannels.claim` took the proposal from awaiting, once. A permission
is answered silently only for exactly the canonical command of the chat's active channel (AllowOnce,
never AllowAlways), and cancelled silently for any other form naming the CLI; anything else goes to the
user as usual. A `send` goes to the terminal captured when the prompt was sent, never one the payload
names.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from app.contract.envelopes import Envelope
from app.contract.errors import HostError
from app.contract.proposals import (
    FinalStatus,
    ProposalEnvelope,
    ProposalNoticeEnvelope,
    canonical_invocation,
    compact_payload,
)
from app.contract.user_terminals import split_direction
from app.main.proposals.channels import DECISION_SECONDS, ProposalChannels
from app.main.proposals.endpoint import ProposalEndpoint, ProposalEndpointError
from app.main.proposals.recognition import recognise
from app.main.proposals.requests import Proposal, final_wire
from app.main.terminals.user import UserTerminals

log = logging.getLogger(__name__)

REASONS: dict[str, str] = {
    "confirmed": "Sent to the terminal.",
    "cancelled": "Cancelled.",
    "superseded": "Superseded by a newer message.",
    "session_replaced": "The chat's session was replaced.",
    "timed_out": "Timed out: nobody answered within 10 minutes.",
    "unavailable": "The agent or ClawQt's proposal endpoint went away.",
}
TOOL_DECISION_WAIT_SECONDS = 25.0  # under the MCP server's per-call limit
# OpenClaw's exec moves a command to the background after `yieldMs` (10 s unless asked, at most 120 s):
# asking for the longest keeps a decision made within two minutes in the agent's turn
EXEC_YIELD_HINT_MS = 120_000
PermissionAnswer = str | None  # an option id to answer with, "" to cancel silently, None: ask the user
NOT_SHOWN = "The agent's terminal-action proposal could not be shown"
NOT_ARMED = "the permission that allowed its command was used or had run out, and no new one came"


def clawqt_executable() -> str | None:
    """The absolute path agents run for `propose-terminal-actions`: the frozen app itself, else the
    `clawqt` console script beside this interpreter (or on PATH); None when there is none."""
    if getattr(sys, "frozen", False):
        return os.path.abspath(sys.executable)
    beside = os.path.join(os.path.dirname(sys.executable), "clawqt")
    if os.access(beside, os.X_OK):
        return os.path.abspath(beside)
    found = shutil.which("clawqt")
    return os.path.abspath(found) if found else None


class ProposalService:
    def __init__(
        self,
        terminals: UserTerminals,
        emit: Callable[[Envelope], None],
        turn_is_current: Callable[[str, int, str], bool],
        executable: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        environ: dict[str, str] | None = None,
    ) -> None:
        self._terminals = terminals
        self._emit = lambda envelope: emit(marked_profiles(envelope, terminals.profiles.has))
        self.executable = executable if executable is not None else clawqt_executable()
        self.channels = ProposalChannels(clock, turn_is_current)
        self.endpoint = ProposalEndpoint(self.channels.instance, self, environ)
        self._finals: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._deadline: asyncio.TimerHandle | None = None
        self._clock = clock
        self.problem = ""  # why proposals are off (no executable, the endpoint could not start)
        self._problem_told = False
        self.channels.subscribe_final(self._on_final)

    @property
    def available(self) -> bool:
        return self.endpoint.listening and self.executable is not None

    async def start(self) -> None:
        if self.executable is None:
            self.problem = (
                "Terminal-action proposals are off: no clawqt executable was found to offer agents."
            )
            return
        try:
            await self.endpoint.start()
        except (ProposalEndpointError, OSError) as error:
            self.problem = f"Terminal-action proposals are off: {error}"
            log.warning("%s", self.problem)

    async def stop(self) -> None:
        self.channels.unavailable_all()
        if self._deadline is not None:
            self._deadline.cancel()
        await self.endpoint.stop()

    # --- the prompt ----------------------------------------------------------------------------------
    def prompt_context(self, session_key: str, generation: int, turn_id: str) -> str | None:
        """The user sent a message: a new channel (the previous one superseded) and the text telling the
        agent how to propose; None when proposals are off."""
        if not self.available:
            if self.problem and not self._problem_told:
                self._problem_told = True  # once per run, on the chat the user was writing in
                self._emit(ProposalNoticeEnvelope(session_key, self.problem))
            return None
        recent = self._terminals.by_human_recency()
        target = recent[0] if recent else None
        channel = self.channels.issue(
            session_key,
            generation,
            turn_id,
            target.terminal_id if target else None,
            target.title if target else "",
        )
        where = f'the terminal "{target.title}" the user used last' if target else "no terminal (open one)"
        return "\n".join(
            [
                "To propose terminal actions the user may run (nothing runs until the user confirms a card),",
                "run exactly this command, replacing PAYLOAD by compact JSON (write ' as \\u0027):",
                canonical_invocation(self.executable or "", channel, "PAYLOAD"),
                'PAYLOAD: {"schema_version":1,"origin":"terminal_agent","recommended_choice":1,"choices":'
                '[{"choice":1,"title":"...","rationale":"...","actions":[{"type":"send","input":"COMMAND"}]}]}',
                '1-3 choices of 1-3 actions: {"type":"send","input"} types into ' + where + ";",
                '{"type":"open","target":"tab","cwd"?,"title"?} opens a terminal; '
                '{"type":"open_and_send",...,"input"} opens one and runs input. Never name a terminal.',
                "It prints two JSON lines: the validation, then the user's decision. It waits for the user",
                f"(up to {DECISION_SECONDS / 60:.0f} minutes): keep it in the foreground with your shell",
                f"tool's longest wait (exec: yieldMs {EXEC_YIELD_HINT_MS}) to hear the answer this turn.",
            ]
        )

    # --- the permission path -------------------------------------------------------------------------
    def on_permission(
        self, session_key: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> PermissionAnswer:
        """The canonical command of this chat's channel: AllowOnce (its payload armed); another form
        naming the CLI: "" (cancel, silently); anything else: None (the user decides)."""
        if self.executable is None:
            return None
        recognition = recognise(tool_call, self.executable)
        if recognition.kind == "other":
            return None
        invocation = recognition.invocation
        if recognition.kind != "canonical" or invocation is None:
            return self._cancelled(
                session_key,
                f"{recognition.reason}. Ask the agent to run the command ClawQt gave it exactly as given",
            )
        allow_once = next(
            (o.get("optionId") for o in options if isinstance(o, dict) and o.get("kind") == "allow_once"),
            None,
        )
        if not isinstance(allow_once, str):  # never AllowAlways: without AllowOnce the command does not run
            return self._cancelled(
                session_key,
                "the agent offered no “Allow once” for its command, and ClawQt never allows it always. "
                "Let the agent's shell tool ask with “Allow once”, or run commands without asking",
            )
        if not self.channels.arm(invocation.channel, invocation.payload_json, session_key):
            return self._cancelled(
                session_key,
                "the command names a channel of another chat or of an earlier message. "
                "Ask again in this chat: each message offers its own channel",
            )
        return allow_once

    def _cancelled(self, session_key: str, why: str) -> PermissionAnswer:
        """Cancel the permission silently (no permission card) and say on the chat why."""
        log.info("a proposal command was cancelled: %s", why)
        self._emit(ProposalNoticeEnvelope(session_key, f"{NOT_SHOWN}: ClawQt cancelled its command: {why}."))
        return ""

    # --- the endpoint's requests ---------------------------------------------------------------------
    async def handle(
        self, request_line: bytes, peer_uid: int
    ) -> tuple[dict[str, Any], asyncio.Future[dict[str, Any]] | None]:
        validation = self.channels.validate(request_line)
        proposal = validation.proposal
        if validation.card is not None:
            self._emit(validation.card)
        if validation.status != "accepted" or proposal is None:
            # refusals the agent cannot mend by trying again on this channel: the user hears them
            told = validation.status in ("not_armed", "rejected") and not validation.retryable
            if told and validation.session_key:
                why = NOT_ARMED if validation.status == "not_armed" else validation.reason.rstrip(".")
                text = f"{NOT_SHOWN}: {why}. Ask the agent to propose again."
                self._emit(ProposalNoticeEnvelope(validation.session_key, text))
            return validation.wire(), None
        final: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._finals[proposal.proposal_id] = final
        final.add_done_callback(functools.partial(self._final_gone, proposal.proposal_id))
        self._emit(proposal.envelope("awaiting"))
        self._arm_deadline()
        return validation.wire(), final

    def _final_gone(self, proposal_id: str, final: asyncio.Future[dict[str, Any]]) -> None:
        """The endpoint cancelled the final (the CLI went away): nobody can hear a decision any more."""
        self._finals.pop(proposal_id, None)
        if final.cancelled():
            self.channels.finish(proposal_id, "unavailable")

    def _on_final(self, proposal: Proposal, status: FinalStatus) -> None:
        final = self._finals.pop(proposal.proposal_id, None)
        if final is not None and not final.done():
            final.set_result(final_wire(proposal.proposal_id, status))
        reason = REASONS.get(status, "")
        if status == "confirmed" and proposal.send_target_title:
            reason = f"Sent to {proposal.send_target_title}."
        self._emit(proposal.envelope(status, reason))

    def _arm_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        deadline = self.channels.next_deadline()
        if deadline is not None:
            delay = max(0.0, deadline - self._clock())
            self._deadline = asyncio.get_running_loop().call_later(delay + 0.01, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        self.channels.expire_overdue()
        self._arm_deadline()

    # --- the second door: the MCP tool ---------------------------------------------------------------
    async def propose_via_tool(self, session_key: str, payload: object) -> dict[str, Any]:
        """`propose_terminal_actions` on the terminal tools' server: the chat's current channel armed
        with this payload, then exactly the CLI's validation and card. Answers the validation line and,
        when the user decides within `TOOL_DECISION_WAIT_SECONDS`, the final line (else None)."""
        channel = self.channels.active_channel(session_key)
        if not self.endpoint.listening or channel is None:
            reason = (
                "no message of this chat is waiting for proposals (they belong to the user's latest message)"
            )
            return {
                "validation": {
                    "phase": "validation",
                    "status": "not_armed",
                    "reason": reason,
                    "retryable": False,
                }
            }
        if not isinstance(payload, dict):
            reason = "payload must be a JSON object"
            return {
                "validation": {
                    "phase": "validation",
                    "status": "invalid_schema",
                    "reason": reason,
                    "retryable": True,
                }
            }
        payload_json = compact_payload(payload)
        self.channels.arm(channel, payload_json, session_key)
        request = json.dumps({"version": 1, "channel": channel, "payload": payload_json}).encode()
        line, final = await self.handle(request, os.getuid() if hasattr(os, "getuid") else 0)
        if final is None:
            return {"validation": line}
        try:
            decided = await asyncio.wait_for(asyncio.shield(final), TOOL_DECISION_WAIT_SECONDS)
        except TimeoutError:
            decided = None  # the card stays; the user may still answer it
        return {"validation": line, "decision": decided}

    # --- the user ------------------------------------------------------------------------------------
    def confirm(self, proposal_id: str, choice: int, action_index: int, run: bool = True) -> bool:
        """The user confirmed one action of a card: claim the proposal (once), then dispatch it to the
        terminals. False when the card can no longer dispatch (ended, claimed, timed out)."""
        proposal = self.channels.proposal(proposal_id)
        picked = _action(proposal, choice, action_index) if proposal is not None else None
        if picked is None:
            return False
        if not run and picked.type == "send" and "\n" in picked.input.rstrip("\n"):
            return False  # inserting a multi-line command would run its first lines: only Run does that
        claimed = self.channels.claim(proposal_id)
        if claimed is None:
            return False
        try:
            self._dispatch(claimed, picked, run)
        except HostError as error:
            log.warning("a confirmed proposal could not be dispatched: %s", error)
            self.channels.finish(proposal_id, "unavailable")
            return False
        self.channels.finish(proposal_id, "confirmed")
        return True

    def _dispatch(self, proposal: Proposal, action: Any, run: bool) -> None:
        text = action.input.rstrip("\n")
        if action.type == "send":
            target = proposal.send_target
            if target is None or self._terminals.info(target) is None:
                raise HostError("The terminal this proposal was for is closed.", code="no-target")
            self._terminals.input(target, text + ("\r" if run else ""))
            return
        cwd = action.cwd or self._terminals.workspace_root
        if not os.path.isabs(cwd):
            cwd = os.path.join(self._terminals.workspace_root, cwd)
        command = text if action.type == "open_and_send" else ""
        beside = None
        if action.target == "panel":  # a split pane beside the terminal the user used last
            recent = [info.terminal_id for info in self._terminals.by_human_recency()]
            near = proposal.send_target if proposal.send_target in recent else next(iter(recent), None)
            beside = (near, split_direction(action.direction or "auto")) if near else None
        self._terminals.open_confirmed(
            cwd, action.title or "", command, split=beside, profile=action.profile or ""
        )

    def cancel(self, proposal_id: str) -> None:
        """The user dismissed the card (Esc): the agent hears `cancelled`."""
        with contextlib.suppress(KeyError):
            self.channels.finish(proposal_id, "cancelled")

    # --- the lifecycle -------------------------------------------------------------------------------
    def stopped(self, session_key: str) -> None:
        self.channels.cancel_turn(session_key)

    def session_closed(self, session_key: str) -> None:
        """The chat was closed or deleted. Switching chats or reloading one does not end its cards."""
        self.channels.replace_session(session_key)

    def agent_gone(self, session_keys: Iterable[str] | None = None) -> None:
        """The agent exited: the cards of its chats end `unavailable` (of every chat when one agent
        runs and `session_keys` is not given)."""
        if session_keys is None:
            self.channels.unavailable_all()
            return
        for key in session_keys:
            self.channels.unavailable_session(key)


def marked_profiles(envelope: Envelope, has_profile: Callable[[str], bool]) -> Envelope:
    """A card whose opens name a profile that is no shell here says so (the user's own shell opens)."""
    if not isinstance(envelope, ProposalEnvelope):
        return envelope
    choices = tuple(
        replace(choice, actions=tuple(
            replace(action, profile_missing=True)
            if action.type != "send" and action.profile and not has_profile(action.profile) else action
            for action in choice.actions
        ))
        for choice in envelope.choices
    )  # fmt: skip
    return replace(envelope, choices=choices)


def _action(proposal: Proposal, choice: int, action_index: int) -> Any:
    for candidate in proposal.choices:
        if candidate.choice == choice and 0 <= action_index < len(candidate.actions):
            return candidate.actions[action_index]
    return None

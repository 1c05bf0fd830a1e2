"""The session state machine's rules for what the agent asks of the user (a permission, a question):
which chat a request belongs to, when it is refused at once, and which transitions end the ones still
waiting. Part of `SessionMachine` (machine.py), kept apart because both kinds follow the same rules.

A request belongs to the live prompt of its ACP id and waits for the user even while another session is
shown (the sidebar says the chat needs the user); one no live prompt owns, or one of a session being
loaded, would be a waiter nobody can see: answered `cancelled` at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.contract.acp_fields import dict_field, dict_items
from app.contract.elicitation import QuestionAction, QuestionReason
from app.main.sessions.permissions import MAX_OPTIONS, PermissionRoute, PermissionRoutes
from app.main.sessions.questions import QuestionRoute, QuestionRoutes
from app.main.sessions.routing import LivePrompt, LoadTransaction
from app.main.sessions.steps import Ignored, Step, Token

if TYPE_CHECKING:
    from app.contract.acp import RequestPermissionParams


class AskingRules:
    live: dict[str, LivePrompt]
    live_by_acp: dict[str, LivePrompt]
    loading: LoadTransaction | None
    permissions: PermissionRoutes
    questions: QuestionRoutes

    def _asker(self, acp_id: Any, what: str, step: Step) -> LivePrompt | None:
        """The live prompt a request of `acp_id` belongs to, or None (refused: `step.refusal` says why)."""
        live = self.live_by_acp.get(acp_id if isinstance(acp_id, str) else "")
        if live is None:
            step.refusal = "load-running" if self.loading is not None else "no-live-prompt"
        elif self.loading is not None and self.loading.key == live.key:
            step.refusal = "load-running"
        if step.refusal is None:
            return live
        message = f"a {what} was answered 'cancelled' automatically ({step.refusal})"
        step.ignored.append(Ignored(f"{what}-auto-cancelled", message))
        return None

    def _permission_requested(self, token: Token, params: RequestPermissionParams, step: Step) -> None:
        live = self._asker(params.get("sessionId"), "permission", step)
        if live is None:
            return
        options = tuple(dict_items(params, "options"))
        if len(options) > MAX_OPTIONS:
            message = f"a permission request offered {len(options):,} options: {MAX_OPTIONS} are shown"
            step.ignored.append(Ignored("permission-options-capped", message, len(options) - MAX_OPTIONS))
        tool_call = dict_field(params, "toolCall")
        step.envelopes.append(self.permissions.open(token, live.key, live.generation, tool_call, options))

    def _question_requested(self, token: Token, params: dict[str, Any], step: Step) -> None:
        live = self._asker(params.get("sessionId"), "question", step)
        if live is None:  # a question tied to a request, not a session, has no chat to be shown in
            step.replies.append((token, {"action": "cancel"}))
            return
        self.questions.open(token, live.key, live.generation, params, step)

    def _not_live(self, route: PermissionRoute | QuestionRoute) -> bool:
        """A pending request that no running prompt owns any more (switching cancels only these)."""
        live = self.live.get(route.key)
        return live is None or live.generation != route.generation

    def _cancel_asks(self, predicate: Callable[[Any], bool], reason: QuestionReason, step: Step) -> None:
        """Every permission and question `predicate` picks answers `cancelled`."""
        self.permissions.cancel_where(predicate, reason, step)
        self.questions.cancel_where(predicate, reason, step)
        if reason in ("agent-exited", "session-closed", "app-quit"):
            self.questions.drop_opened(predicate)

    def answer_permission(
        self, request_id: str, option_id: str | None, rule: tuple[str, str] = ("", "")
    ) -> Step:
        """The user's choice (None = declined), or their rule's (its id and words); `answers` stays
        empty when the request is unknown, already answered, or the option is not one of the request's."""
        step = Step()
        self.permissions.answer(request_id, option_id, step, rule)
        return step

    def answer_question(
        self, request_id: str, action: QuestionAction, values: dict[str, Any]
    ) -> tuple[Step, dict[str, str]]:
        """The user's answer to a question, and the problems that keep a form from going (then nothing
        is sent; {"": why} when the question already ended)."""
        step = Step()
        return step, self.questions.answer(request_id, action, values, step)

    def cancel_permissions(self, reason: QuestionReason) -> Step:
        """Answer every pending permission and question `cancelled` (the agent died, the app quits)."""
        step = Step()
        self._cancel_asks(lambda route: True, reason, step)
        return step

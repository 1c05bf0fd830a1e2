"""What a proposal card shows (the `proposal` role of a `proposal` row): one card per choice, the
recommended one first; each action's command verbatim and the buttons that run it, with the labels and
accessible names they read; and, once the card can no longer dispatch, why. Pure: no Qt.

A button names what `ProposalsHost.confirm` is asked: the choice's number, the action's index in that
choice, and `run` (False: "Insert in terminal" types the command without Enter)."""

from __future__ import annotations

from typing import Any

from app.contract.hidden_characters import visible
from app.contract.proposals import ProposalAction, ProposalChoice
from app.contract.user_terminals import SIDES
from app.renderer.timeline.items import ProposalItem

STATE_TEXTS = {
    "awaiting": "",
    "confirmed": "Confirmed",
    "cancelled": "Cancelled",
    "superseded": "Superseded by a newer message",
    "session_replaced": "Ended: the chat's session was replaced",
    "timed_out": "Timed out",
    "unavailable": "Unavailable: the agent or ClawQt's proposal endpoint went away",
    "expired": "Expired: this proposal is from an earlier run",
    "refused": "Refused: it holds characters that would run other than they read",
}
PILLS = {
    "awaiting": "Waiting for you",
    "confirmed": "Confirmed",
    "cancelled": "Cancelled",
    "superseded": "Superseded",
    "session_replaced": "Ended",
    "timed_out": "Timed out",
    "unavailable": "Unavailable",
    "expired": "Expired",
    "refused": "Refused",
}
UNREADABLE_TEXT = "This proposal could not be read (it is from an earlier run)"
SHORTENED_TEXT = "Shortened: it said more than a proposal may"


def _said(text: str) -> str:
    return text.strip().rstrip(".").casefold()


def state_lines(item: ProposalItem) -> tuple[str, str]:
    """Why the card can no longer run ("" while it waits for the user), and the main side's reason
    when it adds to that (said once: a reason that repeats or extends the state replaces it)."""
    if not item.readable:
        return UNREADABLE_TEXT, ""
    reason = item.reason.strip()
    if item.state == "confirmed":
        if reason:
            said = reason.rstrip(".")
            return f"Confirmed: {said[:1].lower()}{said[1:]}", ""
        return (f"Confirmed: sent to {item.send_target_title}" if item.send_target_title else "Confirmed"), ""
    text = STATE_TEXTS.get(item.state, item.state)
    if not reason or _said(text).endswith(_said(reason)):
        return text, ""  # the state says it already
    if text and _said(reason).startswith(_said(text)):
        return reason.rstrip("."), ""
    return text, reason


def _folder(action: ProposalAction) -> str:
    return visible(action.cwd) if action.cwd else "the chat's folder"


def _buttons(action: ProposalAction, choice: ProposalChoice, index: int, target: str) -> list[dict[str, Any]]:
    about = f" ({choice.title})"
    if action.type == "send":
        return [
            {"action": index, "run": True, "label": "Run command", "name": f"Run command in {target}{about}"},
            {
                "action": index,
                "run": False,
                "label": "Insert in terminal",
                "name": f"Insert command in {target} without running it{about}",
            },
        ]
    label = f"{_where(action)} in {_folder(action)}{_shell(action)}"
    if action.type == "open_and_send":
        label += " and run"
    return [{"action": index, "run": True, "label": label, "name": label + about}]


def _where(action: ProposalAction) -> str:
    """A tab, or a split pane of the panel on its side (auto: the side the pane's shape suits)."""
    if action.target != "panel":
        return "Open tab"
    direction = action.direction if action.direction in SIDES else ""
    return f"Split {direction}" if direction else "Open split"


def _shell(action: ProposalAction) -> str:
    if not action.profile:
        return ""
    if action.profile_missing:
        return f" with your own shell (no {visible(action.profile)} shell here)"
    return f" with {visible(action.profile)}"


def _card(choice: ProposalChoice, recommended: bool, target: str, runnable: bool) -> dict[str, Any]:
    actions, flat = [], 0
    for index, action in enumerate(choice.actions):
        buttons = _buttons(action, choice, index, target) if runnable else []
        for button in buttons:
            button["flat"] = flat
            flat += 1
        actions.append(
            {
                "index": index,
                "type": action.type,
                "command": visible(action.input, keep="\n"),
                "where": f"in {target}" if action.type == "send" else "",  # an open's button says where
                "buttons": buttons,
            }
        )
    title = visible(choice.title)
    name = f"Choice {choice.choice}" + (", recommended" if recommended else "") + f": {title}"
    return {
        "choice": choice.choice,
        "title": title,
        "rationale": visible(choice.rationale, keep="\n"),
        "recommended": recommended,
        "actions": actions,
        "buttonCount": flat,
        "name": name,
    }


def proposal_entry(item: ProposalItem) -> dict[str, Any]:
    """The card's values; `awaiting`: whether its buttons may dispatch (only a live card waiting for
    the user; one rebuilt from history never can)."""
    target = item.send_target_title or "the terminal"
    ordered = sorted(item.choices, key=lambda c: c.choice != item.recommended)  # stable: the rest keep order
    runnable = item.state != "refused"  # a refused payload never had anything to run: no buttons
    cards = [_card(c, c.choice == item.recommended, target, runnable) for c in ordered]
    awaiting = item.state == "awaiting" and bool(item.proposal_id)
    text, reason = state_lines(item)
    return {
        "proposalId": item.proposal_id,
        "state": item.state,
        "awaiting": awaiting,
        "stateText": text,
        "pill": PILLS["awaiting"] if awaiting else PILLS.get(item.state, item.state),
        "reason": reason,
        "shortened": SHORTENED_TEXT if item.shortened else "",
        "target": item.send_target_title,
        "cards": cards,
        "name": "The agent proposes terminal actions" + (f": {text}" if text else ""),
    }

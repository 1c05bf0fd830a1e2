"""What a terminal-action proposal payload may say (seed 001's wire schema), checked before a card exists.

The payload is model-authored JSON: every field is checked and unknown fields are refused at every level,
so a model can never smuggle in a session, window, tab or pane (ClawQt injects the `send` target itself,
captured when the prompt was sent). Text that reaches the card and the terminal is refused when it holds
a character that would make what the user reads differ from what is typed, in every class of
app/contract/hidden_characters.py: controls (a tab is completion in a shell, a carriage return is Enter;
CSI and other C1 codes are escape sequences), bidirectional controls (they reorder what is shown),
zero-width and other invisible characters, the line and paragraph separators, lone surrogates. A line
break is allowed in `input` and `rationale` only: the one who dispatches an "Insert in terminal" must
not type it raw. A payload whose only fault is such a character still has a card to show it on (the
characters written out, nothing to run): `SchemaProblem.shown`.

`origin: "autofix"` only narrows the shape (exactly one choice with one `send`): ClawQt has no autofix
turns of its own. `delegate: true` is refused: ClawQt has no delegate agent to hand a task to.

Pure: no Qt, no I/O. Reasons are one sentence naming the field by its path (`choices[0].actions[1].input`),
so an agent can correct the payload and retry."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, get_args

from app.contract.hidden_characters import first_hidden
from app.contract.proposals import (
    MAX_PAYLOAD_BYTES,
    SCHEMA_VERSION,
    ActionType,
    Origin,
    ProposalAction,
    ProposalChoice,
)
from app.contract.user_terminals import SPLIT_DIRECTIONS

MIN_CHOICES, MAX_CHOICES = 1, 3
MIN_ACTIONS, MAX_ACTIONS = 1, 3  # per choice
MIN_CHOICE_NUMBER, MAX_CHOICE_NUMBER = 1, 99
MAX_TITLE_CHARS = 200  # a choice's title and an opened terminal's title
MAX_RATIONALE_CHARS = 2000
MAX_INPUT_CHARS = 8000  # what a send types
MAX_CWD_CHARS = 4096
MAX_PROFILE_CHARS = 200
ORIGINS: tuple[str, ...] = get_args(Origin)
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
OPEN_TARGETS = ("tab", "panel")
DIRECTIONS = SPLIT_DIRECTIONS

TOP_FIELDS = frozenset({"schema_version", "origin", "recommended_choice", "choices"})
CHOICE_FIELDS = frozenset({"choice", "title", "rationale", "actions"})
_OPEN_FIELDS = frozenset({"type", "target", "cwd", "title", "direction", "profile"})
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "send": frozenset({"type", "input"}),
    "open": _OPEN_FIELDS,
    "open_and_send": _OPEN_FIELDS | {"input", "delegate"},
}
# field names that try to choose where an action goes; the answer names the rule, not only the field
_TARGET_NAMING = re.compile(r"(session|window|tab|pane|terminal|helper|parent)(_?id|_?key)?", re.IGNORECASE)

# hidden characters never pass (app/contract/hidden_characters.py); where lines are meant as lines
# (`input`, `rationale`) a line break does; a tab never does: a shell completes it
_MULTI_LINE = "\n"
# why each class of hidden character is refused, said to the agent and on the card
_WHY = {
    "control character": "a terminal acts on it instead of typing it",
    "C1 control character": "a terminal reads it as an escape sequence",
    "bidirectional control": "it reorders how the text reads",
    "invisible character": "it is drawn as nothing",
    "line separator": "it breaks a line that a shell reads as one",
    "surrogate": "it is not a character",
}


@dataclass(frozen=True)
class ValidatedPayload:
    """A payload that passed every check, as the card and the dispatcher use it."""

    origin: Origin
    choices: tuple[ProposalChoice, ...]
    recommended: int | None

    @property
    def sends(self) -> tuple[tuple[int, int], ...]:
        """(choice index, action index) of every `send`: each needs the target captured at prompt time."""
        return tuple(
            (c, a)
            for c, choice in enumerate(self.choices)
            for a, action in enumerate(choice.actions)
            if action.type == "send"
        )


@dataclass(frozen=True)
class SchemaProblem:
    reason: str
    # a payload refused only for hidden characters, as the card shows it (they are written out there)
    shown: ValidatedPayload | None = None


class _Refused(Exception):
    """One check failed; the message is the reason (one sentence naming the field)."""


class _Hidden(_Refused):
    """The one check a card can still show the payload for: a hidden character in a text."""


def validate_payload(payload_json: str) -> ValidatedPayload | SchemaProblem:
    """The payload as a `ValidatedPayload`, or the first rule it breaks (with the payload the card
    shows when hidden characters are its only fault)."""
    try:
        return _validate(payload_json, strict=True)
    except _Hidden as hidden:
        try:
            return SchemaProblem(str(hidden), _validate(payload_json, strict=False))
        except _Refused:  # another fault too: no card; the agent hears the first
            return SchemaProblem(str(hidden))
    except _Refused as refused:
        return SchemaProblem(str(refused))


def _validate(payload_json: str, strict: bool) -> ValidatedPayload:
    size = len(payload_json.encode("utf-8", "surrogatepass"))
    if size > MAX_PAYLOAD_BYTES:
        raise _Refused(f"payload is {size} bytes, more than the {MAX_PAYLOAD_BYTES} bytes allowed.")
    payload = _parse(payload_json)
    _object(payload, "payload", TOP_FIELDS, required=("schema_version", "origin", "choices"))
    if _integer(payload["schema_version"]) != SCHEMA_VERSION:
        raise _Refused(f"schema_version must be {SCHEMA_VERSION}.")
    origin = payload["origin"]
    if origin not in ORIGINS:
        raise _Refused(f"origin must be one of {', '.join(ORIGINS)}.")
    raw_choices = _list(payload["choices"], "choices", MIN_CHOICES, MAX_CHOICES)
    choices = tuple(_choice(raw, f"choices[{index}]", strict) for index, raw in enumerate(raw_choices))
    numbers = [choice.choice for choice in choices]
    for index, number in enumerate(numbers):
        if number in numbers[:index]:
            raise _Refused(f"choices[{index}].choice repeats the number {number}: choice numbers are unique.")
    recommended = payload.get("recommended_choice")
    if recommended is not None and (_integer(recommended) is None or recommended not in numbers):
        raise _Refused("recommended_choice must be the number of one of the choices.")
    if origin == "autofix" and (
        len(choices) != 1 or len(choices[0].actions) != 1 or choices[0].actions[0].type != "send"
    ):
        raise _Refused("choices of an autofix proposal must be exactly one choice with one send action.")
    return ValidatedPayload(origin, choices, recommended)


def _parse(payload_json: str) -> Any:
    try:
        return json.loads(payload_json, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _Refused:
        raise
    except RecursionError:
        raise _Refused("payload is nested too deeply to be a proposal.") from None
    except ValueError as error:  # JSONDecodeError, and integers past the conversion limit
        raise _Refused(f"payload is not valid JSON ({_short(str(error))}).") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"payload has the field {_quoted(key)} twice.")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise _Refused(f"payload holds {name}, which is not a JSON number.")


def _object(value: Any, path: str, allowed: frozenset[str], required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Refused(f"{path} must be a JSON object.")
    for key in value:
        if key not in allowed:
            raise _Refused(_unknown(path, key, allowed))
    for key in required:
        if key not in value:
            raise _Refused(f"{_join(path, key)} is missing.")
    return value


def _unknown(path: str, key: str, allowed: frozenset[str]) -> str:
    field = _join(path, _quoted(key) if not key.isidentifier() else key)
    if _TARGET_NAMING.fullmatch(key):
        return f"{field} is not allowed: a proposal never names a session, window, tab or pane."
    return f"{field} is not a known field (known: {', '.join(sorted(allowed))})."


def _choice(raw: Any, path: str, strict: bool) -> ProposalChoice:
    value = _object(raw, path, CHOICE_FIELDS, required=("choice", "title", "actions"))
    number = _integer(value["choice"])
    if number is None or not MIN_CHOICE_NUMBER <= number <= MAX_CHOICE_NUMBER:
        raise _Refused(f"{path}.choice must be an integer from {MIN_CHOICE_NUMBER} to {MAX_CHOICE_NUMBER}.")
    title = _text(value["title"], f"{path}.title", MAX_TITLE_CHARS, strict, single_line=True)
    rationale = value.get("rationale")
    if rationale not in (None, ""):
        rationale = _text(rationale, f"{path}.rationale", MAX_RATIONALE_CHARS, strict)
    raw_actions = _list(value["actions"], f"{path}.actions", MIN_ACTIONS, MAX_ACTIONS)
    actions = tuple(_action(raw, f"{path}.actions[{i}]", strict) for i, raw in enumerate(raw_actions))
    return ProposalChoice(number, title, rationale or "", actions)


def _action(raw: Any, path: str, strict: bool) -> ProposalAction:
    if not isinstance(raw, dict):
        raise _Refused(f"{path} must be a JSON object.")
    kind = raw.get("type")
    if kind not in ACTION_TYPES:
        raise _Refused(f"{path}.type must be one of {', '.join(ACTION_TYPES)}.")
    required = {"send": ("input",), "open": ("target",), "open_and_send": ("target", "input")}[kind]
    value = _object(raw, path, ACTION_FIELDS[kind], required=required)
    if kind == "send":
        return ProposalAction("send", input=_text(value["input"], f"{path}.input", MAX_INPUT_CHARS, strict))
    target = value["target"]
    if target not in OPEN_TARGETS:
        raise _Refused(f"{path}.target must be one of {', '.join(OPEN_TARGETS)}.")
    direction = value.get("direction")
    if direction is not None and direction not in DIRECTIONS:
        raise _Refused(f"{path}.direction must be one of {', '.join(DIRECTIONS)}.")
    delegate = value.get("delegate", False)
    if delegate is not False and delegate is not None:
        if delegate is True:
            raise _Refused(f"{path}.delegate must be false: ClawQt has no delegate agent to hand a task to.")
        raise _Refused(f"{path}.delegate must be true or false.")
    typed = _text(value["input"], f"{path}.input", MAX_INPUT_CHARS, strict) if kind == "open_and_send" else ""
    return ProposalAction(
        kind,
        input=typed,
        target=target,
        cwd=_optional_text(value, "cwd", path, MAX_CWD_CHARS, strict),
        title=_optional_text(value, "title", path, MAX_TITLE_CHARS, strict),
        direction=direction,
        profile=_optional_text(value, "profile", path, MAX_PROFILE_CHARS, strict),
    )


def _list(value: Any, path: str, least: int, most: int) -> list[Any]:
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise _Refused(f"{path} must be a list of {least} to {most} entries.")
    return value


def _integer(value: Any) -> int | None:
    """`value` when it is a JSON integer (true/false and 1.0 are not)."""
    return value if type(value) is int else None


def _optional_text(value: dict[str, Any], key: str, path: str, most: int, strict: bool) -> str | None:
    text = value.get(key)
    return None if text is None else _text(text, f"{path}.{key}", most, strict, single_line=True)


def _text(value: Any, path: str, most: int, strict: bool, single_line: bool = False) -> str:
    if not isinstance(value, str):
        raise _Refused(f"{path} must be a string.")
    if not value.strip():
        raise _Refused(f"{path} must not be empty.")
    if len(value) > most:
        raise _Refused(f"{path} is {len(value)} characters, more than the {most} allowed.")
    hidden = first_hidden(value, allow="" if single_line else _MULTI_LINE) if strict else None
    if hidden is not None:
        raise _Hidden(
            f"{path} holds {hidden.described} at position {hidden.position}: {_WHY[hidden.kind]}, so "
            "what runs would differ from what the card shows."
        )
    return value


def _join(path: str, key: str) -> str:
    return key if path == "payload" else f"{path}.{key}"


def _quoted(key: str) -> str:
    return json.dumps(key[:40] + ("..." if len(key) > 40 else ""), ensure_ascii=True)


def _short(text: str) -> str:
    return text if len(text) <= 120 else text[:117] + "..."

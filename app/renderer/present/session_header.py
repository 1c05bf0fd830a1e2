"""What the window header shows of the session's metadata, as plain lists and dicts for QML: the
modes, the config options flattened (grouped choices inlined, the `model` category first), the usage
meter, and the slash commands with their hints. Pure: agent data in, view data out, any input."""

from __future__ import annotations

from typing import Any

from app.contract.acp_fields import dict_field, dict_items


def mode_entries(modes: dict[str, Any]) -> list[dict[str, str]]:
    return [
        {"id": str(m.get("id")), "name": str(m.get("name") or m.get("id"))}
        for m in dict_items(modes, "availableModes")
    ]


def _choices(option: dict[str, Any]) -> list[dict[str, str]]:
    flat = []
    for choice in dict_items(option, "options"):
        if "value" in choice:
            flat.append({"value": str(choice["value"]), "name": str(choice.get("name") or choice["value"])})
        elif isinstance(choice.get("options"), list):  # a group of choices
            flat.extend(
                {"value": str(c.get("value")), "name": str(c.get("name") or c.get("value"))}
                for c in dict_items(choice, "options")
            )
    return flat


def config_entries(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    entries = [
        {
            "id": str(option.get("id", "")),
            "name": str(option.get("name") or option.get("id")),
            "type": str(option.get("type") or "select"),
            "category": str(option.get("category") or ""),
            "currentValue": option.get("currentValue"),
            "choices": _choices(option),
        }
        for option in options
        if isinstance(option, dict)
    ]
    entries.sort(key=lambda entry: entry["category"] != "model")
    return entries


def compact_count(count: int) -> str:
    """A count in a few characters: 950, 1.2k, 200k, 1.5M."""
    for limit, unit in ((1_000_000, "M"), (1_000, "k")):
        if abs(count) >= limit:
            value = count / limit
            return f"{value:.1f}".removesuffix(".0") + unit if abs(value) < 100 else f"{value:.0f}{unit}"
    return str(count)


def usage_entry(usage: dict[str, Any] | None) -> dict[str, Any]:
    """{"text": "1,200 / 8,000 · 0.02 USD", "short": "1.2k / 8k", "fraction": 0.15}, or {} when the
    agent said nothing (`short` beside the composer's meter, `text` in its tooltip)."""
    if not usage:
        return {}
    used, size = usage.get("used"), usage.get("size")
    counts = (used, size) if isinstance(used, int) and isinstance(size, int) else None
    text = f"{counts[0]:,} / {counts[1]:,}" if counts else ""
    short = f"{compact_count(counts[0])} / {compact_count(counts[1])}" if counts else ""
    cost = dict_field(usage, "cost")
    if isinstance(cost.get("amount"), int | float):
        text += f" \u00b7 {cost['amount']:.2f} {cost.get('currency', '')}".rstrip()
    fraction = counts[0] / counts[1] if counts and counts[1] > 0 else 0.0
    return {"text": text, "short": short, "fraction": min(1.0, max(0.0, fraction))}


def command_entries(commands: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [
        {
            "name": command["name"],
            "description": str(command.get("description") or ""),
            "hint": str(dict_field(command, "input").get("hint") or ""),
        }
        for command in commands
        if isinstance(command.get("name"), str) and command["name"]
    ]

"""The fake model's part in OpenClaw's image generation (tests/e2e/fake_model.py): the OpenAI-style
`/images/generations` answer the gateway's image provider gets, the draw turn (`image_generate`,
directly or through Tool Search; `catalog_id` reads a Tool Search answer, for the terminal turns too)
and the reply to OpenClaw's background-task completion event, which delivers the generated files as
its `MEDIA:` lines, as the event asks."""

from __future__ import annotations

import json
import re
import time
from typing import Any

COMPLETION_EVENT = "[internal task completion event]"
IMAGE_TOOL = "image_generate"
# a 120 x 80 PNG, a red square on light grey: what the image endpoint answers
PICTURE_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAHgAAABQCAIAAABd+SbeAAAAnElEQVR42u3cQQ0AIAhAUXE2MYL9IxjBGNxNoePwfgG2N8aR"
    "yMym93UEoEELNGjQAg1aoEGDFmjQAl208W3SWasmwdzbRjsdAg0atECDFmjQoAUatECDBi3QoAUaNGiBBi3QoEELNGiBBg1a"
    "oEELNGjQAg1aoEGDFmjQAg0atECDFmjQoPWs8BHdRoMWaNCgBRq0QIMGLdCgBbpoF7YECV8s6dCzAAAAAElFTkSuQmCC"
)


def images_answer(request: dict[str, Any]) -> bytes:
    """`n` pictures (1-4) as base64 PNGs."""
    count = request.get("n") if type(request.get("n")) is int else 1
    data = [{"b64_json": PICTURE_B64} for _ in range(max(1, min(count, 4)))]
    return json.dumps({"created": int(time.time()), "data": data}).encode()


def _all_text(messages: list[dict[str, Any]]) -> str:
    texts = []
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        texts.append(str(content or ""))
    return "\n".join(texts)


def is_completion(text: str, messages: list[dict[str, Any]]) -> bool:
    return COMPLETION_EVENT in text or COMPLETION_EVENT in _all_text(messages).lower()[-20000:]


def completion_reply(messages: list[dict[str, Any]], current: str) -> list[str]:
    media = re.findall(r"^MEDIA:\s*\S.*$", _all_text(messages[-1:]) or current, re.M)
    return ["Here is your picture.\n", *(line + "\n" for line in media)]


def draw_step(results: list[dict[str, Any]], tools: list[str]) -> tuple[str, dict[str, Any], str]:
    """(tool to call, its arguments, "") or ("", {}, reply text): the draw turn's next step given the
    turn's tool results so far."""
    arguments = {"prompt": "a small red square"}
    if results and results[-1]["name"] != "tool_search":
        return "", {}, "I started drawing it."
    if IMAGE_TOOL in tools:
        return IMAGE_TOOL, arguments, ""
    if results:
        found = catalog_id(results[-1]["content"], IMAGE_TOOL)
        if found is None:
            return "", {}, f"Tool Search found no {IMAGE_TOOL}: {results[-1]['content'][:2000]}"
        return "tool_call", {"id": found, "args": arguments}, ""
    return "tool_search", {"query": "generate an image"}, ""


def catalog_id(search_result: str, suffix: str) -> str | None:
    """The id of the tool ending with `suffix` in a `tool_search` answer (the longest such name: a
    server-prefixed id rather than a bare mention)."""
    names = re.findall(rf"[A-Za-z0-9_.:-]*{suffix}\b", search_result)
    return max(names, key=len) if names else None

"""Reading the params of an agent's request: each value ClawQt uses is checked for its JSON type, and a
wrong or missing one is refused as invalid params naming the field (never a crash, never a guess).
Fields ClawQt does not read are left alone."""

from __future__ import annotations

from typing import Any

from app.main.acp.json_rpc import RpcError


def text(params: dict[str, Any], key: str) -> str:
    value = params.get(key)
    if not isinstance(value, str):
        raise RpcError.invalid_params(f"`{key}` must be a string")
    return value


def optional_text(params: dict[str, Any], key: str) -> str | None:
    return None if params.get(key) is None else text(params, key)


def optional_int(params: dict[str, Any], key: str) -> int | None:
    value = params.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RpcError.invalid_params(f"`{key}` must be an integer")
    return value


def obj(params: dict[str, Any], key: str) -> dict[str, Any]:
    value = params.get(key)
    if not isinstance(value, dict):
        raise RpcError.invalid_params(f"`{key}` must be an object")
    return value


def objects(params: dict[str, Any], key: str, *, optional: bool = False) -> list[dict[str, Any]]:
    value = params.get(key)
    if value is None and optional:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise RpcError.invalid_params(f"`{key}` must be a list of objects")
    return value


def optional_texts(params: dict[str, Any], key: str) -> list[str] | None:
    value = params.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RpcError.invalid_params(f"`{key}` must be a list of strings")
    return value

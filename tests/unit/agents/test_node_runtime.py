"""Reading npm's `engines.node` ranges (app/main/agents/node_runtime.py): which Node fits a package,
so an agent gets a Node ClawQt installs only when the one on PATH does not."""

from __future__ import annotations

import pytest

from app.main.agents.node_runtime import parse_version, satisfies


@pytest.mark.parametrize(
    ("version", "spec", "fits"),
    [
        ("20.20.2", ">=24.16.0 <25 || >=26.1.0", False),  # OpenClaw on this machine's Node
        ("24.22.3", ">=24.16.0 <25 || >=26.1.0", True),
        ("25.0.0", ">=24.16.0 <25 || >=26.1.0", False),
        ("26.1.0", ">=24.16.0 <25 || >=26.1.0", True),
        ("20.20.2", ">=20", True),  # pi-acp
        ("18.19.0", ">=20", False),
        ("20.19.1", "^20.19.0 || >=22.12.0", True),
        ("21.0.0", "^20.19.0 || >=22.12.0", False),
        ("22.12.0", "^20.19.0 || >=22.12.0", True),
        ("18.5.0", "18.x", True),
        ("19.0.0", "18.x", False),
        ("18.2.9", "~18.2", True),
        ("18.3.0", "~18.2.0", False),
        ("20.0.0", ">= 18", True),  # a space after the operator
        ("20.0.0", "*", True),
        ("20.0.0", "18 - 22", False),  # a hyphen range is not read: a Node is installed rather than guessed
    ],
)
def test_a_node_version_fits_an_engines_range(version: str, spec: str, fits: bool) -> None:
    parsed = parse_version(version)
    assert parsed is not None and satisfies(parsed, spec) is fits


def test_node_prints_its_version_with_a_v() -> None:
    assert parse_version("v20.20.2\n") == (20, 20, 2) and parse_version("not a version") is None

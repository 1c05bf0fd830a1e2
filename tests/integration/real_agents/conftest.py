"""The fast-agent tests' fixtures (made in fast_agent_harness.py, which the MCP servers' test with
fast-agent imports too)."""

from tests.integration.real_agents.fast_agent_harness import fast_agent, start, workspace  # noqa: F401

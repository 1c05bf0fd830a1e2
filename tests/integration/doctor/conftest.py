"""fast-agent for the doctor's check (installed once, as for the other real-agent tests)."""

from tests.integration.real_agents.fast_agent_harness import fast_agent  # noqa: F401

"""The wire to an agent: JSON-RPC over the child's pipes, the ACP client object, and who watches the
traffic (the protocol log, the trace recorder)."""

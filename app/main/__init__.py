"""The owner side: agent processes, ACP I/O, sessions and every security decision. No widgets."""

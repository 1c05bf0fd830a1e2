"""How an agent takes part in the user's terminals (seed 000): the loopback MCP server, its door and
bearers, the capabilities per chat and the four terminal tools."""

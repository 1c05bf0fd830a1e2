"""The user's own MCP servers, given to the agents in every session they open."""

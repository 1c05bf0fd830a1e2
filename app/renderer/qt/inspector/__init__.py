"""The protocol inspector: an agent's JSON-RPC traffic and an opened trace."""

"""Search over every chat: one SQLite FTS5 index of what was said and shown (a cache: the chats are
the truth), its queries and its snippets."""

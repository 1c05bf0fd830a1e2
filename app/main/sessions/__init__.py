"""Chats with agents: the session state machine, the chat service of one agent, the hub over several,
permissions, stop, and the file and terminal hosts served per session."""

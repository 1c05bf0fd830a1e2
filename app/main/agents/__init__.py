"""One agent's child process: which command runs and why, its profiles, spawning and restarting it, the
handshake, its errors and stderr, and signing in to it."""

"""The composer: the turn being written and sent, the queue of messages waiting for a turn, attachments."""

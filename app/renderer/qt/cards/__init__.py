"""The cards inside a turn: attachments and inline images, file changes and diffs, proposal cards, the
preview panel's content and opening files."""

"""Every file the main side reads or writes for someone else: confined opening under a verified folder,
the one atomic writer, the agent's and the user's file access, attachments, exports, previews, links."""

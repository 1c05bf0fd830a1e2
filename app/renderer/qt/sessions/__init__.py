"""The sidebar and the header: the list of chats, the shown chat's header and what needs attention."""

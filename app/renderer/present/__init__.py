"""Pure view helpers without Qt: what a row, a tool card, a proposal card, a session header, a title, an
avatar, a preview or a diff shows, computed from the timeline for any view."""

"""The conversation view: the current session's timeline as a list model with named roles, row and
block views, collapse, the render schedulers, search, each chat's view memory and the export."""

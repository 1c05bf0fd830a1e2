"""The review pane: a turn's changed files hunk by hunk (main side: app/main/review)."""

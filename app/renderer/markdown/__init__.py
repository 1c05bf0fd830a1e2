"""Markdown to Qt rich text: markdown-it-py (GFM tables, task lists, autolinks, strikethrough) with
raw HTML and remote images disabled, code blocks highlighted by Pygments, rendered incrementally."""

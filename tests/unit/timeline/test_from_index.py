"""A chat as the search index keeps it, made into a timeline to read without its agent: messages and
answers as their own segments in order, a thought, a tool call with its output, a terminal's output on
a card of its own; a file's name left out (the index keeps no file)."""

from __future__ import annotations

from app.contract.search import Chat, IndexedChat, IndexedText
from app.renderer.timeline.from_index import index_timeline
from app.renderer.timeline.turn_view import item_text


def test_the_indexed_texts_become_the_chat_they_were_said_in():
    texts = (
        IndexedText("p:c1", "message", 1.0, "run the tests"),
        IndexedText("s1", "thought", 1.0, "which runner?"),
        IndexedText("t:t1", "tool", 1.0, "pytest -q"),
        IndexedText("o:t1", "output", 1.0, "12 passed"),
        IndexedText("x:term-1", "terminal", 1.0, "collected 12 items"),
        IndexedText("s2", "answer", 1.0, "All 12 pass."),
        IndexedText("p:c2", "message", 2.0, "thanks"),
        IndexedText("s3", "answer", 2.0, "You're welcome."),
        IndexedText("f:c2", "file", 2.0, "notes.md"),
    )
    timeline = index_timeline(IndexedChat(Chat("k", "Scripted", "/w", "Tests", 2.0), texts))
    items = [timeline.items[i] for i in timeline.order]
    said = [(getattr(item, "role", ""), item_text(item)) for item in items if item.kind == "message"]
    assert said == [
        ("user", "run the tests"),
        ("assistant", "All 12 pass."),
        ("user", "thanks"),
        ("assistant", "You're welcome."),
    ]
    tools = {item.tool_call_id: item for item in items if item.kind == "tool"}
    assert tools["t1"].title == "pytest -q" and "12 passed" in str(tools["t1"].output_parts)
    assert tools["terminal-term-1"].title == "Terminal output"
    assert "collected 12 items" in str(tools["terminal-term-1"].output_parts)
    assert [item_text(i) for i in items if i.kind == "thought"] == ["which runner?"]
    assert "notes.md" not in str(items)

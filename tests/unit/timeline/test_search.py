"""Find in the conversation (pure): what is searched, the order of hits, slices, the cap."""

from __future__ import annotations

from app.contract.envelopes import TerminalOutputEnvelope
from app.renderer.timeline import search
from app.renderer.timeline.rows import RowKey
from app.renderer.timeline.search import Hit, SearchScan
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, settled, thought, tool, user


def _chat() -> Harness:
    return Harness()(
        user("Where is the Needle?", "u1"),
        thought("looking for a needle"),
        tool(
            "t1",
            title="grep needle",
            kind="search",
            status="completed",
            content=[{"type": "content", "content": {"type": "text", "text": "src/a.py: NEEDLE = 1"}}],
        ),
        agent("Found the needle in `src/a.py` (one needle).", "a1"),
        settled("a1"),
        user("thanks", "u2"),
        agent("You're welcome.", "a2"),
    )


def _scan_all(h: Harness, query: str) -> SearchScan:
    scan = SearchScan(h.timeline, query)
    while not scan.done:
        scan.advance(1.0)
    return scan


def test_hits_come_newest_first_from_every_kind_of_text_ignoring_case():
    h = _chat()
    hits = _scan_all(h, "needle").hits
    fields = [(hit.row.slot, hit.field) for hit in hits]
    # newest first: the reply's two, the tool's title and output, the thought, the question
    assert [hit.field for hit in hits] == ["text", "text", "output", "title", "text", "text"]
    assert fields[-1] == ("user", "text")
    reply = [
        hit
        for hit in hits
        if h.item(hit.item_id).__class__.__name__ == "MessageSegment" and hit.row.slot == "block"
    ]
    assert [hit.occurrence for hit in reply] == [1, 0]  # within a row, from its bottom up
    tool_hits = [hit for hit in hits if hit.item_id.startswith("tool") or hit.field in ("title", "output")]
    assert [hit.occurrence for hit in tool_hits] == [1, 0]  # title first from the card's top


def test_rows_that_only_name_items_shown_elsewhere_are_not_searched_twice():
    h = Harness()(
        user({"type": "resource_link", "uri": "file:///tmp/needle.txt", "name": "needle.txt"}, "u1"),
        user("needle", "u1"),
        agent("no match here", "a1"),
    )
    kinds = {row.kind for row in h.timeline.rows}
    assert "user-attachments" in kinds  # the attachment row exists and names the same item
    assert len(_scan_all(h, "needle").hits) == 1


def test_terminal_output_is_searched_without_its_escapes():
    terminal = {"type": "terminal", "terminalId": "term-1"}
    h = Harness()(
        tool("t1", title="build", kind="execute", status="completed", content=[terminal]),
        TerminalOutputEnvelope(KEY, GEN, "term-1", "\x1b[31mERR\x1b[0mOR: disk full\r\n"),
    )
    assert [hit.field for hit in _scan_all(h, "error: disk").hits] == ["terminal"]


def test_a_scan_stops_at_the_first_hits_and_goes_on_from_there():
    h = Harness()
    for n in range(50):
        h(
            user(f"question {n}", f"u{n}"),
            agent(f"answer {n} needle" if n in (3, 47) else f"answer {n}", f"a{n}"),
        )
    scan = SearchScan(h.timeline, "needle")
    scan.advance(10.0, stop_at_hits=1)
    assert len(scan.hits) == 1 and not scan.done
    assert scan.rows_scanned == 8  # three turns of three rows from the newest: the hit is in the third
    while not scan.done:
        scan.advance(0.0)  # one row at least per slice, whatever the budget
    assert len(scan.hits) == 2
    assert [h.timeline.grouping.position(hit.row) for hit in scan.hits] == sorted(
        (h.timeline.grouping.position(hit.row) for hit in scan.hits), reverse=True
    )


def test_the_count_stops_at_the_cap_and_says_so(monkeypatch):
    monkeypatch.setattr(search, "MAX_HITS", 5)
    h = Harness()(agent("a " * 4, "a1"), user("q", "u1"), agent("a a a", "a2"))
    scan = _scan_all(h, "a")
    assert len(scan.hits) == 5 and scan.capped
    assert scan.hits[0].row == scan.hits[2].row  # the newest row's three came first, whole


def test_an_empty_query_finds_nothing():
    scan = SearchScan(_chat().timeline, "")
    assert scan.done and scan.advance(1.0) == 0 and scan.hits == []


def test_a_hit_names_its_row_by_key():
    h = _chat()
    hit = _scan_all(h, "welcome").hits[0]
    assert hit == Hit(RowKey("block", hit.item_id), hit.item_id, "text", 0)

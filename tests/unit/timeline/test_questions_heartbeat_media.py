"""Question directory, heartbeat-only session filter, and the MEDIA directive grammar."""

from __future__ import annotations

import pytest

from app.renderer.timeline.heartbeat import SENTINEL, is_heartbeat_only
from app.renderer.timeline.media import MediaScanner, is_settled, parse_directive, strip_directives
from app.renderer.timeline.questions import directory_key, question_directory, truncate_graphemes
from app.renderer.timeline.reducer import Timeline
from app.renderer.timeline.rows import RowKey
from app.renderer.timeline.terminal_screen import render_screen
from tests.unit.timeline.helpers import GEN, KEY, Harness, agent, user


def _directory(h: Harness, limit: int = 300):
    return question_directory(h.timeline.items, h.timeline.grouping, limit)


# --- question directory -------------------------------------------------------------------------
def test_questions_come_only_from_user_groups_and_duplicates_stay_separate():
    h = Harness()(agent("hi"), user("Same?", "u1"), agent("a"), user("Same?", "u2"), agent("b"))
    directory = _directory(h)
    assert [q.title for q in directory.entries] == ["Same?", "Same?"]
    assert [q.anchor for q in directory.entries] == [RowKey("user", "u1:0"), RowKey("user", "u2:0")]


def test_the_directorys_key_stays_while_a_reply_streams_and_moves_with_the_questions():
    h = Harness()(user("First?", "u1"), agent("a", "m1"))

    def key() -> tuple:
        return directory_key(h.timeline.items, h.timeline.grouping)

    before = key()
    h(agent(" more of the reply", "m1"), agent(" and more", "m1"))
    assert key() == before  # the answer grows: the same questions
    h(user(" and again", "u1"))
    assert key() != before  # the question's text changed
    changed = key()
    h(user("Second?", "u2"))
    assert key() != changed and len(_directory(h).entries) == 2


def test_question_title_is_the_first_non_blank_markdown_with_whitespace_collapsed():
    h = Harness()(user({"type": "resource_link", "uri": "file:///a"}, "u"), user("  two\n\n words  ", "u"))
    assert _directory(h).entries[0].title == "two words"


def test_question_without_text_gets_a_numbered_fallback():
    h = Harness()(user("first", "u1"), agent("a"), user({"type": "resource_link", "uri": "file:///a"}, "u2"))
    assert [q.title for q in _directory(h).entries] == ["first", "Question 2"]


def test_titles_over_64_graphemes_keep_61_and_an_ellipsis_without_splitting_clusters():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    text = family * 70
    cut = truncate_graphemes(text)
    assert cut == family * 61 + "..."
    assert truncate_graphemes("e\u0301" * 64) == "e\u0301" * 64  # exactly 64 clusters stay whole


def test_directory_is_disabled_under_two_questions():
    h = Harness()(user("only one", "u1"))
    assert not _directory(h).enabled
    h(agent("a"), user("two", "u2"))
    assert _directory(h).enabled


def test_directory_shows_the_last_300_and_counts_the_hidden():
    h = Harness()
    for i in range(305):
        h(user(f"q{i}", f"u{i}"), agent("a"))
    directory = _directory(h)
    assert len(directory.entries) == 300 and directory.hidden == 5
    assert directory.entries[0].title == "q5" and directory.entries[0].number == 6


# --- heartbeat filter --------------------------------------------------------------------------
def test_heartbeat_only_session_is_hidden():
    assert is_heartbeat_only({"sessionId": "agent:main:main", "title": SENTINEL})
    assert is_heartbeat_only({"sessionId": "agent:main:x", "title": f"{SENTINEL} HEARTBEAT_OK"})
    assert is_heartbeat_only({"sessionId": "agent:main:x", "title": "main", "_meta": {"preview": SENTINEL}})


def test_a_title_alone_such_as_main_never_hides_a_session():
    assert not is_heartbeat_only({"sessionId": "agent:main:main", "title": "main"})
    assert not is_heartbeat_only({"sessionId": "agent:main:main", "title": "ClawX"})


def test_real_user_text_keeps_the_session():
    assert not is_heartbeat_only(
        {"sessionId": "agent:main:x", "title": SENTINEL, "_meta": {"preview": "fix my build please"}}
    )


def test_session_key_and_clawx_or_main_are_not_user_text():
    key = "agent:main:clawqt-1"
    assert is_heartbeat_only({"sessionId": key, "title": f"{SENTINEL}", "_meta": {"label": key}})
    assert is_heartbeat_only({"sessionId": key, "title": f"{SENTINEL} ClawX"})


def test_channel_and_cron_sessions_are_never_hidden_this_way():
    assert not is_heartbeat_only({"sessionId": "agent:main:cron:daily", "title": SENTINEL})
    assert not is_heartbeat_only({"sessionId": "agent:main:telegram:dm:42", "title": SENTINEL})


def test_a_cached_preview_of_only_the_sentinel_hides_a_listed_session():
    key = "agent:main:clawqt-9"
    assert is_heartbeat_only({"sessionId": key, "title": key, "preview": SENTINEL})
    assert not is_heartbeat_only({"sessionId": key, "title": key})
    assert not is_heartbeat_only({"sessionId": key, "title": key, "preview": "fix my build"})


# --- MEDIA grammar -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "ref", "kind"),
    [
        ("MEDIA: https://example.com/a.png", "https://example.com/a.png", "url"),
        ("MEDIA:/tmp/a.png", "/tmp/a.png", "absolute"),
        ("MEDIA: file:///tmp/a.png", "file:///tmp/a.png", "file-uri"),
        ("MEDIA: ~/pics/a.png", "~/pics/a.png", "home"),
        ("MEDIA: C:\\Users\\me\\a.png", "C:\\Users\\me\\a.png", "windows"),
        ('MEDIA: "/tmp/with space.png"', "/tmp/with space.png", "absolute"),
        ("MEDIA: out/chart.png", "out/chart.png", "relative"),
        ("   MEDIA: /tmp/indented.png  ", "/tmp/indented.png", "absolute"),
    ],
)
def test_accepted_media_references(line, ref, kind):
    parsed = parse_directive(line)
    assert parsed is not None and (parsed.ref, parsed.kind) == (ref, kind)


@pytest.mark.parametrize(
    "line",
    [
        "MEDIA: two refs.png other.png",
        "MEDIA: `code.png`",
        "MEDIA: *bold.png*",
        "MEDIA: [link](x.png)",
        "MEDIA: <x.png>",
        "MEDIA: {x}",
        "MEDIA: ftp://host/x.png",
        "MEDIA: javascript:alert(1)",
        "MEDIA:",
        'MEDIA: "unterminated.png',
        "see MEDIA: /tmp/a.png",
        "MEDIA: /" + "a" * 4100,
    ],
)
def test_rejected_media_references(line):
    assert parse_directive(line) is None


def test_relative_paths_need_a_known_cwd():
    assert parse_directive("MEDIA: out/a.png", cwd_known=False) is None


@pytest.mark.parametrize(
    ("line", "ref"),
    [
        ("media: /tmp/a.png", "/tmp/a.png"),
        ("Media:/tmp/a.png", "/tmp/a.png"),
        ("    MEDIA: /tmp/deep.png", "/tmp/deep.png"),
        ("\t\tMEDIA: /tmp/tabs.png", "/tmp/tabs.png"),
        ("\u00a0\u3000MEDIA:\u2003/tmp/wide.png\ufeff", "/tmp/wide.png"),
        ('MEDIA: "/tmp/say "hi".png"', '/tmp/say "hi".png'),
        ("MEDIA: docs/a://b.png", "docs/a://b.png"),
    ],
)
def test_the_media_grammar_is_clawxs_any_case_and_any_indentation(line, ref):
    """ClawX reads `^\\s*MEDIA:\\s*(.*?)\\s*$` case-insensitively (JavaScript whitespace), a quoted
    reference being everything between the outer quotes: a line means the same to both clients."""
    parsed = parse_directive(line)
    assert parsed is not None and parsed.ref == ref
    clean, refs = strip_directives(f"before\n{line}\nafter")
    assert [r.ref for r in refs] == [ref] and clean == "before\nafter"


@pytest.mark.parametrize(
    "line",
    ["MEDIA: https://", "MEDIA: https://?q", 'MEDIA: ""', "MEDIA\u200b: /tmp/a.png", "MEDIA : /tmp/a.png"],
)
def test_what_clawx_rejects_stays_prose(line):
    assert parse_directive(line) is None


def test_a_fence_closes_only_on_spaces_and_tabs_after_its_marker():
    """`^ {0,3}(`{3,}|~{3,})[ \\t]*$` closes a fence; a no-break space after the marker does not."""
    text = "```\nMEDIA: /tmp/in.png\n```\u00a0\nMEDIA: /tmp/still-in.png\n``` \t\nMEDIA: /tmp/out.png"
    assert [r.ref for r in strip_directives(text)[1]] == ["/tmp/out.png"]


def test_a_long_indented_directive_streams_in_bounded_pieces():
    """Indentation up to MAX_INDENT may come before `MEDIA:`: the scanner still finds it when streamed a
    character at a time; deeper, the line is prose (whole-text parse alike); a line that can no longer
    be a directive is not kept."""
    from app.renderer.timeline.media import MAX_INDENT

    scanner = MediaScanner()
    for char in " " * MAX_INDENT + "media: /tmp/far.png":
        scanner.feed(char)
    assert [r.ref for r in scanner.refs] == ["/tmp/far.png"] and not scanner.has_prose
    scanner.feed("\nMEDIA: " + "x" * 40_000)
    assert scanner.has_prose and len(scanner.refs) == 1
    assert sum(map(len, scanner._partial)) == 0
    too_deep = " " * (MAX_INDENT + 1) + "MEDIA: /tmp/deep.png"
    deep = MediaScanner()
    for char in too_deep:
        deep.feed(char)
    assert deep.refs == () and deep.has_prose and strip_directives(too_deep)[1] == ()
    assert sum(map(len, deep._partial)) == 0


def test_directives_inside_fenced_code_are_prose():
    text = "```\nMEDIA: /tmp/in-code.png\n```\nMEDIA: /tmp/real.png\n~~~~\nMEDIA: /x\n~~~\nstill code\n~~~~\n"
    clean, refs = strip_directives(text)
    assert [r.ref for r in refs] == ["/tmp/real.png"]
    assert "in-code.png" in clean and "real.png" not in clean


def test_scanner_matches_the_whole_text_parse_chunk_by_chunk():
    text = "intro\n```py\nMEDIA: /no\n```\nMEDIA: /tmp/a.png\ntail MEDIA: /b\nMEDIA: https://x.y/z.jpg"
    scanner = MediaScanner()
    for i in range(0, len(text), 3):
        scanner.feed(text[i : i + 3])
    assert [r.ref for r in scanner.refs] == [r.ref for r in strip_directives(text)[1]]
    assert scanner.has_prose


def test_the_scanner_agrees_with_the_whole_text_parse_for_any_lines_and_chunking():
    """Lines of every shape (fences indented or not, directives with tabs and spaces, long indented
    lines, blanks), cut into chunks of every size: refs and "has prose" as the whole-text parse says."""
    import random

    shapes = [
        "MEDIA: /tmp/a.png", "   MEDIA: /tmp/b.png", "\tMEDIA: /tmp/c.png", "    MEDIA: /tmp/indented.png",
        "```", "   ```py", "    ```", "~~~", "~~~~", "", "   ", "\t", " " * 40 + "- deep",
        "prose", "tail MEDIA: /no", "MEDIA:", "```js`x", "\r",
        "media: /tmp/lower.png", "\u00a0\u3000Media:\t'/tmp/q x.png'\ufeff", "mEdIa:/x", "MEDI", "```\u00a0",
        " " * 5000 + "MEDIA:" + " " * 9000 + "/tmp/far.png" + "\t" * 5000, "MEDIA: " + "a" * 5000, "\ufeff",
    ]  # fmt: skip
    rng = random.Random(7)
    for _ in range(300):
        text = "\n".join(rng.choice(shapes) for _ in range(rng.randint(1, 12)))
        size = rng.randint(1, 40)
        scanner = MediaScanner()
        for i in range(0, len(text), size):
            scanner.feed(text[i : i + size])
        clean, refs = strip_directives(text)
        assert [r.ref for r in scanner.refs] == [r.ref for r in refs], repr(text)
        assert scanner.has_prose == any(line.strip() for line in clean.split("\n")), repr(text)


def test_a_segment_of_only_directives_has_no_prose():
    scanner = MediaScanner()
    scanner.feed("MEDIA: /tmp/a.png\nMEDIA: /tmp/b.png")
    assert not scanner.has_prose and len(scanner.refs) == 2


def test_a_replayed_history_shares_one_scanner_for_plain_replies_and_a_reply_that_grows_is_scanned_afresh():
    """After a load, replies of prose alone share one settled scanner; a reply with a directive keeps
    its own; a replayed reply that grows (the agent still answering) is scanned afresh, so a
    directive its new chunks complete is still found."""
    timeline = Timeline(KEY, GEN)
    timeline.apply_batch(
        [
            user("q1", "u1", historical=True),
            agent("first answer\n", "a1", historical=True),
            user("q2", "u2", historical=True),
            agent("an image:\nMEDIA: /tmp/kept.png\n", "a2", historical=True),
            user("q3", "u3", historical=True),
            agent("still going\nMED", "a3", historical=True),
        ]
    )
    first, second, third = (timeline.items[f"a{n}:0"].parts[0].scanner for n in (1, 2, 3))
    assert is_settled(first) and first is third and not first.refs and first.has_prose
    assert not is_settled(second) and [r.ref for r in second.refs] == ["/tmp/kept.png"]
    timeline.apply(agent("IA: /tmp/late.png\n", "a3"))
    grown = timeline.items["a3:0"].parts[0].scanner
    assert not is_settled(grown) and [r.ref for r in grown.refs] == ["/tmp/late.png"]
    assert is_settled(first)  # the others keep the shared one


# --- terminal screen -----------------------------------------------------------------------------
def test_terminal_output_is_rendered_by_an_emulator_not_stripped():
    output = "step 1/3\rstep 3/3\n\x1b[1;32mok\x1b[0m\nabc\x08\x08XY\n\x1b[2J\x1b[Hcleared\n"
    assert render_screen(output) == "cleared"
    assert render_screen("a\rb\nc\x1b[31m red\x1b[0m\n") == "b\nc red"


# --- OpenClaw's transcript form of media ----------------------------------------------------------
def test_transcript_media_reads_delivery_urls_and_display_images_and_skips_junk():
    from app.renderer.timeline.media import MAX_TRANSCRIPT_MEDIA, transcript_media

    meta = {
        "openclawDelivery": {"mediaUrls": ["/tmp/a.png", 7, "", "  /tmp/b.pdf "]},
        "openclawDisplayContent": [
            {"type": "image", "url": "/api/chat/media/outgoing/k/1/full"},
            {"type": "text", "text": "ignored"},
            "junk",
            {"type": "image", "url": "/tmp/a.png"},  # duplicates once
        ],
    }
    assert transcript_media(meta) == ["/tmp/a.png", "/tmp/b.pdf", "/api/chat/media/outgoing/k/1/full"]
    assert transcript_media(None) == [] and transcript_media({"openclawDelivery": "x"}) == []
    many = {"openclawDelivery": {"mediaUrls": [f"/tmp/{i}.png" for i in range(100)]}}
    assert len(transcript_media(many)) == MAX_TRANSCRIPT_MEDIA


def test_transcript_media_become_compatibility_attachments_and_a_native_resource_wins():
    from app.renderer.timeline.turn_view import group_attachments
    from tests.unit.timeline.helpers import update

    h = Harness()(
        user("show me", message_id="u1"),
        agent("Here it is."),
        update(
            "agent_message_chunk",
            content={"type": "text", "text": ""},
            _meta={"openclawDelivery": {"mediaUrls": ["/tmp/chart.png", "/tmp/only-transcript.png"]}},
        ),
        agent({"type": "resource_link", "uri": "file:///tmp/chart.png", "name": "chart.png"}),
    )
    group = h.timeline.grouping.groups[-1]
    shown = [(a.uri, a.source) for a in group_attachments(h.timeline.items, group)]
    assert ("file:///tmp/chart.png", "acp-resource") in shown
    assert ("/tmp/only-transcript.png", "media-transcript") in shown
    assert ("/tmp/chart.png", "media-transcript") not in shown  # the native resource wins
    user_media = Harness()(
        user({"type": "text", "text": "x"}, _meta={"openclawDelivery": {"mediaUrls": ["/tmp/u.png"]}})
    )
    assert not any(a.uri == "/tmp/u.png" for i in user_media.timeline.items.values() for a in i.attachments)


def test_a_questions_tooltip_is_its_start_with_whitespace_collapsed_and_bounded():
    from app.renderer.timeline.questions import TOOLTIP_CHARS, tooltip_of

    assert tooltip_of("Why  does\n\tthis fail?") == "Why does this fail?"
    long = tooltip_of("word " * 1000)
    assert len(long) == TOOLTIP_CHARS + 1 and long.endswith("\u2026")

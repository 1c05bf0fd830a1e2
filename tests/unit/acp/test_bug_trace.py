"""The bug-report trace's rules (app/main/acp/bug_trace.py), one by one: an MCP server's header and
environment values taken out where they are handed over and wherever they appear again; fields named
like a secret; credential shapes; diffs; the home folder only as a whole path part; nesting bounded."""

from __future__ import annotations

from app.main.acp.bug_trace import MAX_DEPTH, Redactor

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZw"


def test_values_handed_out_as_env_or_headers_go_there_and_everywhere_else():
    redactor = Redactor({}, "/home/ann")
    opening = {
        "method": "session/new",
        "params": {
            "mcpServers": [
                {
                    "name": "gh",
                    "url": "https://x",
                    "headers": [{"name": "Authorization", "value": "ghkey-012345"}],
                },
                {"name": "db", "command": "db", "env": [{"name": "DB_PASS", "value": "dbpass-98765"}]},
            ]
        },
    }
    echoed = {"method": "session/update", "params": {"text": "used ghkey-012345 and dbpass-98765"}}
    redactor.learn(opening)
    redactor.learn(echoed)
    out = str(redactor.message(opening, "session/new")) + str(redactor.message(echoed, "session/update"))
    assert "ghkey-012345" not in out and "dbpass-98765" not in out
    assert "[redacted: Authorization]" in out and "[redacted: headers Authorization]" in out
    assert redactor.counts["environment and headers"] == 4


def test_secret_fields_credential_shapes_diffs_and_the_home_folder():
    redactor = Redactor({"agentkey-55555": "agent env KEY"}, "/home/ann")
    message = {
        "apiKey": "anything",
        "password": "hunter2",
        "note": "Bearer abcdefghijklmnop, https://bob:pw123@example.com, " + JWT,
        "key": "ghp_abcdefghijklmnopqrstuv AKIAABCDEFGHIJKLMNOP and agentkey-55555",
        "diff": {"oldText": "old secret", "newText": "new secret"},
        "paths": ["/home/ann/work/a.py", "/home/annex/b.py", "/home/ann"],
    }
    out = redactor.message(message, "session/update")
    assert out["apiKey"] == "[redacted: apiKey]" and out["password"] == "[redacted: password]"
    assert "abcdefghijklmnop" not in out["note"] and "pw123" not in out["note"] and "eyJ" not in out["note"]
    assert "bob:[redacted]@example.com" in out["note"]
    assert out["key"] == "[redacted credential] [redacted credential] and [redacted: agent env KEY]"
    assert out["diff"] == {
        "oldText": "[file contents: 10 characters]",
        "newText": "[file contents: 10 characters]",
    }
    assert out["paths"] == ["~/work/a.py", "/home/annex/b.py", "~"]


def test_a_file_read_is_taken_out_and_its_lines_wherever_they_are_quoted():
    redactor = Redactor({}, "")
    answer = {"result": {"content": "line one is here\nshort\nthe second long line\n"}}
    redactor.learn(answer, "fs/read_text_file")
    assert redactor.message(answer, "fs/read_text_file") == {
        "result": {"content": "[file contents: 44 characters]"}
    }
    assert redactor.text("it says: the second long line") == "it says: [redacted: file contents]"
    assert redactor.text("short") == "short"  # too short to look for elsewhere


def test_nesting_past_the_bound_is_cut_not_walked():
    deep: object = "sk-" + "a" * 20
    for _ in range(MAX_DEPTH + 10):
        deep = [deep]
    out = Redactor({}, "").message(deep, "")
    text = str(out)
    assert "aaaaaaaaaaaaaaaaaaaa" not in text and "[redacted: nested too deep]" in text

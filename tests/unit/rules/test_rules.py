"""What a permission rule matches (whole words of a simple command, files inside the chat's folder, a
tool kind; one agent, one folder or every folder), what a card offers, which option a rule picks, the
rules file read without trust, and the order of the permission desk: the proposal command's own
permission is never a rule's to answer."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from app.main.rules.book import AgentRules, PermissionRules, chosen_option
from app.main.rules.rule import PermissionRule, facts_of, matches, offers
from app.main.sessions.machine import SessionMachine
from app.main.sessions.permission_desk import PermissionDesk

CWD = "/home/me/project"


def _run(command: str) -> dict:
    return {"toolCallId": "t", "title": command, "kind": "execute", "rawInput": {"command": command}}


def _edit(path: str) -> dict:
    return {"toolCallId": "t", "title": "Edit", "kind": "edit", "locations": [{"path": path}]}


GIT_STATUS = PermissionRule.make("claude", CWD, "allow", "command", "execute", "git status")


@pytest.mark.parametrize(
    ("command", "matched"),
    [
        ("git status", True),
        ("git status --short", True),
        ("git  status", True),
        ("git statusx", False),
        ("git", False),
        ("git status && rm -rf ~", False),
        ("git status; rm -rf ~", False),
        ("git status | sh", False),
        ("git status > /etc/passwd", False),
        ("git status $(rm -rf ~)", False),
        ("git status `rm -rf ~`", False),
        ("git status\nrm -rf ~", False),
    ],
)
def test_a_command_rule_matches_whole_words_of_a_simple_command_only(command, matched):
    assert matches(GIT_STATUS, "claude", CWD, facts_of(_run(command))) is matched


def test_a_command_rule_reads_the_command_as_the_card_shows_it_never_the_title():
    stated = [
        {"kind": "execute", "rawInput": "git status"},  # a bare string
        {"kind": "execute", "rawInput": ["git", "status"]},  # an argv list
        {"kind": "execute", "rawInput": {"command": ["git", "status", "-s"]}},
    ]
    assert all(matches(GIT_STATUS, "claude", CWD, facts_of(call)) for call in stated)
    titled = {"kind": "execute", "title": "git status", "rawInput": {"command": "git status; rm -rf ~"}}
    assert not matches(GIT_STATUS, "claude", CWD, facts_of(titled))
    assert not matches(GIT_STATUS, "claude", CWD, facts_of({"kind": "execute", "title": "git status"}))


def test_a_rule_is_one_agents_and_one_folders_with_the_folders_inside_it():
    facts = facts_of(_run("git status"))
    assert matches(GIT_STATUS, "claude", CWD + "/sub", facts)
    assert not matches(GIT_STATUS, "codex", CWD, facts)
    assert not matches(GIT_STATUS, "claude", CWD + "-other", facts)
    everywhere = PermissionRule.make("claude", "", "allow", "kind", "execute")
    assert (
        matches(everywhere, "claude", "/anywhere", facts)
        and everywhere.words() == "Allow every execute call in every folder"
    )


def test_a_path_rule_matches_only_files_inside_the_chats_folder():
    rule = PermissionRule.make("claude", CWD, "allow", "path", "edit", "src/*")
    assert matches(rule, "claude", CWD, facts_of(_edit("src/app.py")))
    assert matches(rule, "claude", CWD, facts_of(_edit(CWD + "/src/deep/app.py")))
    assert not matches(rule, "claude", CWD, facts_of(_edit("docs/app.md")))
    assert not matches(rule, "claude", CWD, facts_of(_edit("../other/src/app.py")))
    assert not matches(rule, "claude", CWD, facts_of(_edit("/etc/src/passwd")))
    assert not matches(rule, "claude", CWD, facts_of({"kind": "edit", "title": "no file named"}))


def test_a_card_offers_the_narrowest_rules_first():
    said = [r.words() for r in offers("claude", CWD, facts_of(_run("npm run build -- --prod")), "allow")]
    assert said == [f"Allow commands starting with “npm run” in {CWD}", f"Allow every execute call in {CWD}"]
    said = [r.words() for r in offers("claude", CWD, facts_of(_edit("src/a.py")), "deny")]
    assert said == [f"Deny edit calls on files matching “src/*” in {CWD}", f"Deny every edit call in {CWD}"]
    assert len(offers("claude", CWD, facts_of(_run("make && make install")), "allow")) == 1  # no prefix


def test_a_rule_picks_one_of_the_agents_own_options():
    options = [{"optionId": "a", "kind": "allow_always"}, {"optionId": "r", "kind": "reject_once"}]
    assert chosen_option("allow", options) == "a" and chosen_option("deny", options) == "r"
    assert chosen_option("deny", [{"optionId": "a", "kind": "allow_once"}]) is None


def test_the_rules_file_is_read_without_trust(tmp_path):
    good = GIT_STATUS.record()
    (tmp_path / "permission-rules.json").write_text(
        json.dumps({"a": good, "b": {**good, "decision": "maybe"}, "c": {**good, "value": ""}, "d": "text"})
    )
    book = PermissionRules(tmp_path)
    assert [r.id for r in book.rules()] == [GIT_STATUS.id]
    assert any(p.name.startswith("permission-rules.json.corrupt-") for p in tmp_path.iterdir())  # kept aside


async def test_the_proposal_commands_own_permission_is_never_a_rules_to_answer(tmp_path):
    """The proposals answer their CLI's exec first (here: cancel it silently); a rule allowing every
    execute call never sees it, and nothing is shown or logged."""

    class Proposals:
        def on_permission(self, key, tool_call, options):
            return ""  # the proposal CLI, not armed: cancelled silently

    machine, shown = SessionMachine(), []
    book = PermissionRules(tmp_path)
    book.add(PermissionRule.make("agent", "", "allow", "kind", "execute"))
    machine.on_send({"id": 1, "method": "session/new", "params": {"cwd": CWD, "mcpServers": []}})
    machine.on_recv({"id": 1, "result": {"sessionId": "s"}})
    machine.on_send({"id": 2, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}})
    desk = PermissionDesk(
        machine, lambda step: shown.extend(step.envelopes), lambda: Proposals(), iter(range(10, 99)),
        lambda: AgentRules(book, "agent"),
    )  # fmt: skip
    options = [{"optionId": "yes", "kind": "allow_once"}]
    assert await asyncio.wait_for(desk.ask("s", _run("clawqt propose-terminal-actions"), options), 5) is None
    assert shown == [] and book.audit.newest() == []
    assert (
        os.path.exists(tmp_path / "permission-rules.json")
        and not (tmp_path / "permission-audit.jsonl").exists()
    )


def test_the_editor_turns_a_rule_round_or_widens_it_and_a_waiting_request_it_now_matches_is_answered(
    tmp_path,
):
    book = PermissionRules(tmp_path)
    rule = PermissionRule.make("claude", CWD, "allow", "command", "execute", "git status")
    book.add(rule)
    answered: list[str] = []
    agent = AgentRules(book, "claude")
    options = [{"optionId": "ok", "kind": "allow_once"}, {"optionId": "no", "kind": "reject_once"}]
    elsewhere = agent.check(
        "r1",
        "chat",
        "/other/place",
        _run("git status"),
        options,
        lambda d: answered.append(d.option_id) or True,
    )
    assert elsewhere is None  # another folder: it waits
    flipped = book.change(rule.id, "deny", False)
    assert flipped is not None and flipped.words() == f"Deny commands starting with “git status” in {CWD}"
    assert answered == []
    widened = book.change(rule.id, "deny", True)
    assert widened is not None and widened.folder == "" and answered == ["no"]  # now it matches: denied
    assert [r.words() for r in PermissionRules(tmp_path).rules()] == [
        "Deny commands starting with “git status” in every folder"
    ]
    assert book.change("nothing", "allow", False) is None
    assert book.audit.newest()[0]["decision"] == "deny"

"""The user's permission rules with the scripted agent as a real subprocess: allow once asks again,
always allow (a rule kept from the card's offer) answers this request, the next ones and a request
already waiting in another chat; the card's envelope says which rule; a chained command or a file
outside the folder is asked; the rules and their decisions survive a restart; Undo (remove) asks again."""

from __future__ import annotations

import asyncio
import csv
import json

from app.main.rules.book import AgentRules, PermissionRules
from app.main.rules.host_part import RulesOfUser
from tests.conftest import scripted_agent_argv


def _with_rules(make_service, tmp_path, data):
    service, envelopes = make_service(scripted_agent_argv(), cwd=str(tmp_path))
    book = PermissionRules(data)
    service.rules = AgentRules(book, "scripted")
    return service, envelopes, book


async def _asked(envelopes, count: int):
    return (await envelopes.wait_for(lambda log: log.of_kind("permission_request")[count - 1 :]))[0]


async def test_always_allow_answers_this_the_next_and_a_waiting_request_and_allow_once_asks_again(
    make_service, tmp_path
):
    service, envelopes, book = _with_rules(make_service, tmp_path, tmp_path / "data")
    host = RulesOfUser(book)
    first = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(first, "run git status"))
    asked = await _asked(envelopes, 1)
    assert service.answer_permission(asked.request_id, "allow")  # allow once: nothing is kept
    await running
    running = asyncio.create_task(service.prompt(first, "run git status --short"))
    asked = await _asked(envelopes, 2)  # asked again
    second = (await service.new_session()).session_key
    waiting = asyncio.create_task(service.prompt(second, "run git status -v"))  # another chat waits too
    other = await _asked(envelopes, 3)
    offers = host.offers(asked.request_id, "allow")
    assert offers[0] == f"Allow commands starting with “git status” in {tmp_path}"
    assert offers[-1] == f"Allow every execute call in {tmp_path}"
    kept = host.remember(asked.request_id, "allow", 0)
    assert kept is not None and kept.words == offers[0]
    await running
    await waiting
    resolved = {e.request_id: e for e in envelopes.of_kind("permission_resolved")}
    for request in (asked, other):
        assert (resolved[request.request_id].reason, resolved[request.request_id].option_id) == (
            "rule",
            "allow",
        )
        assert resolved[request.request_id].rule_words == offers[0]
    assert "outcome: allow" in envelopes.text(second)
    await service.activate_session(first)
    await service.prompt(first, "run git status")  # the next one is never shown waiting
    assert envelopes.of_kind("permission_resolved")[-1].reason == "rule"
    assert [d["request"] for d in host.audit()] == ["git status", "git status -v", "git status --short"]
    assert host.audit()[0]["option"] == "Allow" and host.audit()[0]["rule_id"] == kept.id


async def test_a_chained_command_a_file_outside_the_folder_and_a_denied_kind(make_service, tmp_path):
    service, envelopes, book = _with_rules(make_service, tmp_path, tmp_path / "data")
    from app.main.rules.rule import PermissionRule

    book.add(PermissionRule.make("scripted", str(tmp_path), "allow", "command", "execute", "git status"))
    book.add(PermissionRule.make("scripted", str(tmp_path), "allow", "path", "edit", "src/*"))
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "run git status && rm -rf ~"))
    chained = await _asked(envelopes, 1)
    await asyncio.sleep(0.2)  # an absence has no event: the rule did not answer
    assert not envelopes.of_kind("permission_resolved")
    service.answer_permission(chained.request_id, "deny")
    await running
    await service.prompt(key, "touch src/app.py")  # inside: the path rule answers
    assert envelopes.of_kind("permission_resolved")[-1].reason == "rule"
    running = asyncio.create_task(service.prompt(key, "touch ../elsewhere/src/app.py"))
    outside = await _asked(envelopes, 3)
    await asyncio.sleep(0.2)
    assert envelopes.of_kind("permission_resolved")[-1].request_id != outside.request_id
    book.add(PermissionRule.make("scripted", "", "deny", "kind", "edit"))  # newest wins, in every folder
    await running
    assert "outcome: deny" in envelopes.text(key)
    assert envelopes.of_kind("permission_resolved")[-1].rule_words == "Deny every edit call in every folder"


async def test_rules_and_their_decisions_survive_a_restart_and_a_removed_rule_asks_again(
    make_service, tmp_path
):
    data = tmp_path / "data"
    service, envelopes, book = _with_rules(make_service, tmp_path, data)
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, "run make test"))
    asked = await _asked(envelopes, 1)
    RulesOfUser(book).remember(asked.request_id, "allow", 0)
    await running
    await service.shutdown()

    again, envelopes, book = _with_rules(make_service, tmp_path, data)  # ClawQt started again
    host = RulesOfUser(book)
    assert [r.words for r in host.rules()] == [f"Allow commands starting with “make test” in {tmp_path}"]
    assert len(host.audit()) == 1
    key = (await again.new_session()).session_key
    await again.prompt(key, "run make test")
    assert envelopes.of_kind("permission_resolved")[-1].reason == "rule"
    exported = tmp_path / "decisions.csv"
    assert host.export_audit(str(exported)) == 2
    rows = list(csv.DictReader(exported.open()))
    assert [r["request"] for r in rows] == ["make test", "make test"] and rows[0]["decision"] == "allow"
    assert host.remove(host.rules()[0].id)
    running = asyncio.create_task(again.prompt(key, "run make test"))
    asked = await _asked(envelopes, 2)  # asked again
    again.answer_permission(asked.request_id, "deny")
    await running


async def test_rules_that_allow_everything_never_widen_the_folders_an_agent_reaches(make_service, tmp_path):
    """A rule answers permission requests only: the agent's own file requests outside the chat's folder
    are still refused (files/agent_files.py decides them), whatever the rules say."""
    from app.main.rules.rule import PermissionRule

    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "outside.txt").write_text("not the agent's\n")
    service, envelopes = make_service(scripted_agent_argv(), cwd=str(workspace))
    book = PermissionRules(tmp_path / "data")
    service.rules = AgentRules(book, "scripted")
    for kind in ("read", "edit", "execute", "other"):
        book.add(PermissionRule.make("scripted", "", "allow", "kind", kind))
    key = (await service.new_session()).session_key
    await service.prompt(key, "fs-read-outside")
    await service.prompt(key, "fs-write-outside written.txt")
    said = [json.loads(line) for line in envelopes.text(key).replace("}{", "}\n{").splitlines()]
    assert [entry["result"] for entry in said] == [None, None]
    assert all(entry["error"]["code"] in (-32602, -32002) for entry in said), said  # refused, in words
    assert not (tmp_path / "written.txt").exists() and book.audit.newest() == []

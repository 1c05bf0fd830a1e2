"""Where a permission request shows: in the footer of the tool card it concerns when that card is the
row right above it (one card says what would run and asks), as a card of its own otherwise (its call in a
group of calls, further up, or unknown); the card's footer follows the answer."""

from __future__ import annotations

from app.renderer.present.permission_card import permission_entry
from app.renderer.present.presenter import Presenter
from app.renderer.timeline.items import PermissionItem
from tests.unit.timeline.helpers import Harness, agent, permission, resolved, tool


def _payloads(h: Harness, kind: str, presenter: Presenter | None = None) -> list[dict]:
    presenter = presenter or Presenter()
    return [presenter.payload(h.timeline, row, 0.0) for row in h.timeline.rows if row.kind == kind]


def test_a_request_about_the_call_just_above_is_that_cards_footer_and_follows_its_answer():
    h, presenter = Harness().optimistic("m1", "go"), Presenter()  # one presenter: its cache is tested too
    h(tool("t", title="rm -rf build", kind="execute", status="pending"), permission("p1", "allow", "deny"))
    [tool_row] = _payloads(h, "tool", presenter)
    [permission_row] = _payloads(h, "permission")
    assert tool_row["tools"][0]["permission"]["requestId"] == "p1"
    assert tool_row["tools"][0]["permission"]["status"] == "pending"
    assert permission_row["permission"]["inCard"]  # its own row draws nothing
    h(resolved("p1", "deny"))
    [tool_row] = _payloads(h, "tool", presenter)
    assert tool_row["tools"][0]["permission"]["selectedName"] == "Deny"


def test_a_request_keeps_a_card_of_its_own_when_its_call_is_not_the_lone_row_above():
    grouped = Harness().optimistic("m1", "go")
    grouped(tool("s", title="search"), tool("t", title="rm"), permission("p1"))  # two calls: a group
    assert not _payloads(grouped, "permission")[0]["permission"]["inCard"]
    assert all("permission" not in t for row in _payloads(grouped, "tool-group") for t in row["tools"])

    apart = Harness().optimistic("m1", "go")
    apart(tool("t", title="rm"), agent("I will ask first."), permission("p1"))  # words between them
    assert not _payloads(apart, "permission")[0]["permission"]["inCard"]
    assert "permission" not in _payloads(apart, "tool")[0]["tools"][0]

    unknown = Harness().optimistic("m1", "go")
    unknown(agent("no call"), permission("p1"))  # a request about no call it knows
    assert not _payloads(unknown, "permission")[0]["permission"]["inCard"]


def test_a_permission_answer_shows_the_options_name_and_meaning_not_its_id():
    options = [{"optionId": "allow_once", "name": "Allow", "kind": "allow_once"}]
    item = PermissionItem(
        id="p", request_id="r", options=options, status="selected", selected_option="allow_once"
    )
    entry = permission_entry(item)
    assert (entry["selectedName"], entry["selectedMeaning"]) == ("Allow", "allowed once")
    item.selected_option = "gone"  # an id the options do not have: shown as is, no meaning invented
    assert (permission_entry(item)["selectedName"], permission_entry(item)["selectedMeaning"]) == ("gone", "")

"""Where a permission request shows: in the footer of the tool card it concerns when that card is the
row right above it (one card says what would run and asks), as a card of its own otherwise (its call in a
group of calls, further up, or unknown); the card's footer follows the answer."""

from __future__ import annotations

from app.renderer.present.permission_card import permission_entry, split_options
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


def _offered(*kinds: str) -> list[dict[str, str]]:
    return [{"optionId": f"o{n}", "name": f"Option {n}", "optionKind": kind} for n, kind in enumerate(kinds)]


def test_up_to_nine_options_are_buttons_past_that_the_first_refusal_takes_the_last_button():
    few = _offered("allow_once", "allow_always", "reject_once")
    assert split_options(few) == (few, [])
    nine = _offered(*["allow_once"] * 9)
    assert split_options(nine) == (nine, [])
    many = _offered(*["allow_once"] * 20, "reject_once", "reject_always")
    buttons, more = split_options(many)
    assert [o["optionId"] for o in buttons] == [f"o{n}" for n in range(8)] + ["o20"]
    assert [o["optionId"] for o in more] == [f"o{n}" for n in range(8, 20)] + ["o21"]  # the agent's order
    early = _offered("reject_once", *["allow_once"] * 20)
    buttons, more = split_options(early)  # a refusal among the first nine keeps its place
    assert buttons == early[:9] and more == early[9:]
    no_refusal = _offered(*["allow_once"] * 12)
    assert split_options(no_refusal) == (no_refusal[:9], no_refusal[9:])

"""A link an agent asks the user to open (what the card says it opens, what is refused), a question in
the timeline (asked once, ended once, a link's completion), and what its card shows."""

from __future__ import annotations

import pytest

from app.contract.elicitation import Choice, Form, FormField, QuestionAskedEnvelope, QuestionEndedEnvelope
from app.main.elicitation.form import FormRefused
from app.main.elicitation.link import MAX_URL_CHARS, read_link
from app.renderer.present.question_card import question_entry
from app.renderer.timeline.items import ElicitationItem
from app.renderer.timeline.reducer import Timeline


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("file:///etc/passwd", "not a web address (file)"),
        ("javascript:alert(1)", "not a web address (javascript)"),
        ("https://", "names no site"),
        ("", "sent no address"),
        (42, "sent no address"),
        ("https://x.example/" + "a" * MAX_URL_CHARS, "longer than 4,000 characters"),
        ("https://[::1", "not a valid address"),
    ],
)
def test_a_link_that_is_not_a_web_address_is_refused_in_words(url, why):
    with pytest.raises(FormRefused, match=why.replace("(", r"\(").replace(")", r"\)")):
        read_link(url)


def test_the_card_names_the_host_the_browser_reaches():
    plain = read_link("HTTPS://Example.COM:8443/pay?x=1")
    assert (plain.host, plain.warning, plain.url) == ("example.com", "", "https://example.com:8443/pay?x=1")
    mixed = read_link("https://\u0430pple.com/login")  # a Cyrillic а, then Latin
    assert mixed.host == "xn--pple-43d.com" and mixed.url == "https://xn--pple-43d.com/login"
    assert "mixing alphabets (Cyrillic, Latin)" in mixed.warning
    assert "mixing" not in read_link("https://m\u00fcnchen.de").warning  # one alphabet, beyond a–z
    assert "beyond a–z" in read_link("https://m\u00fcnchen.de").warning
    disguised = read_link("https://bank.com@evil.example/")
    assert disguised.host == "evil.example" and "puts “bank.com” before the site's name" in disguised.warning


FORM = Form(
    "",
    "Which colour?",
    (
        FormField("colour", "choice", "Colour", choices=(Choice("r", "Red"), Choice("g", "Green"))),
        FormField("count", "integer", "Count", minimum=1, maximum=9, default=2.0),
        FormField("mail", "text", "Mail", text_format="email"),
    ),
)


def _timeline() -> Timeline:
    return Timeline("k", 1)


def test_a_question_is_asked_once_and_ends_once_and_a_link_is_marked_done():
    timeline = _timeline()
    asked = QuestionAskedEnvelope("k", 1, "ask-1", "Which colour?", form=FORM)
    timeline.apply(asked)
    timeline.apply(asked)
    [item] = [i for i in timeline.items.values() if isinstance(i, ElicitationItem)]
    timeline.apply(QuestionEndedEnvelope("k", 1, "ask-1", "accept", "answered", (("Colour", "Green"),)))
    timeline.apply(QuestionEndedEnvelope("k", 1, "ask-1", "cancel", "agent-exited"))  # too late: ignored
    assert (item.status, item.reason, item.answers) == ("accept", "answered", (("Colour", "Green"),))
    timeline.apply(QuestionEndedEnvelope("k", 1, "nobody", "cancel", "agent-exited"))
    assert timeline.ignored == 1
    link = QuestionAskedEnvelope("k", 1, "ask-2", "Sign in", url="https://a.example/", host="a.example")
    timeline.apply(link)
    timeline.apply(QuestionEndedEnvelope("k", 1, "ask-2", "accept", "answered"))
    entry = question_entry(timeline.items["elicitation:ask-2"])  # type: ignore[arg-type]
    assert entry["ending"] == "Opened a.example"
    timeline.apply(QuestionEndedEnvelope("k", 1, "ask-2", "accept", "completed"))
    entry = question_entry(timeline.items["elicitation:ask-2"])  # type: ignore[arg-type]
    assert entry["ending"] == "Opened a.example: the agent says it is done" and entry["mode"] == "url"


def test_the_card_shows_fields_with_their_hints_and_a_message_alone_as_its_title():
    timeline = _timeline()
    timeline.apply(QuestionAskedEnvelope("k", 1, "ask-1", "Which colour?", form=FORM))
    entry = question_entry(timeline.items["elicitation:ask-1"])  # type: ignore[arg-type]
    assert entry["title"] == "Which colour?" and entry["message"] == "" and entry["waiting"]
    colour, count, mail = entry["fields"]
    assert colour["choices"] == [{"value": "r", "label": "Red"}, {"value": "g", "label": "Green"}]
    assert (count["hint"], count["default"], count["hasDefault"]) == ("1 to 9", 2, True)
    assert (mail["hint"], mail["hasDefault"]) == ("name@example.com", False)
    timeline.apply(QuestionEndedEnvelope("k", 1, "ask-1", "cancel", "agent-exited"))
    entry = question_entry(timeline.items["elicitation:ask-1"])  # type: ignore[arg-type]
    assert entry["ending"] == "The agent stopped before you answered" and not entry["waiting"]

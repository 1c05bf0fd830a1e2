"""The self-test's check that the agent's reply is on screen: the first words of its last paragraph,
in order, in one visible text (markdown markup ignored)."""

from app.renderer.qt.common.screen_text import reply_shown

REPLY = "I wrote some notes for you:\n\nThat is the *whole* tour: a plan, `markdown` and a file."


def test_the_first_words_of_the_last_paragraph_shown_in_one_text_are_found():
    texts = ["Send message", "That is the whole tour: a plan, markdown and a file."]
    assert reply_shown(REPLY, texts) == "That is the whole tour: a"


def test_words_spread_over_texts_or_out_of_order_are_not_a_shown_reply():
    assert reply_shown(REPLY, ["That is the whole", "tour: a plan"]) == ""
    assert reply_shown(REPLY, ["a tour: whole the is That"]) == ""
    assert reply_shown(REPLY, ["I wrote some notes for you:"]) == ""  # an earlier paragraph only


def test_a_reply_without_words_is_never_shown():
    assert reply_shown("", ["anything"]) == "" and reply_shown("\n\n  \n", ["anything"]) == ""

"""A turn's tokens as an agent reports them (ACP's per-turn `usage`): only whole counts of at least 0
are kept, and the footer says them beside the time."""

from __future__ import annotations

from app.contract.usage import turn_tokens
from app.renderer.present.presenter import tokens_words


def test_only_whole_counts_of_at_least_zero_are_kept():
    usage = {"totalTokens": 10, "inputTokens": True, "outputTokens": -1, "thoughtTokens": "3", "x": 4}
    assert turn_tokens(usage) == {"totalTokens": 10}
    assert turn_tokens({"inputTokens": 1.5}) is None
    assert turn_tokens("lots") is None and turn_tokens(None) is None


def test_the_footer_says_the_total_and_what_it_is_made_of():
    assert tokens_words({"totalTokens": 1534, "inputTokens": 1200, "outputTokens": 334}) == (
        "1.5k tokens (1.2k in, 334 out)"
    )
    assert tokens_words({"inputTokens": 20, "outputTokens": 5}) == "25 tokens (20 in, 5 out)"
    assert tokens_words({"totalTokens": 7}) == "7 tokens"

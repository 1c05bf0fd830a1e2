"""Terminal capabilities: minted only for the user's message, bound to its chat, checked at each call."""

from __future__ import annotations

import base64

from app.main.participation.capabilities import (
    CAPABILITY_LIFETIME_SECONDS,
    MAX_LIVE_CAPABILITIES,
    TOKEN_BYTES,
    TOKEN_PREFIX,
    CapabilityStore,
    Refusal,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def store_with_clock() -> tuple[CapabilityStore, FakeClock]:
    clock = FakeClock()
    return CapabilityStore(clock), clock


def test_tokens_carry_256_random_bits_and_differ_per_chat():
    store, _ = store_with_clock()
    tokens = {store.mint_for_user_message(f"chat-{index}").token for index in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        assert token.startswith(TOKEN_PREFIX)
        body = token.removeprefix(TOKEN_PREFIX)
        assert len(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))) == TOKEN_BYTES == 32


def test_a_minted_token_authorizes_its_chat_on_an_unpinned_terminal():
    store, _ = store_with_clock()
    capability = store.mint_for_user_message("chat-a")
    check = store.check(capability.token, None)
    assert check.allowed and check.session_key == "chat-a"


def test_an_unpinned_terminal_is_visible_to_every_chat():
    store, _ = store_with_clock()
    for chat in ("chat-a", "chat-b"):
        assert store.check(store.mint_for_user_message(chat).token, None).allowed


def test_a_terminal_pinned_to_chat_b_refuses_chat_a_and_admits_chat_b():
    store, _ = store_with_clock()
    token_a = store.mint_for_user_message("chat-a").token
    token_b = store.mint_for_user_message("chat-b").token
    refused = store.check(token_a, "chat-b")
    assert not refused.allowed and refused.refusal is Refusal.OTHER_CHAT
    assert store.check(token_b, "chat-b").allowed


def test_a_token_expires_after_one_hour_and_says_so():
    store, clock = store_with_clock()
    token = store.mint_for_user_message("chat-a").token
    clock.now += CAPABILITY_LIFETIME_SECONDS - 1
    assert store.check(token, None).allowed
    clock.now += 1
    expired = store.check(token, None)
    assert expired.refusal is Refusal.EXPIRED and not expired.allowed


def test_expiry_is_checked_at_the_moment_given_not_at_mint_time():
    store, _ = store_with_clock()
    capability = store.mint_for_user_message("chat-a", now=0.0)
    assert store.check(capability.token, None, now=CAPABILITY_LIFETIME_SECONDS - 0.5).allowed
    assert store.check(capability.token, None, now=CAPABILITY_LIFETIME_SECONDS).refusal is Refusal.EXPIRED


def test_a_new_user_message_refreshes_the_same_token_for_another_hour():
    store, clock = store_with_clock()
    first = store.mint_for_user_message("chat-a")
    clock.now += CAPABILITY_LIFETIME_SECONDS - 10
    second = store.mint_for_user_message("chat-a")
    clock.now += 60
    assert second.token == first.token
    assert store.check(first.token, None).allowed


def test_after_expiry_a_user_message_mints_a_new_token_and_the_old_one_stays_dead():
    store, clock = store_with_clock()
    old = store.mint_for_user_message("chat-a").token
    clock.now += CAPABILITY_LIFETIME_SECONDS
    new = store.mint_for_user_message("chat-a").token
    assert new != old
    assert not store.check(old, None).allowed and store.check(new, None).allowed


def test_the_257th_live_capability_evicts_the_oldest():
    store, clock = store_with_clock()
    tokens = []
    for index in range(MAX_LIVE_CAPABILITIES + 1):
        tokens.append(store.mint_for_user_message(f"chat-{index}").token)
        clock.now += 1
    assert store.live_count() == MAX_LIVE_CAPABILITIES == 256
    assert store.check(tokens[0], None).refusal is Refusal.UNKNOWN
    assert store.check(tokens[1], None).allowed and store.check(tokens[-1], None).allowed


def test_refreshing_protects_a_capability_from_eviction():
    store, _ = store_with_clock()
    first = store.mint_for_user_message("chat-0").token
    for index in range(1, MAX_LIVE_CAPABILITIES):
        store.mint_for_user_message(f"chat-{index}")
    store.mint_for_user_message("chat-0")
    store.mint_for_user_message("chat-new")
    assert store.check(first, None).allowed
    assert store.live_count() == MAX_LIVE_CAPABILITIES


def test_expired_capabilities_do_not_occupy_live_slots():
    store, clock = store_with_clock()
    for index in range(MAX_LIVE_CAPABILITIES):
        store.mint_for_user_message(f"old-{index}")
    clock.now += CAPABILITY_LIFETIME_SECONDS
    fresh = store.mint_for_user_message("fresh").token
    assert store.live_count() == 1 and store.check(fresh, None).allowed


def test_a_made_up_or_malformed_token_is_refused_as_unknown():
    store, _ = store_with_clock()
    real = store.mint_for_user_message("chat-a").token
    for guess in ("chat-a", TOKEN_PREFIX + "A" * 43, real[:-1], "", real + "x" * 200, None, 42):
        assert store.check(guess, None).refusal is Refusal.UNKNOWN


def test_naming_the_chat_as_the_pin_does_not_authorize_a_foreign_token():
    store, _ = store_with_clock()
    token_a = store.mint_for_user_message("chat-a").token
    store.mint_for_user_message("chat-b")
    assert store.check(token_a, "chat-b").refusal is Refusal.OTHER_CHAT


def test_revoking_a_chat_ends_its_capability_at_once():
    store, _ = store_with_clock()
    token = store.mint_for_user_message("chat-a").token
    store.revoke_session("chat-a")
    assert store.check(token, None).refusal is Refusal.UNKNOWN
    assert store.live_count() == 0


def test_the_store_has_no_way_to_mint_except_for_a_user_message():
    minting = [name for name in dir(CapabilityStore) if "mint" in name or "issue" in name or "grant" in name]
    assert minting == ["mint_for_user_message"]

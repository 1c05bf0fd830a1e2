"""`Listeners`, the fan-out behind the chat service's, the agent hub's and the user terminals' `subscribe`."""

from __future__ import annotations

import logging

from app.main.core.listeners import Listeners

log = logging.getLogger("tests.listeners")


def test_a_listener_that_raises_is_logged_and_the_others_still_hear_the_value(caplog):
    listeners: Listeners[str] = Listeners(log, "listener failed for %s", str.upper)
    heard: list[str] = []

    def broken(value: str) -> None:
        raise RuntimeError("broken view")

    listeners.subscribe(heard.append)
    listeners.subscribe(broken)
    listeners.subscribe(lambda value: heard.append(value + "!"))
    with caplog.at_level(logging.ERROR, logger=log.name):
        listeners.emit("one")
        listeners.emit("two")
    assert heard == ["one", "one!", "two", "two!"]
    failures = [r for r in caplog.records if r.name == log.name]
    assert [r.getMessage() for r in failures] == ["listener failed for ONE", "listener failed for TWO"]
    assert all(r.exc_info and isinstance(r.exc_info[1], RuntimeError) for r in failures)


def test_without_a_detail_the_message_is_logged_as_it_is(caplog):
    listeners: Listeners[int] = Listeners(log, "a listener failed: 100%")
    listeners.subscribe(lambda value: 1 // value)
    with caplog.at_level(logging.ERROR, logger=log.name):
        listeners.emit(0)
    assert [r.getMessage() for r in caplog.records if r.name == log.name] == ["a listener failed: 100%"]


def test_unsubscribing_while_a_value_is_delivered_skips_no_one_for_that_value():
    """Who was subscribed when delivery began hears the value, also one another listener removes on
    the way; from the next value on the removed ones hear nothing."""
    listeners: Listeners[str] = Listeners(log, "listener failed")
    heard: list[str] = []

    def once(value: str) -> None:
        heard.append(f"once {value}")
        unsubscribe_once()

    def removes_last(value: str) -> None:
        heard.append(f"removes {value}")
        unsubscribe_last()

    unsubscribe_once = listeners.subscribe(once)
    listeners.subscribe(removes_last)
    listeners.subscribe(lambda value: heard.append(f"third {value}"))
    unsubscribe_last = listeners.subscribe(lambda value: heard.append(f"last {value}"))
    listeners.emit("a")
    listeners.emit("b")
    assert heard == ["once a", "removes a", "third a", "last a", "removes b", "third b"]


def test_unsubscribing_twice_does_nothing_the_second_time():
    listeners: Listeners[str] = Listeners(log, "listener failed")
    heard: list[str] = []
    unsubscribe = listeners.subscribe(heard.append)
    listeners.subscribe(lambda value: heard.append(f"other {value}"))
    unsubscribe()
    unsubscribe()
    listeners.emit("x")
    assert heard == ["other x"]

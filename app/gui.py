"""The app's start and end: the Qt application, the window's first frame (before asyncio, qasync and
the main side are imported: they load while it shows), the qasync loop, the main side, the chat bound
into the window. Also `clawqt self-test`, which opens the real window on an agent (the demo by default),
sends one prompt, waits for the turn to end, saves a screenshot and exits 0 (or non-zero with the
reason)."""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from app import startup_collection
from app.contract.bundled import APP_ID, app_icon
from app.main.agents.command import AgentCommandError
from app.main.core import paths
from app.main.host.launch import Launch
from app.main.host.prelude import Prelude, read_prelude

if TYPE_CHECKING:
    import asyncio

    from app.main.acp.recorder import TraceRecorder
    from app.main.host.make import Host
    from app.renderer.qt.main_window import Window


def _start_qt(args: argparse.Namespace, failure: str) -> tuple[Any, Prelude] | int:
    """The Qt application and what the window is drawn from (the prelude: config, placement), or an
    exit code when the --agent flag is unusable (a bad config file only adds problems the window
    shows). The event loop (`_event_loop`) and the main side (`_build_host`) come once the window shows."""
    from app.renderer.qt.common.feature_scan import answer_from_bytes

    answer_from_bytes()  # before PySide's modules: every module imported from here is read cheaply
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    try:
        prelude = read_prelude(Launch.of(args))
    except AgentCommandError as exc:
        print(f"{failure}: {exc}", file=sys.stderr)
        return 2
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("ClawQt")
    app.setOrganizationName("ClawQt")
    app.setDesktopFileName(APP_ID)  # Wayland and the taskbar match the window to its desktop entry
    app.setWindowIcon(QIcon(str(app_icon())))
    startup_collection.mark("qt")
    return app, prelude


def _event_loop(app: Any) -> Any:
    """The qasync loop on Qt's (a context manager: leaving it closes the loop): asyncio and qasync are
    imported here, after the first frame."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    return loop


def _wait_for_frame(window: Window, say: str = "", timeout_ms: int = 5000) -> None:
    """Qt's own loop spun until the window's next frame (`say` printed then, for the ui_startup
    benchmark): the first frame needs no asyncio loop."""
    from PySide6.QtCore import QEventLoop, QTimer

    waiting = QEventLoop()
    timer = QTimer()  # a platform without frames (never seen): start anyway
    timer.setSingleShot(True)
    timer.timeout.connect(waiting.quit)
    said: list[bool] = []

    def swapped() -> None:
        if say and not said:
            said.append(True)
            print(say, flush=True)
        waiting.quit()

    window.root.frameSwapped.connect(swapped)
    timer.start(timeout_ms)
    waiting.exec()
    timer.stop()
    window.root.frameSwapped.disconnect(swapped)


def _build_host(prelude: Prelude) -> Host:
    """The main side (the agents, the chat stores, the rules, the MCP servers...) on the prelude."""
    from app.main.host.build import build_host

    host, _recorder = build_host(prelude.launch, prelude)
    return host


def _open_window(prelude: Prelude) -> Window:
    """The window shown with its start frame: the main side is not imported yet."""
    from app.renderer.qt.main_window import Window

    return Window.open(prelude.appearance(), prelude.notifications(), prelude.placement())


async def _first_frame(window: Window, timeout: float = 5.0, say: str = "") -> None:
    """The window's next frame drawn (`say` printed then, for the ui_startup benchmark)."""
    import asyncio

    shown = asyncio.get_running_loop().create_future()

    def swapped() -> None:
        if not shown.done():
            if say:
                print(say, flush=True)
            shown.set_result(None)

    window.root.frameSwapped.connect(swapped)
    try:
        await asyncio.wait_for(shown, timeout)
    except TimeoutError:
        pass  # a platform without frames (never seen): start anyway
    finally:
        window.root.frameSwapped.disconnect(swapped)


def no_display_reason() -> str | None:
    """On Linux without X11/Wayland and no QT_QPA_PLATFORM, Qt would abort: say what to do instead."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display found (DISPLAY and WAYLAND_DISPLAY are unset). Run ClawQt in a desktop session, "
        'or try it headless: `clawqt smoke "your prompt"`, or '
        "`QT_QPA_PLATFORM=offscreen clawqt self-test --screenshot shot.png`."
    )


def _quit_on_signals(loop: asyncio.AbstractEventLoop, closed: asyncio.Event) -> None:
    """SIGTERM/SIGINT (logout, `kill`, Ctrl+C) quit like closing the window, so the agent's process
    group and every terminal are killed: Python's default would die without running any clean-up. The
    signal wakes the loop through a socket (no polling timer: idle stays idle)."""
    if sys.platform == "win32":  # pragma: no cover
        return
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    signal.set_wakeup_fd(writer.fileno())
    received: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        received.append(signum)

    def on_wakeup() -> None:
        with contextlib.suppress(OSError):
            reader.recv(64)
        if received:
            closed.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    # `kill -USR1 <clawqt>` prints every thread's stack to stderr: what a hang is doing, without a debugger
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    loop.add_reader(reader.fileno(), on_wakeup)
    _KEEP_ALIVE.extend((reader, writer))


_KEEP_ALIVE: list[Any] = []


def end_process(code: int, recorder: TraceRecorder | None) -> NoReturn:
    """End the process here, without tearing down the window. Destroying a window under a threaded
    render loop (Qt's default on GPU desktops) waits for its render thread, and a render thread that
    took its stop request between two sleeps never answers: a quit or a logout would hang. Everything
    the user owns was saved or stopped before (chats, drafts, the agents' process groups, the work
    handed to threads); the trace and the log are flushed here, and what the interpreter's exit would
    have done for the agents (a group still alive killed) is done here."""
    from app.main.agents.process import kill_all_groups_now

    kill_all_groups_now()
    if recorder is not None:
        recorder.close()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or broken pipe: nothing more can be said
            stream.flush()
    os._exit(code)


def run_gui(args: argparse.Namespace) -> int:
    """The app: ends the process when the last window closes (or on SIGTERM/SIGINT); returns only the
    exit code of a start that could not begin."""
    reason = no_display_reason()
    if reason is not None:
        print(f"clawqt: {reason}", file=sys.stderr)
        return 2

    started = _start_qt(args, "error")
    if isinstance(started, int):
        return started
    app, prelude = started
    timing = bool(os.environ.get("CLAWQT_FIRST_FRAME_EXIT"))  # ui_startup: say each frame, then quit
    window = _open_window(prelude)
    startup_collection.mark("window")
    _wait_for_frame(window, say="frame" if timing else "")  # then asyncio, qasync, the main side load
    import asyncio

    loop = _event_loop(app)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    if not window.root.isVisible():  # closed while its first frame was drawn
        closed.set()
    _quit_on_signals(loop, closed)

    async def main() -> int:
        host = _build_host(prelude)
        startup_collection.mark("host")
        window.bind(host)
        startup_collection.mark("objects")
        window.load_chat()
        startup_collection.mark("chat")
        await _first_frame(window, say="ready" if timing else "")  # the chat drawn, then the agent starts
        if timing:
            return 0
        startup_collection.release()
        window.objects.start()
        await closed.wait()
        await window.objects.shutdown()  # the main side ends with it: the agents, the user's shells
        return 0

    with loop:  # closing it waits for the work handed to its threads (a save on its way)
        code = loop.run_until_complete(main())
    end_process(code, prelude.recorder)


def _last_reply(timeline: Any) -> str:
    """The text of the last assistant message segment of the shown timeline ("" when none)."""
    from app.renderer.timeline.turn_view import item_text

    if timeline is None:
        return ""
    messages = [i for i in timeline.items.values() if i.kind == "message" and i.role == "assistant"]
    return item_text(messages[-1]) if messages else ""


REPLY_DRAWN_WITHIN_S = 10.0


def run_self_test(args: argparse.Namespace) -> int:
    """Open the real window, send one prompt, wait for the turn, save a screenshot; the process ends
    with the result (returns only when it could not begin)."""

    os.environ.setdefault("CLAWQT_DEMO_DELAY_MS", "5")
    started = _start_qt(args, "self-test failed")
    if isinstance(started, int):
        return started
    app, prelude = started
    import asyncio

    loop = _event_loop(app)
    screenshot = args.screenshot or (paths.data_dir() / "self-test.png")

    async def main() -> int:
        from app.contract.envelopes import Envelope, PermissionRequestEnvelope
        from app.renderer.qt.common.notices import LOCAL
        from app.renderer.qt.common.screen_text import reply_shown, visible_texts
        from app.renderer.qt.main_window import Window

        host = _build_host(prelude)
        service = host.sessions
        started = time.monotonic()
        window = Window(host)
        objects = window.objects
        ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def turn_ended(reason: str) -> None:
            if not ended.done():
                ended.set_result(reason)

        objects.turn.turnEnded.connect(turn_ended)
        objects.start()
        try:
            while not objects.session.sessionKey:
                if objects.notices.notice and objects.notices.topic != LOCAL:  # those only warn (stderr)
                    raise RuntimeError(objects.notices.notice)
                if time.monotonic() - started > args.timeout:
                    raise TimeoutError("the agent did not open a session in time")
                await asyncio.sleep(0.05)

            # answer permission prompts like a user would, with the first option
            def allow_first(envelope: Envelope) -> None:
                if isinstance(envelope, PermissionRequestEnvelope):
                    first = envelope.options[0].get("optionId") if envelope.options else None
                    service.answer_permission(envelope.request_id, first)

            service.subscribe(allow_first)
            objects.turn.send(args.prompt)
            reason = await asyncio.wait_for(ended, args.timeout)
            if reason not in ("end_turn", "max_tokens", "max_turn_requests"):
                raise RuntimeError(f"the turn ended with {reason!r}: {objects.notices.notice}")
            objects.model.flush()
            # a long reply is revealed over several frames, and a loaded machine draws few of them
            shown, drawn_by = "", time.monotonic() + REPLY_DRAWN_WITHIN_S
            while not shown and time.monotonic() < drawn_by:
                await asyncio.sleep(0.1)
                shown = reply_shown(_last_reply(objects.session.timeline), visible_texts(window.root))
            if not shown:
                raise RuntimeError(
                    "the agent's reply is not on screen "
                    f"(the window drew no reply text within {REPLY_DRAWN_WITHIN_S:.0f} s of the turn's end)"
                )
            if not window.grab(Path(screenshot)):
                raise RuntimeError(f"could not save the screenshot to {screenshot}")
            rows = objects.model.rowCount()
            proposals = host.proposals
            print(
                f"self-test ok: {rows} rows, turn ended {reason}, screenshot {screenshot}, "
                f"{time.monotonic() - started:.1f} s\n"
                f'reply on screen: "{shown} …"\n'
                f"proposals: {proposals.executable if proposals.available else 'off: ' + proposals.problem}"
            )
            return 0
        except Exception as exc:  # the reason, not a traceback
            print(f"self-test failed: {exc}", file=sys.stderr)
            if getattr(exc, "details", ""):
                print(exc.details, file=sys.stderr)  # type: ignore[attr-defined]
            return 1
        finally:
            await objects.shutdown()

    with loop:
        code = loop.run_until_complete(main())
    end_process(code, prelude.recorder)

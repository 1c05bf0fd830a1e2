"""The window: Qt application, qasync loop, QML engine, the chat objects QML binds to. Also
`clawqt self-test`, which
opens the real window on an agent (the demo by default), sends one prompt, waits for the turn to end,
saves a screenshot and exits 0 (or non-zero with the reason)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any, NoReturn

from app import startup_collection
from app.contract.bundled import APP_ID, app_icon, resources_dir
from app.contract.envelopes import Envelope, PermissionRequestEnvelope
from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import AgentCommandError
from app.main.core import paths
from app.main.host.build import Launch, build_host
from app.main.host.make import Host


def qml_dir() -> Path:
    """resources/qml in a checkout, or inside a PyInstaller bundle."""
    return resources_dir() / "qml"


# The app's own Quick Controls style (resources/qml/style/ClawQt, built on Basic; the default would be
# each platform's native style, which Theme's tokens do not reach): buttons, combo boxes, menus and
# fields look like one app everywhere, drawn from Theme.qml.
CONTROLS_STYLE = "ClawQt"


def reduced_motion(saved: bool = False) -> bool:
    """CLAWQT_REDUCED_MOTION=1 (or 0) decides for this run; else the saved setting."""
    value = os.environ.get("CLAWQT_REDUCED_MOTION", "")
    return saved if value == "" else value != "0"


def color_scheme(saved: str = "system") -> str:
    """CLAWQT_COLOR_SCHEME=light|dark|system decides for this run; else the saved setting (default:
    the desktop's)."""
    return os.environ.get("CLAWQT_COLOR_SCHEME", "").strip().lower() or saved


class Window:
    """Owns the QML engine and the chat objects of one window, built on the host API it is given."""

    def __init__(self, host: Host) -> None:
        from PySide6.QtCore import QUrl
        from PySide6.QtQml import QQmlApplicationEngine
        from PySide6.QtQuick import QQuickWindow  # imported before load(): the root is one
        from PySide6.QtQuickControls2 import QQuickStyle

        if not os.environ.get("QT_QUICK_CONTROLS_STYLE"):  # a user's own choice of style still wins
            QQuickStyle.setStyle(CONTROLS_STYLE)

        from app.renderer.qt.common.feature_scan import answer_from_bytes

        answer_from_bytes()  # before the view's modules load: PySide reads each one as it is imported
        from app.renderer.qt.cards.attachments import IMAGE_PROVIDER
        from app.renderer.qt.common.icon_images import ICON_PROVIDER, IconImages
        from app.renderer.qt.common.image_provider import MemoryImages
        from app.renderer.qt.composer.attachments import THUMBNAIL_PROVIDER
        from app.renderer.qt.window import ChatObjects

        prefer_basic_render_loop(os.environ)
        self.host = host
        saved = host.settings.appearance()  # the environment's overrides win for this run
        self.engine = QQmlApplicationEngine()
        # parented to the engine: destroyed after the QML that binds to them, never before
        self.objects = ChatObjects(
            host,
            reduced_motion=reduced_motion(bool(saved.get("reducedMotion"))),
            color_scheme=color_scheme(str(saved.get("colorScheme") or "system")),
            font_scale=float(saved.get("fontScale") or 1.0),
            parent=self.engine,
            accent=str(saved.get("accent") or ""),
        )
        self.warnings: list[str] = []
        self.engine.warnings.connect(lambda errors: self.warnings.extend(e.toString() for e in errors))
        qml = qml_dir()  # each feature folder's qmldir names its types (common/qmldir the singletons)
        for name, qobject in self.objects.context().items():
            self.engine.rootContext().setContextProperty(name, qobject)
        self.engine.addImageProvider(IMAGE_PROVIDER, MemoryImages(self.objects.attachments.image))
        self.engine.addImageProvider(ICON_PROVIDER, IconImages())
        self.engine.addImageProvider(THUMBNAIL_PROVIDER, MemoryImages(self.objects.composer_files.thumbnail))
        self.engine.addImportPath(str(qml))
        self.engine.addImportPath(str(qml / "style"))  # where QQuickStyle finds CONTROLS_STYLE
        self.engine.load(QUrl.fromLocalFile(str(qml / "Main.qml")))
        roots = self.engine.rootObjects()
        if not roots:
            raise RuntimeError("the window could not be created:\n" + "\n".join(self.warnings))
        root = roots[0]
        if not isinstance(root, QQuickWindow):
            raise RuntimeError(f"Main.qml's root is not a window: {type(root).__name__}")
        self.root = root
        self.objects.view_memory.place(self.root)  # where the user left it, then shown
        self.root.frameSwapped.connect(self.objects.after_frame)
        self.root.afterAnimating.connect(self.objects.whole_text.before_sync)
        self.objects.attention.openRequested.connect(lambda _key: self.bring_up())

    def singleton(self, name: str) -> Any:
        """A QML singleton of the window (`theme`, `spinnerClock`), as Main.qml exposes it."""
        return self.root.property(name)

    def bring_up(self) -> None:
        """Show the window above the others with the keyboard (a clicked notification)."""
        if self.root.visibility() == self.root.Visibility.Minimized:
            self.root.showNormal()
        self.root.raise_()
        self.root.requestActivate()

    def grab(self, path: Path) -> bool:
        image = self.root.grabWindow()
        path.parent.mkdir(parents=True, exist_ok=True)
        return bool(image.save(str(path)))


def prefer_basic_render_loop(environ: MutableMapping[str, str]) -> None:
    """Render on the GUI thread (Qt's basic loop) unless the user chose a loop. The terminal screens are
    painted by Python: a threaded render loop (Qt's default on most GPU desktops) paints them on its
    render thread, which needs the interpreter lock while the GUI thread holds it waiting for that very
    thread to finish the frame, and the window freezes. Every window test runs the basic loop too."""
    environ.setdefault("QSG_RENDER_LOOP", "basic")


def _start_qt(args: argparse.Namespace, failure: str) -> tuple[Any, Host, TraceRecorder | None, Any] | int:
    """The Qt application, the host for the chosen agent and a qasync loop (or an exit code when the
    --agent flag is unusable; a bad config file only adds problems the window shows)."""
    import qasync

    from app.renderer.qt.common.feature_scan import answer_from_bytes

    answer_from_bytes()  # PySide is loaded now; every module imported from here is read cheaply
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("ClawQt")
    app.setOrganizationName("ClawQt")
    app.setDesktopFileName(APP_ID)  # Wayland and the taskbar match the window to its desktop entry
    app.setWindowIcon(QIcon(str(app_icon())))
    startup_collection.mark("qt")
    try:
        host, recorder = build_host(Launch.of(args))
    except AgentCommandError as exc:
        print(f"{failure}: {exc}", file=sys.stderr)
        return 2
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    return app, host, recorder, loop


async def _first_frame(window: Window, timeout: float = 5.0) -> None:
    shown = asyncio.get_running_loop().create_future()

    def swapped() -> None:
        if not shown.done():
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
    app, host, recorder, loop = started
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    _quit_on_signals(loop, closed)

    async def main() -> int:
        startup_collection.mark("host")
        window = Window(host)
        startup_collection.mark("window")
        if os.environ.get("CLAWQT_FIRST_FRAME_EXIT"):  # ui_startup benchmark: report the first frame

            def first_frame() -> None:
                print("frame", flush=True)
                app.quit()
                closed.set()

            window.root.frameSwapped.connect(first_frame)
        await _first_frame(window)  # the agent (and the SDK import) start once the window is up
        startup_collection.release()
        window.objects.start()
        await closed.wait()
        await window.objects.shutdown()  # the main side ends with it: the agents, the user's shells
        return 0

    with loop:  # closing it waits for the work handed to its threads (a save on its way)
        code = loop.run_until_complete(main())
    end_process(code, recorder)


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
    _app, host, recorder, loop = started
    service = host.sessions
    screenshot = args.screenshot or (paths.data_dir() / "self-test.png")

    async def main() -> int:
        from app.renderer.qt.common.notices import LOCAL
        from app.renderer.qt.common.screen_text import reply_shown, visible_texts

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
    end_process(code, recorder)

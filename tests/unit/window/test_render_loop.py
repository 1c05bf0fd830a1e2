"""The window renders on the GUI thread unless the user chose a render loop: the terminal screens are
painted by Python, and under a threaded render loop the window froze as soon as one was shown (the
render thread waited for the interpreter lock, held by the GUI thread waiting for the render thread:
tests/ui/terminals/test_access_window.py hangs with QSG_RENDER_LOOP=threaded)."""

from __future__ import annotations

from app.renderer.qt.main_window import prefer_basic_render_loop


def test_the_basic_render_loop_is_asked_for_when_the_user_chose_none():
    environ: dict[str, str] = {}
    prefer_basic_render_loop(environ)
    assert environ == {"QSG_RENDER_LOOP": "basic"}


def test_a_render_loop_the_user_chose_is_kept():
    environ = {"QSG_RENDER_LOOP": "threaded"}
    prefer_basic_render_loop(environ)
    assert environ == {"QSG_RENDER_LOOP": "threaded"}

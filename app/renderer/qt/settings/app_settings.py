"""`app`: the window-wide presentation settings in effect (colour scheme, accent, text size, reduced motion),
read by Theme.qml and every view that animates."""

from __future__ import annotations

from PySide6.QtCore import Property, QObject, Signal, Slot
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from app.contract.appearance import ACCENTS
from app.renderer.markdown.render import PROSE_STYLE
from app.renderer.qt.common.fonts import Faces, load_faces
from app.renderer.qt.common.properties import value_property

COLOR_SCHEMES = ("system", "light", "dark")
MIN_FONT_SCALE, MAX_FONT_SCALE = 0.75, 2.0
# the interface text size in pixels at a scale of 1 (Theme's `fontUi`): the same on every desktop, as
# the faces are, so a layout drawn for it holds everywhere; the text size setting scales it
UI_PIXEL_SIZE = 13


def ui_font_size(scale: float) -> int:
    return round(UI_PIXEL_SIZE * scale)


def _apply_font_scale(scale: float) -> None:
    """The application font (every text without a size of its own) at the interface size."""
    font = QGuiApplication.font()
    font.setPixelSize(ui_font_size(scale))
    QGuiApplication.setFont(font)


class AppSettings(QObject):
    """Window-wide presentation settings in effect: reduced motion, the colour scheme ("system" follows
    the desktop; "light" or "dark" force one, e.g. CLAWQT_COLOR_SCHEME=dark) and the text size (a scale
    of the interface size, `UI_PIXEL_SIZE`: the application font, which every text without a size of
    its own uses, and Theme's type scale for the rest), and whether the user is called while the
    window is away (`notify`), and the faces the app draws with. Changing them here lasts for this run;
    Settings also saves them."""

    changed = Signal()
    linkColourChanged = Signal()
    darkChanged = Signal()

    def __init__(
        self,
        reduced_motion: bool,
        color_scheme: str = "system",
        parent: QObject | None = None,
        font_scale: float = 1.0,
        notify: bool = True,
        accent: str = ACCENTS[0],
    ) -> None:
        super().__init__(parent)
        self._accent = accent if accent in ACCENTS else ACCENTS[0]
        self._faces: Faces = load_faces()  # before the font is sized: it sets the family
        self._reduced_motion = reduced_motion
        self._notify = notify
        self._color_scheme = color_scheme if color_scheme in COLOR_SCHEMES else "system"
        self._font_scale = 1.0
        self._dark = False  # what Theme decided (the scheme, or the desktop's when "system")
        self.setFontScale(font_scale)
        _apply_font_scale(self._font_scale)  # also at 1: a scale another window left is undone

    @Slot(str)
    def setColorScheme(self, scheme: str) -> None:
        if scheme in COLOR_SCHEMES and scheme != self._color_scheme:
            self._color_scheme = scheme
            self.changed.emit()

    @Slot(str)
    def setAccent(self, accent: str) -> None:
        if accent in ACCENTS and accent != self._accent:
            self._accent = accent
            self.changed.emit()

    @Slot(bool)
    def setReducedMotion(self, reduced: bool) -> None:
        if reduced != self._reduced_motion:
            self._reduced_motion = reduced
            self.changed.emit()

    @Slot(bool)
    def setNotify(self, notify: bool) -> None:
        if notify != self._notify:
            self._notify = notify
            self.changed.emit()

    @Slot(float)
    def setFontScale(self, scale: float) -> None:
        scale = min(max(float(scale), MIN_FONT_SCALE), MAX_FONT_SCALE)
        if abs(scale - self._font_scale) > 1e-6:
            self._font_scale = scale
            _apply_font_scale(scale)
            self.changed.emit()

    @Slot(bool)
    def setDark(self, dark: bool) -> None:
        """Theme tells whether the window is dark now (it alone knows the desktop's scheme under
        "system"): code blocks are highlighted for it."""
        if dark != self._dark:
            self._dark = dark
            self.darkChanged.emit()

    @Slot(QColor)
    def setLinkColour(self, colour: QColor) -> None:
        """Rich text draws links in the application palette's link colour (not the window's palette),
        taken when the text is parsed: the theme sets it here, and `linkColour` changes only after the
        palette did, so text that re-parses on it gets the new colour."""
        palette = QGuiApplication.palette()
        if palette.color(QPalette.ColorRole.Link) == colour:
            return
        palette.setColor(QPalette.ColorRole.Link, colour)
        palette.setColor(QPalette.ColorRole.LinkVisited, colour)
        QGuiApplication.setPalette(palette)
        self.linkColourChanged.emit()

    reducedMotion = Property(bool, lambda self: self._reduced_motion, notify=changed)
    dark = value_property(bool, lambda self: self._dark, notify=darkChanged)
    colorScheme = Property(str, lambda self: self._color_scheme, notify=changed)
    accent = Property(str, lambda self: self._accent, notify=changed)  # Theme draws it (Theme.accentName)
    fontScale = value_property(float, lambda self: self._font_scale, notify=changed)
    notify = value_property(bool, lambda self: self._notify, notify=changed)  # call the user while away
    uiFontSize = value_property(int, lambda self: ui_font_size(self._font_scale), notify=changed)
    sansFamily = Property(str, lambda self: self._faces.sans, constant=True)
    monoFamily = Property(str, lambda self: self._faces.mono, constant=True)
    proseStyle = Property(str, lambda self: PROSE_STYLE, constant=True)  # put before each prose text
    linkColour = Property(
        str,
        lambda self: QGuiApplication.palette().color(QPalette.ColorRole.Link).name(),
        notify=linkColourChanged,
    )

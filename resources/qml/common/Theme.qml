pragma Singleton
import QtQuick

// Colours and metrics; light/dark follows the system colour scheme unless the app forces one.
QtObject {
    readonly property bool dark: app.colorScheme === "dark"
                                 || (app.colorScheme !== "light" && Qt.styleHints.colorScheme === Qt.ColorScheme.Dark)
    readonly property color window: dark ? "#1e1f22" : "#f7f7f8"
    readonly property color surface: dark ? "#2b2d31" : "#ffffff"
    readonly property color sidebar: dark ? "#232428" : "#eeeff1"
    readonly property color text: dark ? "#e6e6e6" : "#1d1d1f"
    readonly property color muted: dark ? "#9a9ca3" : "#6b6f76"
    readonly property color error: dark ? "#ff7b72" : "#cf222e"
    readonly property color border: dark ? "#3a3c42" : "#dcdde0"
    readonly property color accent: dark ? "#7aa2ff" : "#3b63d6"
    readonly property color userBubble: dark ? "#2f3b57" : "#e3eaff"
    readonly property color attention: dark ? "#3a3322" : "#fff6e0"  // a card waiting for the user
    readonly property color hover: dark ? "#2e3036" : "#e6e7ea"  // a row under the pointer
    readonly property color selection: dark ? "#34405c" : "#dde6ff"  // a chosen row: text keeps its colours
    readonly property color searchMatch: dark ? "#6b5a1e" : "#fff0a8"  // a match of the find bar's query
    readonly property color searchCurrent: dark ? "#c98a12" : "#ffb938"  // the match the find bar is on
    readonly property color searchText: dark ? "#ffffff" : "#1d1d1f"  // text on either
    readonly property color codeBackground: dark ? "#272822" : "#f5f5f5"
    readonly property color terminalBackground: "#16181d"
    readonly property color terminalText: "#d7dae0"
    readonly property color textOnAccent: "#ffffff"  // text on an accent, avatar or status colour
    // behind white text (a highlighted menu item, a selection): the dark accent is too light for it
    readonly property color highlight: dark ? "#4464b0" : "#3b63d6"
    readonly property color textOnWarning: dark ? "#1e1f22" : "#ffffff"  // text on a warning pill
    readonly property color scrim: dark ? "#80000000" : "#40000000"  // behind a modal popup
    readonly property color lightboxScrim: "#e6000000"  // behind an image shown large
    readonly property color dangerSurface: dark ? "#3b2224" : "#fdecea"  // a banner that something broke
    readonly property color noticeSurface: dark ? "#3a3220" : "#fff4e0"  // a notice asking for a look
    readonly property color successSurface: dark ? "#1f3326" : "#e6f5e9"  // something on, shared, live
    readonly property color dropTarget: dark ? "#243042" : "#e8f0fe"  // a place files may be dropped
    readonly property color chip: dark ? "#2b2d31" : "#eef0f3"  // an attachment or a tab at rest
    readonly property color chipHover: dark ? "#2f3136" : "#e4e5e8"
    readonly property color codeHeader: dark ? "#30312c" : "#ebebeb"
    // the Qt Quick Controls palette the window hands every control
    readonly property color control: dark ? "#35373c" : "#f0f1f3"
    readonly property color controlLight: dark ? "#3f4147" : "#ffffff"
    readonly property color controlDark: dark ? "#141517" : "#c4c6cb"
    readonly property color disabledText: dark ? "#6d7078" : "#a0a3a9"
    // a terminal is dark in both themes: its own muted, button and status colours
    readonly property color terminalMuted: "#8b949e"
    readonly property color terminalButton: "#c9d1d9"
    readonly property color terminalSuccess: "#56d364"
    readonly property color terminalFailure: "#ff7b72"
    readonly property color terminalSelection: dark ? "#80415a8c" : "#8c3b63d6"
    readonly property color danger: dark ? "#ff7b72" : "#c62828"
    readonly property color success: dark ? "#56d364" : "#2e7d32"
    readonly property color warning: dark ? "#e3b341" : "#a86b00"
    // the type scale: every explicit text size, times the text size of Settings (app.fontScale);
    // texts without a size use the application font, which the same setting scales
    readonly property real fontScale: app.fontScale
    readonly property int fontMicro: Math.round(9 * fontScale)  // initials in a small avatar
    readonly property int fontTiny: Math.round(11 * fontScale)
    readonly property int fontSmall: Math.round(12 * fontScale)
    readonly property int fontBody: Math.round(13 * fontScale)
    readonly property int fontMedium: Math.round(14 * fontScale)
    readonly property int fontTitle: Math.round(16 * fontScale)
    readonly property int fontLarge: Math.round(18 * fontScale)
    readonly property int fontHuge: Math.round(24 * fontScale)
    // an agent's avatar colour by app/renderer/present/agent_avatar.py's index: mid tones that read on light and
    // dark windows, each with white initials at a contrast of at least 4.5
    readonly property var avatarColours: ["#3b63d6", "#2e7d32", "#b3541e", "#7b3fa0", "#9a6b00", "#117a87",
                                          "#b3261e", "#4f5b66"]
    function avatarColour(index) { return avatarColours[index % avatarColours.length] }
    // the spacing scale: every gap, margin and padding is one of these, grown with the text size so a
    // larger text keeps its proportions
    readonly property int spaceHair: Math.round(2 * fontScale)  // between lines of one row
    readonly property int spaceTight: Math.round(4 * fontScale)  // an icon and its word, a pill's inside
    readonly property int spaceSmall: Math.round(6 * fontScale)
    readonly property int gap: Math.round(8 * fontScale)  // between siblings
    readonly property int pad: Math.round(12 * fontScale)  // inside a card
    readonly property int spaceLarge: Math.round(16 * fontScale)
    readonly property int spaceHuge: Math.round(24 * fontScale)  // around a dialog
    readonly property int gutter: 44  // where a turn's cards start: the avatar column and a gap
    // corner radii: small for chips and highlights, the default for cards, large for sheets
    readonly property int radiusSmall: 4
    readonly property int radius: 8
    readonly property int radiusLarge: 12
    // icon sizes: beside a small label, the default, and a button's only content
    readonly property int iconSmall: fontSmall
    readonly property int iconSize: Math.round(15 * fontScale)
    readonly property int iconLarge: Math.round(17 * fontScale)
    // the longest line prose runs to (about 90 characters of the body font): wider windows leave margin
    readonly property int proseWidth: Math.round(760 * fontScale)
    readonly property int filterWidth: Math.round(200 * fontScale)  // a filter field that stays readable
    // a spinner's steps a second (Spinner.qml): each is one frame, so few; enough to read as turning
    readonly property int spinnerSteps: 8
    // elevation: how far a surface stands above the window (Elevated.qml draws it); 1 cards, 2 popups
    readonly property int shadowStep: 1  // how far each level's shadow reaches below its surface
    readonly property color shadow: dark ? "#73000000" : "#26000000"
    readonly property color raised: dark ? "#313338" : "#ffffff"  // a popup's surface
    readonly property string mono: "DejaVu Sans Mono"

    function statusIcon(status) {
        if (status === "completed") return "pass"
        if (status === "failed") return "error"
        if (status === "cancelled") return "circle-slash"
        if (status === "running" || status === "in_progress") return "sync"
        return "clock"  // pending: not started yet
    }

    function statusColor(status) {
        if (status === "completed") return success
        if (status === "failed") return danger
        if (status === "cancelled") return muted
        return warning
    }
}

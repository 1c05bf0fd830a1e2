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
    readonly property color codeBackground: dark ? "#272822" : "#f5f5f5"
    readonly property color terminalBackground: "#16181d"
    readonly property color terminalText: "#d7dae0"
    readonly property color danger: dark ? "#ff7b72" : "#c62828"
    readonly property color success: dark ? "#56d364" : "#2e7d32"
    readonly property color warning: dark ? "#e3b341" : "#a86b00"
    // the type scale: every explicit text size, times the text size of Settings (app.fontScale);
    // texts without a size use the application font, which the same setting scales
    readonly property real fontScale: app.fontScale
    readonly property int fontTiny: Math.round(11 * fontScale)
    readonly property int fontSmall: Math.round(12 * fontScale)
    readonly property int fontBody: Math.round(13 * fontScale)
    readonly property int fontMedium: Math.round(14 * fontScale)
    readonly property int fontTitle: Math.round(16 * fontScale)
    readonly property int fontLarge: Math.round(18 * fontScale)
    readonly property int fontHuge: Math.round(24 * fontScale)
    // an agent's avatar colour by app/renderer/agent_avatar.py's index: mid tones that read on light and
    // dark windows, each with white initials at a contrast of at least 4.5
    readonly property var avatarColours: ["#3b63d6", "#2e7d32", "#b3541e", "#7b3fa0", "#9a6b00", "#117a87",
                                          "#b3261e", "#4f5b66"]
    function avatarColour(index) { return avatarColours[index % avatarColours.length] }
    readonly property int radius: 8
    readonly property int gap: 8
    readonly property int pad: 12
    readonly property string mono: "DejaVu Sans Mono"

    function statusColor(status) {
        if (status === "completed") return success
        if (status === "failed") return danger
        if (status === "cancelled") return muted
        return warning
    }
}

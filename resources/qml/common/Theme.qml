pragma Singleton
import QtQuick

// Colours and metrics; light/dark follows the system colour scheme unless the app forces one.
QtObject {
    readonly property bool dark: app.colorScheme === "dark"
                                 || (app.colorScheme !== "light" && Qt.styleHints.colorScheme === Qt.ColorScheme.Dark)
    // colour: cool neutral greys, a white canvas in light; colour means state (amber: the user is
    // needed; blue: an action or the keyboard's focus; green and red: how something ended).
    // tests/unit/architecture/test_contrast.py holds every text pair to WCAG's 4.5:1 in both schemes.
    readonly property color canvas: dark ? "#1b1b1f" : "#ffffff"  // the conversation
    readonly property color sidebar: dark ? "#151518" : "#f7f7f8"  // the sidebar, a panel's tab strip
    readonly property color surface: dark ? "#232327" : "#ffffff"  // cards, the composer, inputs
    readonly property color sunken: dark ? "#141417" : "#f4f4f5"  // code, output wells, chips
    readonly property color raised: dark ? "#26262b" : "#ffffff"  // menus, popups, dialogs
    readonly property color cardHeader: dark ? "#26262b" : "#fafafa"  // a card's header strip
    readonly property color bubble: dark ? "#2a2a30" : "#f1f1f3"  // the user's message
    readonly property color hover: dark ? "#12ffffff" : "#0d000000"  // a row or ghost button under the pointer
    readonly property color selected: dark ? "#1affffff" : "#12000000"  // the current row, pressed, toggled
    readonly property color border: dark ? "#2e2e34" : "#e4e4e7"  // cards and dividers
    readonly property color borderStrong: dark ? "#3f3f46" : "#d4d4d8"  // inputs, buttons, the composer
    readonly property color text: dark ? "#ececef" : "#18181b"
    readonly property color text2: dark ? "#b4b4bc" : "#52525b"  // secondary labels, tool verbs
    readonly property color muted: dark ? "#a8a8b2" : "#5c5c66"  // metadata, placeholders, captions
    readonly property color disabled: dark ? "#8a8a93" : "#8c8c95"  // disabled text and icons
    // the accent the user picked (Settings; app/contract/appearance.py names them): primary buttons,
    // focus, selection (`accent`, white text on it), under the pointer (`accentHover`), links and accent
    // words on the canvas (`accentText`), a recommended choice or a drop target (`accentSubtle`)
    readonly property string accentName: app.accent
    readonly property color accent: ({ violet: accentViolet, green: accentGreen, orange: accentOrange,
                                       pink: accentPink })[accentName] || accentBlue
    readonly property color accentHover: ({ violet: accentHoverViolet, green: accentHoverGreen,
                                            orange: accentHoverOrange, pink: accentHoverPink })[accentName]
                                         || accentHoverBlue
    readonly property color accentText: ({ violet: accentTextViolet, green: accentTextGreen,
                                           orange: accentTextOrange, pink: accentTextPink })[accentName]
                                        || accentTextBlue
    readonly property color accentSubtle: ({ violet: accentSubtleViolet, green: accentSubtleGreen,
                                             orange: accentSubtleOrange, pink: accentSubtlePink })[accentName]
                                          || accentSubtleBlue
    readonly property color accentBlue: dark ? "#2f6fe4" : "#2563eb"
    readonly property color accentHoverBlue: dark ? "#2563d9" : "#1d4ed8"
    readonly property color accentTextBlue: dark ? "#7eb0ff" : "#1d4ed8"
    readonly property color accentSubtleBlue: dark ? "#1a2540" : "#eef3ff"
    readonly property color accentViolet: dark ? "#8250df" : "#7c3aed"
    readonly property color accentHoverViolet: dark ? "#7c3aed" : "#6d28d9"
    readonly property color accentTextViolet: dark ? "#c4b5fd" : "#6d28d9"
    readonly property color accentSubtleViolet: dark ? "#251c3f" : "#f3efff"
    readonly property color accentGreen: dark ? "#16813f" : "#15803d"
    readonly property color accentHoverGreen: dark ? "#15803d" : "#166534"
    readonly property color accentTextGreen: dark ? "#6ee7a0" : "#166534"
    readonly property color accentSubtleGreen: dark ? "#13291c" : "#ecfdf3"
    readonly property color accentOrange: dark ? "#c4470f" : "#c2410c"
    readonly property color accentHoverOrange: dark ? "#c2410c" : "#9a3412"
    readonly property color accentTextOrange: dark ? "#fdba74" : "#9a3412"
    readonly property color accentSubtleOrange: dark ? "#2e1c12" : "#fff4ed"
    readonly property color accentPink: dark ? "#cc3377" : "#be185d"
    readonly property color accentHoverPink: dark ? "#be185d" : "#9d174d"
    readonly property color accentTextPink: dark ? "#f9a8d4" : "#9d174d"
    readonly property color accentSubtlePink: dark ? "#2c1522" : "#fdf0f6"
    readonly property color textOnAccent: "#ffffff"  // text on an accent, avatar or status colour
    readonly property color success: dark ? "#4ade80" : "#15803d"
    readonly property color successSubtle: dark ? "#15291d" : "#eef8f1"  // something on, shared, live
    readonly property color warning: dark ? "#f5b53f" : "#b45309"  // the user is needed
    readonly property color warningSubtle: dark ? "#2e2716" : "#fff8eb"
    readonly property color warningBorder: dark ? "#6b5220" : "#f5cf86"
    readonly property color textOnWarning: dark ? "#1b1b1f" : "#ffffff"  // text on a warning pill
    readonly property color danger: dark ? "#f87171" : "#b91c1c"  // failures, destructive actions
    readonly property color dangerSubtle: dark ? "#33191b" : "#fef2f2"
    readonly property color dangerBorder: dark ? "#6b2a2c" : "#f7c6c6"
    readonly property color searchMatch: dark ? "#6b5a1e" : "#fff0a8"  // a match of the find bar's query
    readonly property color searchCurrent: dark ? "#8f5b00" : "#ffb938"  // the match the find bar is on
    readonly property color searchText: dark ? "#ffffff" : "#18181b"  // text on either
    readonly property color tooltip: dark ? "#3f3f46" : "#18181b"
    readonly property color tooltipText: "#ffffff"
    readonly property color scrim: dark ? "#99000000" : "#4d000000"  // behind a modal popup
    readonly property color lightboxScrim: "#e6000000"  // behind an image shown large
    // a terminal takes the theme (look.md §3.7 E): a light well in light, the dark screen in dark; its
    // ANSI colours follow (TerminalScreen.darkPalette: app/renderer/terminal/runs.py's two palettes)
    readonly property color terminalBackground: dark ? "#16181d" : "#f6f8fa"
    readonly property color terminalText: dark ? "#d7dae0" : "#1f2328"
    // the Qt Quick Controls palette the window hands every control
    readonly property color control: dark ? "#2a2a2f" : "#ffffff"
    readonly property color controlLight: dark ? "#3f3f46" : "#ffffff"
    readonly property color controlDark: dark ? "#0f0f12" : "#d4d4d8"
    // a terminal's own muted, button and status colours, on its background
    readonly property color terminalMuted: dark ? "#8b949e" : "#57606a"
    readonly property color terminalButton: dark ? "#c9d1d9" : "#24292f"
    readonly property color terminalSuccess: dark ? "#56d364" : "#1a7f37"
    readonly property color terminalFailure: dark ? "#ff7b72" : "#cf222e"
    readonly property color terminalSelection: dark ? "#80415a8c" : "#8c3b63d6"
    // the type scale: every text size, times the text size of Settings (app.fontScale); each role has
    // a fixed line height so rows fall on the 4 px grid. Texts without a size use the application font
    // (fontUi), which the same setting scales. Weights: 400, 500 for controls, 600 for titles.
    readonly property real fontScale: app.fontScale
    readonly property string sans: app.sansFamily  // Inter, shipped (app/renderer/qt/common/fonts.py)
    readonly property string mono: app.monoFamily  // JetBrains Mono, shipped
    readonly property var codeFeatures: ({"liga": 0, "calt": 0})  // `->` stays two characters in code
    readonly property int fontMicro: Math.round(9 * fontScale)  // initials in a small avatar
    readonly property int fontCaption: Math.round(11 * fontScale)  // group labels, pills, key hints
    readonly property int fontSmall: Math.round(12 * fontScale)  // metadata, tool subjects, terminals
    readonly property int fontUi: app.uiFontSize  // buttons, menus, rows, dialogs (13)
    readonly property int fontBody: Math.round(14 * fontScale)  // prose, the user's message, the composer
    readonly property int fontTitle: Math.round(16 * fontScale)  // dialog titles, a card's question
    readonly property int fontH1: Math.round(20 * fontScale)
    readonly property int fontDisplay: Math.round(28 * fontScale)  // an empty chat's greeting
    readonly property int lineBody: Math.round(22 * fontScale)  // prose's line height
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
    readonly property int spaceField: Math.round(10 * fontScale)  // inside a field, before its text
    // corner radii: small for chips and highlights, the default for cards, large for sheets
    readonly property int radiusSmall: 4  // inline code, a folder chip, a key
    readonly property int radiusControl: 6  // buttons, inputs, menu items, list rows
    readonly property int radius: 8  // code blocks, output wells, the send button
    readonly property int radiusLarge: 12  // cards, callouts
    readonly property int radiusXl: 16  // the composer, dialogs, the user's message
    // controls (resources/qml/style/ClawQt): heights, the keyboard's focus ring, the parts of a switch
    readonly property int controlHeight: Math.round(32 * fontScale)  // buttons, fields, list rows
    readonly property int controlSmall: Math.round(28 * fontScale)  // in cards, bars and menus
    readonly property int focusRing: 2
    readonly property int focusOffset: 2  // the gap between a control and its ring
    readonly property int focusHalo: 3  // the soft ring of a focused field
    readonly property int checkSize: Math.round(16 * fontScale)
    readonly property int switchWidth: Math.round(32 * fontScale)
    readonly property int switchHeight: Math.round(18 * fontScale)
    readonly property int switchKnob: Math.round(14 * fontScale)
    readonly property int scrollBar: 6
    readonly property int scrollBarWide: 10
    readonly property int splitGrab: 6  // the invisible width a split handle can be dragged by
    readonly property int progressHeight: 4
    readonly property int menuWidth: Math.round(200 * fontScale)
    readonly property int tooltipDelay: 500
    // motion: colour and hover changes, and opening or closing; none at all with reduced motion
    readonly property int motionFast: app.reducedMotion ? 0 : 120
    readonly property int motionMedium: app.reducedMotion ? 0 : 180
    // icon sizes (Lucide's 24 px grid drawn at): beside a label, inside small controls and pills, a
    // picker's chevron, an empty state's or a sign-in's tile
    readonly property int iconSize: Math.round(16 * fontScale)
    readonly property int iconMedium: Math.round(14 * fontScale)
    readonly property int iconSmall: Math.round(12 * fontScale)
    readonly property int iconLarge: Math.round(20 * fontScale)
    // the reading column: every row of the conversation (the user's message, prose, every card, the
    // footer) lies in one centred column at most this wide (about 90 characters of the body font),
    // with at least spaceHuge beside it; wider content scrolls inside its card
    readonly property int proseWidth: Math.round(760 * fontScale)
    function columnWidth(listWidth) { return Math.max(0, Math.min(proseWidth, listWidth - 2 * spaceHuge)) }
    function columnX(listWidth) { return Math.max(spaceHuge, Math.round((listWidth - columnWidth(listWidth)) / 2)) }
    readonly property int avatarSmall: Math.round(20 * fontScale)  // a turn's agent mark
    readonly property int avatarLarge: Math.round(44 * fontScale)  // an empty chat's agent mark
    readonly property int filterWidth: Math.round(200 * fontScale)  // a filter field that stays readable
    readonly property int settingsWidth: Math.round(760 * fontScale)  // the Settings sheet
    readonly property int settingsNavWidth: Math.round(150 * fontScale)  // its list of sections
    readonly property int narrowHeader: Math.round(860 * fontScale)  // under it the header shows icons only
    readonly property int sidebarFoldWidth: 900  // a window narrower than this folds its chats away
    // a spinner's steps a second (Spinner.qml): each is one frame, so few; enough to read as turning
    readonly property int spinnerSteps: 8
    // elevation: how far a surface stands above the window (Shadow.qml draws it); 1 cards, 2 popups
    readonly property int shadowStep: 1  // how far each level's shadow reaches below its surface
    readonly property color shadow: dark ? "#73000000" : "#1f000000"

    function statusIcon(status) {
        if (status === "completed") return "circle-check"
        if (status === "failed") return "circle-x"
        if (status === "cancelled") return "circle-slash"
        if (status === "running" || status === "in_progress") return "refresh-cw"
        return "clock"  // pending: not started yet
    }

    function statusColor(status) {
        if (status === "completed") return success
        if (status === "failed") return danger
        if (status === "cancelled") return muted
        return warning
    }
}

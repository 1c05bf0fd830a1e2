import QtQuick
import QtQuick.Controls
import "common"

// The window. Made before the main side is imported (gui.py): its first frame is the StartFrame (window/), the
// shape of the window to come in the user's theme; the chat itself (ChatWindow.qml) is loaded into it
// once Python has bound the chat objects (`chatReady`), and keeps what was typed meanwhile.

ApplicationWindow {
    id: window
    objectName: "mainWindow"
    width: 1180
    height: 780
    visible: false  // shown by Python where the user left it (view_memory.py)
    title: chat.item ? "ClawQt \u2014 " + chat.item.chatTitle : "ClawQt"
    color: Theme.canvas
    // the controls take the theme's colours too (a forced dark scheme must not leave light buttons)
    palette.window: Theme.canvas
    palette.windowText: Theme.text
    palette.base: Theme.surface
    palette.alternateBase: Theme.sidebar
    palette.text: Theme.text
    palette.button: Theme.control
    palette.buttonText: Theme.text
    palette.placeholderText: Theme.muted
    palette.highlight: Theme.accent  // behind white text: a selection
    palette.highlightedText: Theme.textOnAccent
    palette.link: Theme.accentText
    palette.linkVisited: Theme.accentText
    readonly property color linkColour: Theme.accentText  // words on the canvas: the accent made readable on it
    onLinkColourChanged: app.setLinkColour(linkColour)
    readonly property bool darkTheme: Theme.dark
    // the window's singletons (common/qmldir), as Python reaches them (`Window.singleton`)
    readonly property QtObject theme: Theme
    readonly property QtObject spinnerClock: SpinnerClock
    onDarkThemeChanged: app.setDark(darkTheme)  // code blocks are highlighted for the theme
    palette.mid: Theme.border
    palette.light: Theme.controlLight
    palette.dark: Theme.controlDark
    palette.disabled.buttonText: Theme.disabled
    palette.disabled.text: Theme.disabled
    palette.disabled.windowText: Theme.disabled

    property bool chatReady: false  // set by Python once the chat objects are bound (gui.py: Window.attach)
    property bool chatOpens: false  // set by Python before the first frame: a chat will be reopened
    readonly property Item chatWindow: chat.item  // the chat, as Python and tests reach it

    Loader {
        id: chat
        objectName: "chatLoader"
        anchors.fill: parent
        active: window.chatReady
        source: active ? "window/ChatWindow.qml" : ""
        onLoaded: {
            const typed = start.item ? start.item.typed : ""
            if (typed.length > 0) item.takeEarlyText(typed)
            start.active = false  // its work is done: nothing of it stays in the window
        }
    }
    Loader {
        id: start
        objectName: "startFrameLoader"
        anchors.fill: parent
        focus: true  // its composer takes the keys typed before the chat is there
        source: "window/StartFrame.qml"
    }
    Binding { target: start.item; property: "chatOpens"; value: window.chatOpens; when: start.item !== null }

    Component.onCompleted: {
        app.setLinkColour(linkColour)
        app.setDark(darkTheme)
    }
}

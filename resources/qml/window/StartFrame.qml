import QtQuick
import "../common"

// The window's first frame, drawn before the main side is imported (gui.py): where the chats, the
// header and the composer will be, in the theme's colours, while the agents' modules load. Its composer
// already takes typing; what was typed is handed to the real one (ChatWindow.takeEarlyText). Nothing
// here binds to a chat object: only the theme (and through it the `app` settings) exists yet.
Rectangle {
    id: root
    objectName: "startFrame"
    property bool chatOpens: false  // a chat is reopened: its composer sits at the bottom, not mid-height
    property alias typed: early.text
    readonly property bool sidebarFolded: width < Theme.sidebarFoldWidth
    color: Theme.canvas
    Accessible.role: Accessible.Pane
    Accessible.name: "ClawQt is starting"

    Rectangle {  // the header's hairline
        id: header
        width: parent.width
        height: Theme.controlHeight + Theme.gap
        color: Theme.canvas
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border }
    }
    Rectangle {  // the chats
        id: sidebar
        visible: !root.sidebarFolded
        y: header.height
        width: visible ? 240 : 0
        height: parent.height - header.height
        color: Theme.sidebar
        Rectangle { anchors.right: parent.right; width: 1; height: parent.height; color: Theme.border }
    }
    Item {  // the conversation's column
        id: chat
        x: sidebar.width
        y: header.height
        width: parent.width - sidebar.width
        height: parent.height - header.height
        Rectangle {
            id: card
            objectName: "startComposer"
            readonly property real cardHeight: 3 * Theme.controlHeight
            x: Theme.columnX(chat.width)
            y: root.chatOpens ? chat.height - cardHeight - Theme.spaceLarge
                              : Math.round((chat.height - cardHeight) / 2)
            width: Theme.columnWidth(chat.width)
            height: cardHeight
            radius: Theme.radiusXl
            color: Theme.surface
            border.width: 1
            border.color: early.activeFocus ? Theme.accent : Theme.borderStrong
            TextEdit {
                id: early
                objectName: "startComposerInput"
                x: Theme.spaceLarge; y: Theme.spaceLarge
                width: card.width - 2 * Theme.spaceLarge
                height: card.height - 2 * Theme.spaceLarge
                focus: true
                wrapMode: TextEdit.Wrap
                textFormat: TextEdit.PlainText
                font.family: Theme.sans
                font.pixelSize: Theme.fontBody
                color: Theme.text
                Accessible.name: "Message"
                // Enter sends in the chat's composer: here nothing can be sent yet, so the text waits
                // (a new line only with Shift, as there)
                Keys.onReturnPressed: (event) => { event.accepted = !(event.modifiers & Qt.ShiftModifier) }
                Keys.onEnterPressed: (event) => { event.accepted = !(event.modifiers & Qt.ShiftModifier) }
                Text {
                    textFormat: Text.PlainText
                    visible: early.length === 0
                    text: "Message the agent (Enter to send, Shift+Enter for a new line)"
                    font: early.font
                    color: Theme.muted
                    elide: Text.ElideRight
                    width: parent.width
                }
            }
        }
    }
}

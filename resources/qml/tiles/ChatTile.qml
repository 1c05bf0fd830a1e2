import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../composer"
import "../conversation"

// A chat beside the main one (tiles/tiles.py): its own title bar, conversation and composer. Made in a
// context of its own, where `session`, `timeline`, `turn`, `sessionHeader`, `notices` and the rest are
// this tile's pane's objects and `tilePane` the pane itself; the window-wide names are the window's.
Rectangle {
    id: tile
    objectName: "chatTile"
    Layout.fillWidth: true
    Layout.fillHeight: true
    Layout.preferredWidth: 100  // as the main chat's: the row shares its width out evenly
    Layout.minimumWidth: 300
    color: Theme.canvas
    readonly property bool focusedTile: tiles.focusedPane === tilePane
    readonly property string agentName: tiles.agentName(session.sessionKey)
    Accessible.role: Accessible.Pane
    Accessible.name: "Chat beside: " + (sessionHeader.title || "New chat") + (agentName ? ", with " + agentName : "")

    function focusComposer() { composerView.input.forceActiveFocus() }

    Rectangle { width: 1; color: Theme.border; anchors { left: parent.left; top: parent.top; bottom: parent.bottom } }
    ColumnLayout {
        anchors.fill: parent
        anchors.leftMargin: 1
        spacing: 0
        RowLayout {
            objectName: "tileHeader"
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            Layout.rightMargin: Theme.spaceSmall
            Layout.preferredHeight: 40
            spacing: Theme.gap
            Spinner { visible: session.busy; size: Theme.iconSmall; Accessible.ignored: true }
            Label {
                objectName: "tileTitle"
                textFormat: Text.PlainText
                text: sessionHeader.title || (session.opening ? session.opening : "New chat")
                color: Theme.text
                font.pixelSize: Theme.fontBody; font.weight: Font.DemiBold
                elide: Text.ElideRight
                Layout.fillWidth: true
                Layout.minimumWidth: 0
            }
            Label {
                objectName: "tileAgent"
                textFormat: Text.PlainText
                text: tile.agentName
                color: Theme.text2
                font.pixelSize: Theme.fontSmall
                elide: Text.ElideRight
                Layout.maximumWidth: implicitWidth
                Layout.minimumWidth: 0
            }
            ToolButton {
                id: closeTile
                objectName: "tileClose"
                contentItem: Icon { icon: "x"; color: Theme.text2 }
                onClicked: tiles.close(tilePane)
                Accessible.name: "Close this tile"
                ToolTip.visible: hovered
                ToolTip.text: "Close the tile (Ctrl+Alt+W); the chat stays in the list"
            }
        }
        Rectangle { Layout.fillWidth: true; implicitHeight: 1; color: Theme.border }
        Rectangle {  // what went wrong in this chat (the window's own notices are the window's)
            objectName: "tileNotice"
            visible: notices.notice.length > 0
            Layout.fillWidth: true
            implicitHeight: tileNoticeText.implicitHeight + Theme.pad
            color: Theme.warningSubtle
            Label {
                id: tileNoticeText
                x: Theme.pad; y: Theme.spaceSmall
                width: parent.width - 2 * Theme.pad
                textFormat: Text.PlainText
                text: notices.notice
                wrapMode: Text.Wrap
                color: Theme.text
            }
        }
        Loader {  // a turn's review (a footer's Review in this tile), over the tile's conversation
            objectName: "tileReviewLoader"
            active: review.isOpen
            visible: active
            Layout.fillWidth: true
            Layout.fillHeight: true
            source: active ? "../review/ReviewPane.qml" : ""
        }
        Conversation {
            id: conversationView
            objects: rowObjects
            visible: !review.isOpen
            Layout.fillWidth: true
            Layout.fillHeight: true
            onFindClosed: tile.focusComposer()
            onSuggested: (text) => { composerView.input.text = text
                                     composerView.input.cursorPosition = text.length
                                     tile.focusComposer() }
        }
        QueuePanel { Layout.fillWidth: true; visible: queue.count > 0 && !session.readOnly }
        Composer { id: composerView; Layout.fillWidth: true; enabled: !session.readOnly }
    }
    Rectangle {  // which chat the keyboard is in, while more than one is on screen
        objectName: "tileFocusRing"
        anchors.fill: parent
        color: "transparent"
        border.width: 2
        border.color: Theme.accent
        visible: tile.focusedTile
    }
    Connections {
        target: tiles
        function onFocusChanged() { if (tile.focusedTile && tile.visible) tile.focusComposer() }
    }
    Connections {
        target: composerView.input
        function onActiveFocusChanged() { if (composerView.input.activeFocus) tiles.setFocusedPane(tilePane) }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

ApplicationWindow {
    id: window
    objectName: "mainWindow"
    width: 1180
    height: 780
    visible: true
    title: "ClawQt \u2014 " + sessionHeader.title
    color: Theme.window

    header: HeaderBar {
        id: headerBar
        directoryOpen: conversationView.directoryOpen
        onToggleDirectory: conversationView.directoryOpen = !conversationView.directoryOpen
    }

    SplitView {
        anchors.fill: parent
        Sidebar { SplitView.preferredWidth: 240; SplitView.minimumWidth: 160 }
        ColumnLayout {
            spacing: 0
            SplitView.fillWidth: true
            SplitView.minimumWidth: 360
            Banner { Layout.fillWidth: true }
            Conversation { id: conversationView; Layout.fillWidth: true; Layout.fillHeight: true }
            Rectangle {
                objectName: "noticeBar"
                visible: notices.notice.length > 0
                Layout.fillWidth: true
                implicitHeight: noticeRow.implicitHeight + 12
                color: Theme.dark ? "#3a3220" : "#fff4e0"
                RowLayout {
                    id: noticeRow
                    x: Theme.pad; y: 6
                    width: parent.width - 2 * Theme.pad
                    Label { text: notices.notice; wrapMode: Text.Wrap; Layout.fillWidth: true; color: Theme.text }
                    Button { objectName: "retryButton"; visible: notices.canRetry; text: "Retry"
                             onClicked: notices.retry() }
                }
            }
            Composer { id: composerView; Layout.fillWidth: true }
        }
        PreviewPanel { SplitView.preferredWidth: 400; SplitView.minimumWidth: 240 }
    }

    Popup {  // the lightbox: an inline image or thumbnail shown large; Esc or a click closes it
        id: lightbox
        objectName: "lightbox"
        parent: Overlay.overlay
        anchors.centerIn: parent
        width: window.width * 0.9; height: window.height * 0.9
        modal: true
        focus: true
        visible: attachments.lightbox !== ""
        onClosed: attachments.closeLightbox()
        background: Rectangle { color: "#e6000000"; radius: 6 }
        Image {
            objectName: "lightboxImage"
            anchors.fill: parent
            source: attachments.lightbox
            fillMode: Image.PreserveAspectFit
            TapHandler { onTapped: lightbox.close() }
        }
    }

    Shortcut { sequences: [StandardKey.New]; onActivated: session.newChat() }
    Shortcut { sequence: "Ctrl+L"; onActivated: composerView.input.forceActiveFocus() }
    Shortcut { sequence: "Ctrl+Shift+Q"; onActivated: if (headerBar.enabled) conversationView.directoryOpen = !conversationView.directoryOpen }
    Shortcut { sequence: "Ctrl+End"; onActivated: conversationView.jumpToLatest() }
    Shortcut { sequence: "Esc"; enabled: session.busy; onActivated: turn.stop() }
    Shortcut { sequence: "Esc"; enabled: !session.busy && attachments.preview.name !== undefined
               onActivated: attachments.closePreview() }
    Shortcut { sequences: [StandardKey.Open]; onActivated: composerFiles.chooseFiles() }
    Component.onCompleted: composerView.input.forceActiveFocus()
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Multi-line composer: Enter sends, Shift+Enter adds a line, Esc stops a running turn; slash-command
// completion from the agent's commands; the draft is saved per session.
Rectangle {
    id: root
    property alias input: input
    implicitHeight: Math.min(220, input.implicitHeight + 2 * Theme.gap) + 2 * Theme.gap
    color: Theme.window
    readonly property var matches: {
        var text = input.text
        if (text.length === 0 || text[0] !== "/" || text.indexOf(" ") >= 0) return []
        var typed = text.substring(1).toLowerCase()
        return controller.commands.filter(c => c.name.toLowerCase().indexOf(typed) === 0)
    }

    Popup {
        id: completion
        objectName: "slashCompletion"
        y: -height - 4
        x: Theme.pad
        width: Math.min(root.width - 2 * Theme.pad, 480)
        height: Math.min(240, commandList.contentHeight + 8)
        visible: root.matches.length > 0 && input.activeFocus
        closePolicy: Popup.NoAutoClose
        padding: 4
        ListView {
            id: commandList
            objectName: "slashList"
            anchors.fill: parent
            model: root.matches
            currentIndex: 0
            clip: true
            delegate: ItemDelegate {
                required property var modelData
                required property int index
                width: commandList.width
                highlighted: ListView.isCurrentItem
                contentItem: Column {
                    Text { text: "/" + modelData.name + (modelData.hint ? "  " + modelData.hint : "")
                           color: Theme.text; font.family: Theme.mono }
                    Text { text: modelData.description; color: Theme.muted; font.pixelSize: 11
                           visible: text.length > 0; elide: Text.ElideRight; width: commandList.width - 16 }
                }
                onClicked: root.complete(modelData.name)
            }
        }
    }

    RowLayout {
        anchors.fill: parent
        anchors.margins: Theme.gap
        ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            TextArea {
                id: input
                objectName: "composerInput"
                placeholderText: controller.busy ? "The agent is working\u2026 (Esc to stop)"
                                                 : "Message the agent (Enter to send, Shift+Enter for a new line)"
                wrapMode: TextArea.Wrap
                text: controller.draft
                Accessible.name: "Message"
                onTextChanged: controller.setDraft(text)
                Keys.onPressed: (event) => {
                    if (completion.visible && (event.key === Qt.Key_Down || event.key === Qt.Key_Up)) {
                        commandList.currentIndex = Math.max(0, Math.min(root.matches.length - 1,
                            commandList.currentIndex + (event.key === Qt.Key_Down ? 1 : -1)))
                        event.accepted = true
                    } else if (completion.visible && (event.key === Qt.Key_Tab
                               || ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                                   && !(event.modifiers & Qt.ShiftModifier)))) {
                        root.complete(root.matches[Math.max(0, commandList.currentIndex)].name)
                        event.accepted = true
                    } else if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                               && !(event.modifiers & Qt.ShiftModifier)) {
                        root.send()
                        event.accepted = true
                    } else if (event.key === Qt.Key_Escape && controller.busy) {
                        controller.stop()
                        event.accepted = true
                    }
                }
            }
        }
        BusyIndicator {
            objectName: "workingIndicator"
            visible: controller.busy
            running: controller.busy && !controller.reducedMotion
            Layout.preferredWidth: 28; Layout.preferredHeight: 28
            Accessible.name: "The agent is working"
        }
        Button {
            objectName: controller.busy ? "stopButton" : "sendButton"
            text: controller.busy ? "Stop" : "Send"
            enabled: controller.busy || input.text.trim().length > 0
            Accessible.name: controller.busy ? "Stop the agent" : "Send message"
            onClicked: controller.busy ? controller.stop() : root.send()
        }
    }

    function send() {
        if (controller.busy || input.text.trim().length === 0) return
        controller.send(input.text)
        input.text = ""
    }
    function complete(name) {
        input.text = "/" + name + " "
        input.cursorPosition = input.text.length
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// An agent asks to run a command in a new terminal: nothing runs before Open.
Rectangle {
    id: request
    required property Item panel  // the TerminalPanel: the request shown is its current terminal
    readonly property var current: userTerminals.current
    function focusOpen() { openRequest.forceActiveFocus() }
    objectName: "terminalRequest"
    color: Theme.canvas
    ColumnLayout {
        x: Theme.pad; y: Theme.pad
        width: parent.width - 2 * Theme.pad
        spacing: Theme.gap
        Label { textFormat: Text.PlainText; text: "An agent asks to open a terminal and run:"; color: Theme.text; font.bold: true
                wrapMode: Text.Wrap; Layout.fillWidth: true }
        Rectangle {
            Layout.fillWidth: true
            implicitHeight: requestCommand.implicitHeight + Theme.pad
            radius: Theme.radiusSmall
            color: Theme.terminalBackground
            TextEdit {
                id: requestCommand
                objectName: "requestCommand"
                x: Theme.gap; y: Theme.spaceSmall
                width: parent.width - 2 * Theme.gap
                text: request.current.command || "(an interactive shell)"
                textFormat: TextEdit.PlainText
                readOnly: true; selectByMouse: true
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                color: Theme.terminalText
                Accessible.name: "Command the agent wants to run: " + text
            }
        }
        Label { textFormat: Text.PlainText; objectName: "requestFolder"; text: "In " + (request.current.cwd || ""); color: Theme.muted
                font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle; Layout.fillWidth: true }
        RowLayout {
            spacing: Theme.spaceTight
            Label { textFormat: Text.PlainText; text: "Sharing it asks for:"; color: Theme.muted }
            IconLabel { objectName: "requestSharing"; icon: request.panel.sharingIcon(request.current.sharing)
                        label: request.current.sharingLabel || ""; color: request.panel.sharingColour(request.current.sharing) }
        }
        Label { textFormat: Text.PlainText; text: "Nothing runs until you open it. Unanswered, the request expires."
                color: Theme.muted; font.pixelSize: Theme.fontCaption; wrapMode: Text.Wrap; Layout.fillWidth: true }
        RowLayout {
            spacing: Theme.gap
            Button { id: openRequest; objectName: "openRequest"; text: "Open and run"; highlighted: true
                     Accessible.name: "Open the terminal and run the agent's command"
                     onClicked: { userTerminals.openRequested(request.current.terminalId); request.panel.focusScreen() } }
            Button { objectName: "refuseRequest"; text: "Refuse"
                     Accessible.name: "Refuse: the agent's command never runs"
                     onClicked: userTerminals.refuse(request.current.terminalId) }
        }
    }
}

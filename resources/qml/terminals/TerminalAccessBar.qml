import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// How the agent reaches the user's terminals; "Connect OpenClaw" shows its command first.
Rectangle {
    objectName: "terminalAccessBar"
    visible: terminalAccess.delivery === "connect" || terminalAccess.confirming || terminalAccess.result !== ""
             || terminalAccess.problem !== ""
    implicitHeight: accessColumn.implicitHeight + 2 * Theme.spaceSmall
    color: Theme.sidebar
    Component.onCompleted: terminalAccess.refresh()
    ColumnLayout {
        id: accessColumn
        x: Theme.pad; y: Theme.spaceSmall
        width: parent.width - 2 * Theme.pad
        spacing: Theme.spaceSmall
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            IconLabel { icon: "plug"; color: Theme.muted; iconSize: Theme.fontUi }
            Label {
                textFormat: Text.PlainText
                objectName: "terminalAccessSummary"
                text: terminalAccess.summary
                color: Theme.text; font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Button {
                objectName: "connectOpenClaw"
                visible: terminalAccess.delivery === "connect" && !terminalAccess.confirming
                text: "Connect OpenClaw\u2026"
                Accessible.name: "Connect OpenClaw to ClawQt's terminal tools (shows the command first)"
                onClicked: terminalAccess.askToConnect()
            }
        }
        ColumnLayout {
            objectName: "connectConfirmation"
            visible: terminalAccess.confirming
            Layout.fillWidth: true
            spacing: Theme.spaceSmall
            Label {
                textFormat: Text.PlainText
                text: "ClawQt will run this OpenClaw command to add its terminal tools to OpenClaw's "
                      + "configuration (the key is shortened here):"
                color: Theme.text; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Rectangle {
                Layout.fillWidth: true
                implicitHeight: commandText.implicitHeight + Theme.pad
                radius: Theme.radiusSmall
                color: Theme.terminalBackground
                TextEdit {
                    textFormat: TextEdit.PlainText
                    id: commandText
                    objectName: "connectCommand"
                    x: Theme.gap; y: Theme.spaceSmall; width: parent.width - 2 * Theme.gap
                    text: terminalAccess.busy && terminalAccess.command === "" ? "Starting the terminal tools\u2026"
                                                                            : terminalAccess.command
                    readOnly: true; selectByMouse: true; wrapMode: TextEdit.WrapAnywhere
                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                    color: Theme.terminalText
                    Accessible.name: "The command ClawQt will run"
                }
            }
            RowLayout {
                spacing: Theme.gap
                Button {
                    objectName: "confirmConnect"
                    text: "Run it"
                    enabled: !terminalAccess.busy && terminalAccess.command !== ""
                    highlighted: true
                    Accessible.name: "Run the command and connect OpenClaw"
                    onClicked: terminalAccess.confirm()
                }
                Button {
                    objectName: "cancelConnect"
                    text: "Cancel"
                    enabled: !terminalAccess.busy || terminalAccess.command === ""
                    onClicked: terminalAccess.cancel()
                }
                Spinner {
                    visible: terminalAccess.busy
                    Accessible.name: "Working"
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            objectName: "connectResult"
            visible: terminalAccess.result !== ""
            text: terminalAccess.result
            color: terminalAccess.resultOk ? Theme.success : Theme.danger
            font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
    }
}

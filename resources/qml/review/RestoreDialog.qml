import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Restore to here (a user message's menu): every file that will change, and how, before anything
// does; Restore carries it out, a file changed in between is left as it is and named.
Dialog {
    id: root
    objectName: "restoreDialog"
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(560, parent.width - 2 * Theme.spaceHuge)
    modal: true
    title: "Restore the files to this message?"
    Connections { target: checkpoints; function onPlanned() { root.open() } }

    ColumnLayout {
        width: parent.width
        spacing: Theme.gap
        Label {
            Layout.fillWidth: true
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: Theme.text2
            text: checkpoints.steps.length === 0
                  ? "The files are as they were when this message was sent: nothing to restore."
                  : "These files go back to how they were when this message was sent. The chat itself stays as it is."
        }
        ListView {
            objectName: "restoreSteps"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 280)
            clip: true
            model: checkpoints.steps
            delegate: RowLayout {
                required property var modelData
                width: ListView.view.width
                spacing: Theme.gap
                Icon { icon: modelData.action === "deleted" ? "file-minus"
                             : modelData.action === "written back" ? "file-plus" : "file-diff"
                       size: Theme.iconSmall; color: Theme.text2 }
                Label { textFormat: Text.PlainText; text: modelData.name; color: Theme.text }
                Label { textFormat: Text.PlainText; text: modelData.action; color: Theme.muted; font.pixelSize: Theme.fontCaption }
                Label { textFormat: Text.PlainText; text: modelData.path; color: Theme.muted; font.pixelSize: Theme.fontCaption
                        elide: Text.ElideMiddle; Layout.fillWidth: true }
            }
        }
        Repeater {
            model: checkpoints.notes
            Label { required property string modelData; Layout.fillWidth: true; textFormat: Text.PlainText
                    wrapMode: Text.Wrap; color: Theme.warning; font.pixelSize: Theme.fontSmall; text: modelData }
        }
    }
    footer: Item {  // not a DialogButtonBox: it clears `highlighted`, and Restore is the primary
        implicitHeight: buttons.implicitHeight + Theme.pad + Theme.spaceHuge
        RowLayout {
            id: buttons
            anchors.right: parent.right
            anchors.rightMargin: Theme.spaceHuge
            y: Theme.pad
            spacing: Theme.gap
            Button { objectName: "restoreCancel"; text: "Cancel"; onClicked: root.reject() }
            Button {
                objectName: "restoreYes"
                text: "Restore " + checkpoints.steps.length + (checkpoints.steps.length === 1 ? " file" : " files")
                contentItem: ButtonText {}
                highlighted: true
                enabled: checkpoints.steps.length > 0
                onClicked: root.accept()
            }
        }
    }
    onAccepted: checkpoints.restore()
}

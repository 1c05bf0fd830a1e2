import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// A configured agent's details, opened in place under it in Settings: saved into its config entry and
// used from its next start (a running agent keeps its process). The main side checks every field.
Rectangle {
    id: root
    objectName: "agentEditor"
    property string name: ""
    readonly property var draft: agentSettings.draft
    implicitHeight: form.implicitHeight + 2 * Theme.pad
    radius: Theme.radius
    color: Theme.canvas
    border.color: Theme.border
    Component.onCompleted: commandField.forceActiveFocus()

    GridLayout {
        id: form
        x: Theme.pad; y: Theme.pad
        width: parent.width - 2 * Theme.pad
        columns: 2
        columnSpacing: Theme.pad
        rowSpacing: Theme.gap

        Label { textFormat: Text.PlainText; text: "Command line"; color: Theme.text }
        TextField {
            id: commandField
            objectName: "agentEditCommand"
            text: root.draft.command || ""
            font.family: Theme.mono; font.features: Theme.codeFeatures
            Layout.fillWidth: true
            Accessible.name: "The command line that starts " + root.name
        }
        Label { textFormat: Text.PlainText; text: "Folder"; color: Theme.text }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spaceTight
            TextField {
                id: folderField
                objectName: "agentEditFolder"
                text: root.draft.folder || ""
                placeholderText: "the chat's folder"
                font.family: Theme.mono; font.features: Theme.codeFeatures
                Layout.fillWidth: true
                Accessible.name: "The folder " + root.name + " starts in (empty: the chat's folder)"
            }
            Button {
                objectName: "agentEditBrowse"
                contentItem: IconLabel { icon: "folder-open"; label: "Browse\u2026"; color: Theme.text }
                onClicked: agentSettings.chooseFolder()
                Accessible.name: "Choose the folder " + root.name + " starts in"
            }
            Connections {
                target: agentSettings
                function onFolderChosen(path) { folderField.text = path }
            }
        }
        Label { textFormat: Text.PlainText; text: "Environment"; color: Theme.text; Layout.alignment: Qt.AlignTop }
        TextArea {
            textFormat: TextEdit.PlainText
            id: envField
            objectName: "agentEditEnv"
            text: root.draft.env || ""
            placeholderText: "KEY=value, one per line"
            font.family: Theme.mono; font.features: Theme.codeFeatures
            wrapMode: TextEdit.NoWrap
            Layout.fillWidth: true
            Layout.preferredHeight: Math.max(implicitHeight, 3 * envLines.height + topPadding + bottomPadding)
            FontMetrics { id: envLines; font: envField.font }
            Accessible.name: "Environment variables for " + root.name + ", one KEY=value per line"
            KeyNavigation.tab: modeField
        }
        Label { textFormat: Text.PlainText; text: "Default mode"; color: Theme.text }
        TextField {
            id: modeField
            objectName: "agentEditMode"
            text: root.draft.defaultMode || ""
            placeholderText: "the agent's own"
            Layout.fillWidth: true
            Accessible.name: "The mode a new chat with " + root.name + " starts in"
        }
        Label { textFormat: Text.PlainText; text: "Default model"; color: Theme.text }
        TextField {
            id: modelField
            objectName: "agentEditModel"
            text: root.draft.defaultModel || ""
            placeholderText: "the agent's own"
            Layout.fillWidth: true
            Accessible.name: "The model a new chat with " + root.name + " starts with"
        }
        Label {
            textFormat: Text.PlainText
            objectName: "agentEditProblem"
            visible: text !== ""
            text: agentSettings.problem
            wrapMode: Text.Wrap
            color: Theme.danger
            Layout.columnSpan: 2
            Layout.fillWidth: true
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        Item { Layout.fillWidth: true }
        RowLayout {
            Layout.alignment: Qt.AlignRight
            spacing: Theme.gap
            Button {
                objectName: "agentEditCancel"
                contentItem: IconLabel { icon: "x"; label: "Cancel"; color: Theme.text }
                onClicked: agentSettings.cancel()
                Accessible.name: "Close the details of " + root.name + " without saving"
            }
            Button {
                objectName: "agentEditSave"
                enabled: commandField.text.trim() !== "" && !agentSettings.saving
                contentItem: IconLabel { icon: "save"; label: "Save"; color: enabled ? Theme.text : Theme.muted }
                onClicked: agentSettings.save(commandField.text, folderField.text, envField.text,
                                              modeField.text, modelField.text)
                Accessible.name: "Save the details of " + root.name + " for its next start"
            }
        }
    }
}

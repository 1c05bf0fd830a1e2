import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings' Agents section: every agent offered and why; a configured one's details open in place
// (Edit) or it is removed (from the next start); a new one is added from a name and a command line.
// Every check and write is the main side's (agentSettings).
ColumnLayout {
    id: root
    property Item next: null  // where Tab goes after Add
    property alias first: agentName  // where Tab comes in
    signal reveal(Item item)  // the dialog scrolls it into view
    spacing: Theme.gap

    Label {
        objectName: "settingsSection_Agents"
        textFormat: Text.PlainText
        text: "Agents"
        font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
        color: Theme.text
        Accessible.role: Accessible.Heading
        Layout.topMargin: Theme.pad
    }
    Repeater {
        model: agents.agentModel
        delegate: Rectangle {  // an agent's card: who, its state, how it starts and why it is offered
            id: agentRow
            required property var modelData
            readonly property bool configured: agentSettings.configured.indexOf(modelData.profileName) >= 0
            readonly property bool editing: agentSettings.editing !== "" && agentSettings.editing === modelData.profileName
            readonly property string agentState: modelData.state || ""
            Layout.fillWidth: true
            implicitHeight: cardColumn.implicitHeight + 2 * Theme.pad
            radius: Theme.radiusLarge
            color: Theme.surface
            border.color: agentRow.editing ? Theme.borderStrong : Theme.border
            ColumnLayout {
                id: cardColumn
                x: Theme.pad; y: Theme.pad
                width: parent.width - 2 * Theme.pad
                spacing: Theme.gap
                RowLayout {
                    objectName: "settingsAgent"
                    Layout.fillWidth: true
                    spacing: Theme.pad
                    Accessible.role: Accessible.StaticText
                    Accessible.name: agentRow.modelData.name + (agentRow.modelData.state ? ", " + agentRow.modelData.state : "")
                                     + ": " + agentRow.modelData.command + ". " + agentRow.modelData.reason
                    AgentAvatar {
                        Layout.alignment: Qt.AlignTop
                        initials: agentRow.modelData.initials
                        colourIndex: agentRow.modelData.colourIndex
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        RowLayout {
                            Layout.fillWidth: true
                            spacing: Theme.gap
                            Label { textFormat: Text.PlainText; text: agentRow.modelData.name
                                    color: Theme.text; font.weight: Font.DemiBold; elide: Text.ElideRight; Layout.fillWidth: true }
                            Rectangle {  // its state as a pill: a dot in the state's colour and the word
                                objectName: "settingsAgentState"
                                implicitWidth: stateRow.implicitWidth + 2 * Theme.spaceSmall
                                implicitHeight: stateRow.implicitHeight + Theme.spaceTight
                                radius: height / 2
                                color: "transparent"
                                border.color: Theme.border
                                readonly property color tone: agentRow.agentState === "running" ? Theme.success
                                                              : agentRow.agentState === "" ? Theme.muted : Theme.warning
                                Row {
                                    id: stateRow
                                    anchors.centerIn: parent
                                    spacing: Theme.spaceTight
                                    Rectangle { width: Theme.spaceSmall; height: width; radius: width / 2; color: parent.parent.tone
                                                anchors.verticalCenter: parent.verticalCenter }
                                    Text { textFormat: Text.PlainText; text: agentRow.agentState || "not started"
                                           font.pixelSize: Theme.fontCaption; color: Theme.text2 }
                                }
                            }
                        }
                        Label { textFormat: Text.PlainText; text: agentRow.modelData.command; font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                                color: Theme.muted; elide: Text.ElideMiddle; Layout.fillWidth: true }
                        Label { textFormat: Text.PlainText; text: agentRow.modelData.reason; font.pixelSize: Theme.fontCaption; color: Theme.muted
                                wrapMode: Text.Wrap; Layout.fillWidth: true }
                    }
                    ToolButton {
                        objectName: "settingsDoctor"
                        Layout.alignment: Qt.AlignTop
                        contentItem: IconLabel { icon: "activity"; color: Theme.muted }
                        onClicked: doctor.open(agentRow.modelData.agentId)
                        Accessible.name: "Protocol doctor for " + agentRow.modelData.name
                        ToolTip.visible: hovered
                        ToolTip.text: "Protocol doctor: what it offers, what ClawQt allows it, a check"
                    }
                    ToolButton {
                        objectName: "settingsEditAgent"
                        visible: agentRow.configured
                        checkable: true
                        checked: agentRow.editing
                        Layout.alignment: Qt.AlignTop
                        contentItem: IconLabel { icon: "pencil"; color: agentRow.editing ? Theme.accent : Theme.muted }
                        onClicked: agentRow.editing ? agentSettings.cancel() : agentSettings.edit(agentRow.modelData.profileName)
                        Accessible.name: (agentRow.editing ? "Close the details of " : "Edit the details of ")
                                         + agentRow.modelData.profileName
                        ToolTip.visible: hovered
                        ToolTip.text: "Command line, folder, environment, default mode and model"
                    }
                    ToolButton {
                        objectName: "settingsRemoveAgent"
                        visible: agentRow.configured
                        Layout.alignment: Qt.AlignTop
                        contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                        onClicked: agentSettings.remove(agentRow.modelData.profileName)
                        Accessible.name: "Remove the agent " + agentRow.modelData.profileName + " (from the next start)"
                        ToolTip.visible: hovered
                        ToolTip.text: "Remove from the config file (from the next start)"
                    }
                }
                Loader {  // the details, made only while open
                    active: agentRow.editing
                    visible: active
                    Layout.fillWidth: true
                    sourceComponent: AgentEditor { name: agentRow.modelData.profileName }
                    onLoaded: Qt.callLater(root.reveal, item)  // once laid out
                }
            }
        }
    }
    RowLayout {  // a new agent: offered at once, kept in the config file's "agents"
        Layout.fillWidth: true
        spacing: Theme.gap
        TextField {
            id: agentName
            objectName: "settingsAgentName"
            placeholderText: "Name"
            Layout.preferredWidth: 120
            Accessible.name: "The new agent's name"
        }
        TextField {
            id: agentCommand
            objectName: "settingsAgentCommand"
            placeholderText: "Command line, e.g. claude-agent-acp"
            font.family: Theme.mono; font.features: Theme.codeFeatures
            Layout.fillWidth: true
            Accessible.name: "The command line that starts the new agent"
            onAccepted: addAgentButton.clicked()
        }
        Button {
            id: addAgentButton
            objectName: "settingsAddAgent"
            enabled: agentName.text.trim() !== "" && agentCommand.text.trim() !== ""
            contentItem: IconLabel { icon: "plus"; label: "Add"; color: Theme.text }
            onClicked: agentSettings.add(agentName.text, agentCommand.text)
            Accessible.name: "Add the agent"
            KeyNavigation.tab: root.next
        }
        Connections {
            target: agentSettings
            function onAdded() { agentName.text = ""; agentCommand.text = "" }
        }
    }
    Label {  // the editor says its own refusals beside its fields
        textFormat: Text.PlainText
        id: problem
        objectName: "agentSettingsProblem"
        visible: text !== ""
        text: agentSettings.editing === "" ? agentSettings.problem : ""
        onTextChanged: if (text !== "") Qt.callLater(root.reveal, problem)
        wrapMode: Text.Wrap
        color: Theme.danger
        Layout.fillWidth: true
        Accessible.role: Accessible.AlertMessage
        Accessible.name: text
    }
    Label {
        textFormat: Text.PlainText
        id: said
        objectName: "agentSettingsSaid"
        visible: text !== "" && agentSettings.problem === ""
        text: agentSettings.said
        onTextChanged: if (text !== "") Qt.callLater(root.reveal, said)
        wrapMode: Text.Wrap
        color: Theme.muted
        font.pixelSize: Theme.fontSmall
        Layout.fillWidth: true
    }
    RegistryAgents { Layout.fillWidth: true }
}

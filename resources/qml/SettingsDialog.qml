import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Settings (Ctrl+, or the platform's Preferences key): each change applies at once and is saved to
// the user's config file by the main side; a save that could not happen is said here.
Dialog {
    id: root
    objectName: "settingsDialog"
    parent: Overlay.overlay
    anchors.centerIn: parent
    width: Math.min(560, parent ? parent.width - 40 : 560)
    modal: true
    focus: true
    title: "Settings"
    padding: Theme.pad * 2
    Accessible.name: "Settings"
    background: Rectangle { color: Theme.surface; radius: Theme.radius; border.color: Theme.border }
    header: Label {
        text: root.title
        color: Theme.text
        font.bold: true; font.pixelSize: Theme.fontTitle
        padding: Theme.pad * 2; bottomPadding: 0
    }
    Overlay.modal: Rectangle { color: Theme.dark ? "#80000000" : "#40000000" }
    onOpened: schemeBox.forceActiveFocus()

    ScrollView {  // the sections scroll when the window is too short for them all
        id: scroller
        objectName: "settingsScroll"
        anchors.fill: parent
        implicitHeight: Math.min(sections.implicitHeight,
                                 (root.parent ? root.parent.height : 700) - 200)
        contentWidth: availableWidth
        clip: true
        ColumnLayout {
            id: sections
            width: scroller.availableWidth
            spacing: Theme.gap * 1.5

            Label {
                text: "Appearance"
                font.bold: true; font.pixelSize: Theme.fontMedium
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            GridLayout {
                columns: 2
                columnSpacing: Theme.pad
                rowSpacing: Theme.gap
                Layout.fillWidth: true

                Label { text: "Theme"; color: Theme.text }
                ComboBox {
                    id: schemeBox
                    objectName: "settingsColorScheme"
                    Layout.fillWidth: true
                    model: settings.colorSchemes
                    textRole: "label"
                    valueRole: "value"
                    currentIndex: settings.colorSchemes.findIndex(c => c.value === settings.colorScheme)
                    onActivated: (index) => settings.setColorScheme(settings.colorSchemes[index].value)
                    Accessible.name: "Theme: " + currentText
                    KeyNavigation.tab: scaleBox
                }

                Label { text: "Text size"; color: Theme.text }
                ComboBox {
                    id: scaleBox
                    objectName: "settingsFontScale"
                    Layout.fillWidth: true
                    model: settings.fontScales
                    textRole: "label"
                    valueRole: "value"
                    currentIndex: settings.fontScales.findIndex(c => Math.abs(c.value - settings.fontScale) < 0.001)
                    onActivated: (index) => settings.setFontScale(settings.fontScales[index].value)
                    Accessible.name: "Text size: " + currentText
                    KeyNavigation.tab: motionSwitch
                }

                Label { text: "Motion"; color: Theme.text }
                Switch {
                    id: motionSwitch
                    objectName: "settingsReducedMotion"
                    text: "Reduce animations"
                    checked: settings.reducedMotion
                    onToggled: settings.setReducedMotion(checked)
                    Accessible.name: "Reduce animations"
                    KeyNavigation.tab: notifySwitch
                }
            }

            Label {
                text: "Notifications"
                font.bold: true; font.pixelSize: Theme.fontMedium
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            Switch {
                id: notifySwitch
                objectName: "settingsNotify"
                text: "Tell me when an agent needs me while ClawQt is in the background"
                checked: settings.notify
                onToggled: settings.setNotify(checked)
                Accessible.name: text
                KeyNavigation.tab: addFolderButton
                Layout.fillWidth: true
            }

            Label {
                text: "Folders"
                font.bold: true; font.pixelSize: Theme.fontMedium
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            Label {
                text: settings.folders.length ? "Agents may also read and write in these folders, beside each chat's own:"
                                              : "Agents read and write only in each chat's own folder."
                color: Theme.muted; font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap; Layout.fillWidth: true
            }
            Repeater {
                model: settings.folders
                delegate: RowLayout {
                    id: folderRow
                    required property var modelData
                    required property int index
                    Layout.fillWidth: true
                    Label { text: folderRow.modelData; font.family: Theme.mono; font.pixelSize: Theme.fontSmall
                            color: Theme.text; elide: Text.ElideMiddle; Layout.fillWidth: true }
                    ToolButton {
                        objectName: "settingsRemoveFolder"
                        contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                        onClicked: settings.removeFolder(folderRow.index)
                        Accessible.name: "Remove the folder " + folderRow.modelData
                        ToolTip.visible: hovered
                        ToolTip.text: "Remove"
                    }
                }
            }
            Button {
                id: addFolderButton
                objectName: "settingsAddFolder"
                contentItem: IconLabel { icon: "new-folder"; label: "Add a folder\u2026"; color: Theme.text }
                onClicked: settings.chooseFolder()
                Accessible.name: "Add a folder the agents may use"
                KeyNavigation.tab: portField
            }

            Label {
                text: "Terminals"
                font.bold: true; font.pixelSize: Theme.fontMedium
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.pad
                Label { text: "Port of the terminal tools"; color: Theme.text }
                TextField {
                    id: portField
                    objectName: "settingsTerminalPort"
                    text: settings.terminalToolsPort
                    placeholderText: "ClawQt picks"
                    inputMethodHints: Qt.ImhDigitsOnly
                    validator: IntValidator { bottom: 0; top: 65535 }
                    Layout.preferredWidth: 120
                    onEditingFinished: settings.setTerminalToolsPort(text)
                    Accessible.name: "Port of the terminal tools: " + (text || "ClawQt picks")
                    KeyNavigation.tab: agentName
                }
                Label {
                    text: "on 127.0.0.1, from the next start (empty: a free one)"
                    color: Theme.muted; font.pixelSize: Theme.fontSmall
                    wrapMode: Text.Wrap; Layout.fillWidth: true
                }
            }

            Label {
                text: "Agents"
                font.bold: true; font.pixelSize: Theme.fontMedium
                color: Theme.text
                Accessible.role: Accessible.Heading
            }
            Repeater {  // what is offered and why; each is edited under "agents" in the config file
                model: agents.agentModel
                delegate: RowLayout {
                    id: agentRow
                    required property var modelData
                    objectName: "settingsAgent"
                    Layout.fillWidth: true
                    spacing: Theme.pad
                    Accessible.role: Accessible.StaticText
                    Accessible.name: modelData.name + (modelData.state ? ", " + modelData.state : "") + ": "
                                     + modelData.command + ". " + modelData.reason
                    Rectangle {
                        Layout.preferredWidth: 24; Layout.preferredHeight: 24
                        Layout.alignment: Qt.AlignTop
                        radius: 12
                        color: Theme.avatarColour(agentRow.modelData.colourIndex)
                        Text { anchors.centerIn: parent; text: agentRow.modelData.initials; color: "#ffffff"
                               font.bold: true; font.pixelSize: Theme.fontTiny }
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        Label { text: agentRow.modelData.name + (agentRow.modelData.state ? " \u00b7 " + agentRow.modelData.state : "")
                                color: Theme.text; font.bold: true; elide: Text.ElideRight; Layout.fillWidth: true }
                        Label { text: agentRow.modelData.command; font.family: Theme.mono; font.pixelSize: Theme.fontTiny
                                color: Theme.muted; elide: Text.ElideMiddle; Layout.fillWidth: true }
                        Label { text: agentRow.modelData.reason; font.pixelSize: Theme.fontTiny; color: Theme.muted
                                wrapMode: Text.Wrap; Layout.fillWidth: true }
                    }
                    ToolButton {
                        objectName: "settingsRemoveAgent"
                        visible: settings.configuredAgents.indexOf(agentRow.modelData.profileName) >= 0
                        Layout.alignment: Qt.AlignTop
                        contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                        onClicked: settings.removeAgent(agentRow.modelData.profileName)
                        Accessible.name: "Remove the agent " + agentRow.modelData.profileName + " (from the next start)"
                        ToolTip.visible: hovered
                        ToolTip.text: "Remove from the config file (from the next start)"
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
                    font.family: Theme.mono
                    Layout.fillWidth: true
                    Accessible.name: "The command line that starts the new agent"
                    onAccepted: addAgentButton.clicked()
                }
                Button {
                    id: addAgentButton
                    objectName: "settingsAddAgent"
                    enabled: agentName.text.trim() !== "" && agentCommand.text.trim() !== ""
                    contentItem: IconLabel { icon: "add"; label: "Add"; color: Theme.text }
                    onClicked: settings.addAgent(agentName.text, agentCommand.text)
                    Accessible.name: "Add the agent"
                    KeyNavigation.tab: closeButton
                }
                Connections {
                    target: settings
                    function onAgentAdded() { agentName.text = ""; agentCommand.text = "" }
                }
            }

            Label {
                objectName: "settingsProblem"
                visible: text !== ""
                text: settings.problem
                wrapMode: Text.Wrap
                color: Theme.danger
                Layout.fillWidth: true
                Accessible.role: Accessible.AlertMessage
                Accessible.name: text
            }
            Label {
                objectName: "settingsLocation"
                text: "Settings are kept in " + settings.location + (settings.saving ? " (saving\u2026)" : "")
                      + ". An agent's args, env, cwd, defaultMode and defaultModel are set there too"
                      + " (under \"agents\")."
                wrapMode: Text.Wrap
                color: Theme.muted
                font.pixelSize: Theme.fontSmall
                Layout.fillWidth: true
            }
        }
    }

    footer: DialogButtonBox {
        background: Item {}
        Button {
            id: closeButton
            objectName: "settingsClose"
            text: "Close"
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
            Accessible.name: "Close settings"
        }
    }
}

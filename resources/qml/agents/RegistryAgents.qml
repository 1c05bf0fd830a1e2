import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings > Agents: the ACP registry's agents (agents/registry_view.py), each with its version, how it
// installs and what it is; where the list came from (fetched now, a copy fetched before, or the copy
// bundled with ClawQt when offline) and Refresh. Fetched again each time Settings opens. Each agent's
// install: Install or Update, Pin, Roll back, Uninstall (asked first), progress with Cancel, its log.
ColumnLayout {
    id: root
    objectName: "registryAgents"
    spacing: Theme.gap
    RowLayout {
        Layout.fillWidth: true
        Layout.topMargin: Theme.pad
        spacing: Theme.gap
        Label { textFormat: Text.PlainText; text: "From the ACP registry"; font.weight: Font.DemiBold
                color: Theme.text; Layout.fillWidth: true; Accessible.role: Accessible.Heading }
        Spinner { visible: agentRegistry.fetching; size: Theme.iconSmall; Accessible.ignored: true }
        Button {
            objectName: "registryRefresh"
            enabled: !agentRegistry.fetching
            contentItem: IconLabel { icon: "refresh-cw"; label: "Refresh"; color: Theme.text }
            onClicked: agentRegistry.refresh()
            Accessible.name: "Fetch the ACP registry again"
        }
    }
    Label {
        objectName: "registryNote"
        textFormat: Text.PlainText
        text: agentRegistry.note
        visible: text !== ""
        wrapMode: Text.Wrap
        color: agentRegistry.source === "fetched" ? Theme.muted : Theme.text2
        font.pixelSize: Theme.fontSmall
        Layout.fillWidth: true
    }
    Repeater {
        model: agentRegistry.agents
        delegate: ColumnLayout {
            id: row
            objectName: "registryAgent"
            required property var modelData
            property bool confirming: false  // Uninstall asked: the two answers shown
            property bool showLog: false
            readonly property string agentId: modelData.id
            readonly property string lastLine: agentRegistry.logRevision, agentRegistry.lastLine(agentId)
            Layout.fillWidth: true
            spacing: Theme.gap
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.pad
                Accessible.role: Accessible.StaticText
                Accessible.name: modelData.name + " " + modelData.version + ": " + modelData.description + " Installs with " + modelData.how
                AgentAvatar { Layout.alignment: Qt.AlignTop; size: Theme.avatarSmall; initials: modelData.name.slice(0, 2).toUpperCase()
                              colourIndex: modelData.name.length }
                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: 0
                    RowLayout {
                        Layout.fillWidth: true
                        spacing: Theme.gap
                        Label { textFormat: Text.PlainText; text: modelData.name; color: Theme.text; font.weight: Font.DemiBold
                                elide: Text.ElideRight; Layout.preferredWidth: implicitWidth; Layout.minimumWidth: 0 }
                        Label { textFormat: Text.PlainText; text: modelData.version; color: Theme.muted; font.pixelSize: Theme.fontCaption }
                        StatusPill {
                            objectName: "registryInstalled"
                            visible: modelData.installedVersion !== ""
                            status: modelData.state === "update" ? "pending" : "completed"
                            label: (modelData.pinned ? "Pinned at " : "Installed ") + modelData.installedVersion
                        }
                        Item { Layout.fillWidth: true }
                    }
                    Label { textFormat: Text.PlainText; text: modelData.description; color: Theme.text2; font.pixelSize: Theme.fontSmall
                            visible: text !== ""; wrapMode: Text.Wrap; Layout.fillWidth: true }
                    Label { textFormat: Text.PlainText; text: modelData.how; font.family: Theme.mono; font.features: Theme.codeFeatures
                            visible: text !== ""; font.pixelSize: Theme.fontCaption; color: Theme.muted; elide: Text.ElideMiddle; Layout.fillWidth: true }
                }
            }
            RowLayout {  // what can be done with it now
                Layout.fillWidth: true
                Layout.leftMargin: Theme.avatarSmall + Theme.pad
                spacing: Theme.gap
                visible: !row.confirming
                Spinner { visible: modelData.state === "installing"; size: Theme.iconSmall; Accessible.ignored: true }
                Button {
                    objectName: "registryInstall"
                    contentItem: ButtonText {}
                    visible: modelData.state === "available" || modelData.state === "update"
                    text: modelData.state === "update" ? "Update to " + modelData.version : "Install"
                    highlighted: true
                    onClicked: agentRegistry.install(row.agentId)
                    Accessible.name: text + " " + modelData.name
                }
                Button {
                    objectName: "registryCancel"
                    visible: modelData.state === "installing"
                    text: "Cancel"
                    onClicked: agentRegistry.cancel(row.agentId)
                    Accessible.name: "Cancel installing " + modelData.name
                }
                Button {
                    objectName: "registryPin"
                    visible: modelData.installedVersion !== "" && modelData.state !== "installing"
                    text: modelData.pinned ? "Unpin" : "Pin"
                    onClicked: agentRegistry.pin(row.agentId, !modelData.pinned)
                    Accessible.name: (modelData.pinned ? "Allow updates of " : "Keep this version of ") + modelData.name
                }
                Button {
                    objectName: "registryRollBack"
                    contentItem: ButtonText {}
                    visible: modelData.previous !== "" && modelData.state !== "installing"
                    text: "Roll back to " + modelData.previous
                    onClicked: agentRegistry.rollBack(row.agentId)
                    Accessible.name: "Roll " + modelData.name + " back to " + modelData.previous
                }
                DangerButton {
                    objectName: "registryUninstall"
                    visible: modelData.installedVersion !== "" && modelData.state !== "installing"
                    text: "Uninstall"
                    onClicked: row.confirming = true
                    Accessible.name: "Uninstall " + modelData.name
                }
                Label {
                    objectName: "registryProgress"
                    textFormat: Text.PlainText
                    text: modelData.state === "installing" ? row.lastLine : modelData.said
                    visible: text !== ""
                    color: Theme.muted
                    font.pixelSize: Theme.fontCaption
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Button {
                    objectName: "registryLogToggle"
                    visible: row.lastLine !== ""
                    flat: true
                    text: row.showLog ? "Hide log" : "Log"
                    onClicked: row.showLog = !row.showLog
                    Accessible.name: (row.showLog ? "Hide" : "Show") + " the install log of " + modelData.name
                }
            }
            Label {
                objectName: "registryCheck"
                textFormat: Text.PlainText
                text: modelData.check
                visible: text !== "" && modelData.state !== "installing"
                color: Theme.muted
                font.pixelSize: Theme.fontCaption
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Layout.leftMargin: Theme.avatarSmall + Theme.pad
            }
            RowLayout {  // Uninstall, asked
                Layout.fillWidth: true
                Layout.leftMargin: Theme.avatarSmall + Theme.pad
                spacing: Theme.gap
                visible: row.confirming
                Label { textFormat: Text.PlainText; text: "Uninstall " + modelData.name + " and every version of it kept?"
                        color: Theme.text; wrapMode: Text.Wrap; Layout.fillWidth: true }
                DangerButton {
                    objectName: "registryUninstallConfirm"
                    text: "Uninstall"
                    onClicked: { row.confirming = false; agentRegistry.uninstall(row.agentId) }
                }
                Button { text: "Keep"; onClicked: row.confirming = false }
            }
            ScrollView {
                objectName: "registryLog"
                visible: row.showLog && row.lastLine !== ""
                Layout.fillWidth: true
                Layout.leftMargin: Theme.avatarSmall + Theme.pad
                Layout.preferredHeight: Math.min(logText.implicitHeight + Theme.pad, 160)
                TextArea {
                    id: logText
                    readOnly: true
                    textFormat: TextEdit.PlainText
                    text: row.showLog ? (agentRegistry.logRevision, agentRegistry.logText(row.agentId)) : ""
                    font.family: Theme.mono
                    font.pixelSize: Theme.fontCaption
                    wrapMode: TextEdit.WrapAnywhere
                    Accessible.name: "Install log of " + modelData.name
                }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings > Agents: the ACP registry's agents (agents/registry_view.py), each with its version, how it
// installs and what it is; where the list came from (fetched now, a copy fetched before, or the copy
// bundled with ClawQt when offline) and Refresh. Fetched again each time Settings opens.
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
        delegate: RowLayout {
            objectName: "registryAgent"
            required property var modelData
            Layout.fillWidth: true
            spacing: Theme.pad
            Accessible.role: Accessible.StaticText
            Accessible.name: modelData.name + " " + modelData.version + ": " + modelData.description + " Installs with " + modelData.how
            AgentAvatar { Layout.alignment: Qt.AlignTop; initials: modelData.name.slice(0, 2).toUpperCase()
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
                    Item { Layout.fillWidth: true }
                }
                Label { textFormat: Text.PlainText; text: modelData.description; color: Theme.text2; font.pixelSize: Theme.fontSmall
                        wrapMode: Text.Wrap; Layout.fillWidth: true }
                Label { textFormat: Text.PlainText; text: modelData.how; font.family: Theme.mono; font.features: Theme.codeFeatures
                        font.pixelSize: Theme.fontCaption; color: Theme.muted; elide: Text.ElideMiddle; Layout.fillWidth: true }
            }
        }
    }
}

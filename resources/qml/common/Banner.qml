import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Shown when the agent exits or fails to start: its exit code, last stderr lines, and Reconnect; and
// while ClawQt restarts a stuck agent by itself (what happened, a spinner, no button).
Rectangle {
    id: root
    objectName: "agentBanner"
    readonly property bool recovering: agent.banner.recovering === true
    visible: agent.banner.message !== undefined
    implicitHeight: visible ? layout.implicitHeight + 2 * Theme.gap : 0
    color: recovering ? Theme.sunken : Theme.dangerSubtle
    border.color: recovering ? Theme.warning : Theme.danger
    ColumnLayout {
        id: layout
        x: Theme.pad; y: Theme.gap
        width: root.width - 2 * Theme.pad
        RowLayout {
            Layout.fillWidth: true
            Spinner { visible: root.recovering; Accessible.name: "Restarting the agent" }
            Label { textFormat: Text.PlainText; objectName: "agentBannerText"; text: agent.banner.message || ""; color: Theme.text
                    wrapMode: Text.Wrap; Layout.fillWidth: true }
            Button { id: reconnect; objectName: "reconnectButton"; text: "Reconnect"; onClicked: agent.reconnect()
                     visible: !root.recovering
                     contentItem: IconLabel { icon: "rotate-cw"; label: reconnect.text }
                     Accessible.name: "Reconnect to the agent and reload the session" }
        }
        Text {
            visible: (agent.banner.stderr || "").length > 0
            text: agent.banner.stderr || ""
            font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
            color: Theme.muted
            textFormat: Text.PlainText
            maximumLineCount: 8; elide: Text.ElideRight
            Layout.fillWidth: true
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// The one place the agent's failure is told, as a callout at the top of the reading column: what
// happened in plain words and in a sentence, the next step as buttons (for an agent that is not installed:
// use the demo agent, choose another, or its settings; else reconnect), the agent's last stderr lines behind "Show details". While
// ClawQt restarts a stuck agent by itself it says so, with a spinner and no button.
Item {
    id: root
    objectName: "agentBanner"
    signal chooseAgent()  // Choose another agent…: the picker
    signal openSettings()  // Agent settings…: Settings at its Agents section
    readonly property bool recovering: agent.banner.recovering === true
    readonly property bool missing: agent.banner.code === "agent-not-found" || agent.banner.code === "agent-not-executable"
    readonly property bool demoOffered: agents.demoAgentId !== ""  // built in: it is never the missing one
    visible: agent.banner.message !== undefined
    implicitHeight: visible ? card.height + Theme.pad : 0

    Rectangle {
        id: card
        objectName: "agentCallout"
        x: Theme.columnX(root.width)
        y: Theme.pad
        width: Theme.columnWidth(root.width)
        height: layout.implicitHeight + 2 * Theme.pad
        radius: Theme.radiusLarge
        color: root.recovering ? Theme.warningSubtle : Theme.dangerSubtle
        border.color: root.recovering ? Theme.warningBorder : Theme.dangerBorder
        ColumnLayout {
            id: layout
            x: Theme.pad; y: Theme.pad
            width: card.width - 2 * Theme.pad
            spacing: Theme.gap
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                Spinner { visible: root.recovering; Accessible.name: "Restarting the agent" }
                Icon { visible: !root.recovering; icon: "triangle-alert"; color: Theme.danger
                       Layout.alignment: Qt.AlignTop; Accessible.ignored: true }
                ColumnLayout {  // what happened in plain words, then the main side's sentence
                    Layout.fillWidth: true
                    spacing: Theme.spaceHair
                    Label { textFormat: Text.PlainText; objectName: "agentBannerTitle"; text: agent.banner.title || ""
                            visible: text !== ""; color: Theme.text; font.weight: Font.DemiBold; wrapMode: Text.Wrap
                            Layout.fillWidth: true }
                    Label { textFormat: Text.PlainText; objectName: "agentBannerText"; text: agent.banner.message || ""
                            color: Theme.text2; wrapMode: Text.Wrap; Layout.fillWidth: true }
                }
            }
            Flow {  // the next steps, the likeliest first
                visible: !root.recovering
                Layout.fillWidth: true
                spacing: Theme.gap
                Button {
                    objectName: "useDemoAgentButton"
                    visible: root.missing && root.demoOffered
                    text: "Use the demo agent"
                    highlighted: true
                    onClicked: agents.newChatWith(agents.demoAgentId)
                    Accessible.name: "Start a chat with the built-in demo agent (it needs no model)"
                }
                Button {
                    objectName: "chooseAnotherAgentButton"
                    visible: root.missing && agents.choiceCount > 1
                    text: "Choose another agent\u2026"
                    onClicked: root.chooseAgent()
                }
                Button {  // the agent's command is the user's: where it is set, one click away
                    objectName: "agentSettingsButton"
                    visible: root.missing || agent.banner.code === "initialize-failed" || agent.banner.code === "agent-spawn-failed"
                    text: "Agent settings\u2026"
                    onClicked: root.openSettings()
                    Accessible.name: "Open Settings at the agents, where their commands are set"
                }
                Button {
                    id: reconnect
                    objectName: "reconnectButton"
                    text: root.missing ? "Try again" : "Reconnect"
                    highlighted: !root.missing
                    onClicked: agent.reconnect()
                    contentItem: IconLabel { icon: "rotate-cw"; label: reconnect.text
                                             color: reconnect.highlighted ? Theme.textOnAccent : Theme.text }
                    Accessible.name: "Reconnect to the agent and reload the session"
                }
                Button {
                    id: detailsToggle
                    objectName: "bannerDetailsToggle"
                    visible: (agent.banner.stderr || "").length > 0
                    flat: true
                    checkable: true
                    text: checked ? "Hide details" : "Show details"
                    contentItem: IconLabel { icon: detailsToggle.checked ? "chevron-up" : "chevron-down"; label: detailsToggle.text }
                }
            }
            Rectangle {
                visible: detailsToggle.checked && detailsToggle.visible
                Layout.fillWidth: true
                implicitHeight: details.implicitHeight + 2 * Theme.gap
                radius: Theme.radius
                color: Theme.sunken
                Text {
                    id: details
                    objectName: "agentBannerDetails"
                    x: Theme.pad; y: Theme.gap
                    width: parent.width - 2 * Theme.pad
                    text: agent.banner.stderr || ""
                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                    color: Theme.text2
                    textFormat: Text.PlainText
                    wrapMode: Text.WrapAnywhere
                    maximumLineCount: 12; elide: Text.ElideRight
                }
            }
        }
    }
}

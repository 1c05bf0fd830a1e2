import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// New chat with…: every agent the user may chat with (configured, found on PATH, the demo), its mark,
// command line and whether it runs; an agent with agents of its own (OpenClaw's) one row per agent.
// Arrow keys move, Enter starts the chat, Esc closes.
Popup {
    id: root
    objectName: "agentPicker"
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(parent.height / 6)
    width: Math.min(440, parent.width - 2 * Theme.spaceHuge)
    modal: true
    focus: true
    padding: Theme.pad
    Accessible.role: Accessible.Dialog
    Accessible.name: "New chat with an agent"
    Overlay.modal: Rectangle { color: Theme.scrim }
    onOpened: {
        agents.loadTargets()
        agentList.currentIndex = agents.lastUsedRow
        agentList.forceActiveFocus()
    }
    function choose(entry) { close(); agents.newChatWithTarget(entry.agentId, entry.target) }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gap
        Label {
            textFormat: Text.PlainText
            text: "New chat with"
            font.bold: true; font.pixelSize: Theme.fontBody
            color: Theme.text
            Accessible.role: Accessible.Heading
        }
        ListView {
            id: agentList
            objectName: "agentList"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 360)
            clip: true
            model: agents.agentModel
            keyNavigationEnabled: true
            highlightMoveDuration: 0
            Keys.onReturnPressed: if (currentItem) root.choose(currentItem.modelData)
            Keys.onEnterPressed: if (currentItem) root.choose(currentItem.modelData)
            delegate: ItemDelegate {
                id: row
                objectName: "agentChoice"
                required property var modelData
                required property int index
                width: agentList.width
                highlighted: ListView.isCurrentItem
                Accessible.name: modelData.name + (modelData.state ? ", " + modelData.state : "")
                                 + (modelData.lastUsed ? ", used last" : "") + ": " + modelData.command
                onClicked: root.choose(modelData)
                background: Rectangle {
                    radius: Theme.radius
                    color: row.highlighted ? Theme.selected : (row.hovered ? Theme.hover : "transparent")
                }
                contentItem: RowLayout {
                    spacing: Theme.pad
                    AgentAvatar {
                        size: 28
                        initials: row.modelData.initials
                        colourIndex: row.modelData.colourIndex
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 0
                        RowLayout {
                            Label { textFormat: Text.PlainText; text: row.modelData.name; color: Theme.text
                                    font.bold: true; elide: Text.ElideRight; Layout.fillWidth: true }
                            Label { textFormat: Text.PlainText; visible: row.modelData.targetNote !== ""
                                    text: row.modelData.targetNote; font.pixelSize: Theme.fontCaption
                                    color: Theme.muted }
                            Label { textFormat: Text.PlainText; visible: row.modelData.state !== ""; text: row.modelData.state
                                    font.pixelSize: Theme.fontCaption
                                    color: Theme.muted }
                        }
                        Label { textFormat: Text.PlainText; text: row.modelData.command; font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                                color: Theme.muted
                                elide: Text.ElideMiddle; Layout.fillWidth: true }
                    }
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            text: "Enter starts the chat \u00b7 Ctrl+N starts one with the agent used last"
            font.pixelSize: Theme.fontCaption; color: Theme.muted
            Layout.fillWidth: true; wrapMode: Text.Wrap
        }
    }
}

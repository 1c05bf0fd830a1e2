import QtQuick
import "../common"

// Whose turn this is, over its first row: the agent's mark and name at the start of the reading column
// (where a 44 px column beside every row used to hold the mark). Other rows of the turn have none.
Item {
    id: header
    required property QtObject objects  // the window objects it uses (row_objects.py)
    property bool first: false
    readonly property int extra: first ? height + Theme.spaceTight : 0  // what the row's content moves down
    x: Theme.columnX(parent ? parent.width : 0)
    y: Theme.spaceTight
    width: Theme.columnWidth(parent ? parent.width : 0)
    height: first ? Theme.controlSmall : 0
    visible: first
    Row {
        spacing: Theme.gap
        anchors.verticalCenter: parent.verticalCenter
        AgentAvatar {
            objectName: "agentAvatar"
            size: Theme.avatarSmall
            initials: header.objects.agent.turnInitials
            colourIndex: header.objects.agent.turnColour
            anchors.verticalCenter: parent.verticalCenter
        }
        Text {
            objectName: "turnAgentName"
            textFormat: Text.PlainText
            text: header.objects.agent.turnLabel
            font.pixelSize: Theme.fontUi
            font.weight: Font.DemiBold
            color: Theme.text
            anchors.verticalCenter: parent.verticalCenter
        }
    }
}

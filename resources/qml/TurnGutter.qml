import QtQuick

// The identity column of an assistant turn: the agent's mark on the turn's first row only.
Item {
    property bool first: false
    width: 40
    Rectangle {
        objectName: "agentAvatar"
        visible: parent.first
        x: Theme.pad; y: 6
        width: 24; height: 24; radius: 12
        color: Theme.avatarColour(agent.colourIndex)
        Accessible.ignored: true  // the turn's own name says whose it is
        Text { objectName: "agentAvatarInitials"; anchors.centerIn: parent; text: agent.initials
               color: "white"; font.bold: true; font.pixelSize: agent.initials.length > 1 ? Theme.fontTiny : Theme.fontBody }
    }
}

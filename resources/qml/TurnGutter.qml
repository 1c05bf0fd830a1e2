import QtQuick

// The identity column of an assistant turn: the agent's mark on the turn's first row only.
Item {
    property bool first: false
    width: 40
    Rectangle {
        visible: parent.first
        x: Theme.pad; y: 6
        width: 24; height: 24; radius: 12
        color: Theme.accent
        Text { anchors.centerIn: parent; text: agent.label.length ? agent.label[0] : "A"
               color: "white"; font.bold: true }
    }
}

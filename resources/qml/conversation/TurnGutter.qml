import QtQuick
import "../common"

// The identity column of an assistant turn: the agent's mark on the turn's first row only.
Item {
    id: gutter
    required property QtObject objects  // the window objects it uses (row_objects.py)
    property bool first: false
    width: 40
    AgentAvatar {  // the turn's own name says whose it is
        objectName: "agentAvatar"
        visible: parent.first
        x: Theme.pad; y: Theme.spaceSmall
        initials: gutter.objects.agent.initials
        colourIndex: gutter.objects.agent.colourIndex
    }
}

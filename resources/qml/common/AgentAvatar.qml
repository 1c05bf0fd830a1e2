import QtQuick

// An agent's mark when it sends no icon: its initials on the colour derived from its name
// (app/renderer/present/agent_avatar.py picks the index). Decorative: the row or turn it marks names the agent.
Rectangle {
    property string initials: ""
    property int colourIndex: 0
    property int size: 24
    width: size; height: size
    implicitWidth: size; implicitHeight: size
    radius: width / 2
    color: Theme.avatarColour(colourIndex)
    Accessible.ignored: true
    Text {
        textFormat: Text.PlainText
        objectName: "agentAvatarInitials"
        anchors.centerIn: parent
        text: parent.initials
        color: Theme.textOnAccent
        font.bold: true
        // two letters take a size smaller than one
        font.pixelSize: parent.size < 20 ? Theme.fontMicro
                        : parent.size < 28 ? (parent.initials.length > 1 ? Theme.fontCaption : Theme.fontUi)
                        : (parent.initials.length > 1 ? Theme.fontSmall : Theme.fontTitle)
    }
}

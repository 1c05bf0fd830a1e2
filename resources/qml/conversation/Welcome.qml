import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// What an empty chat shows instead of a blank page: whose chat it is, what it is ready for, and the
// agent's own commands as first steps (a click puts the command in the composer; nothing is sent).
Item {
    id: root
    property string agentLabel: ""
    property string initials: ""
    property int colourIndex: 0
    property string agentState: ""  // the agent's: "ready", "starting", "working", "failed" ...
    property var commands: []  // [{name, description, hint}] as the agent advertised them
    signal chosen(string text)
    readonly property var firstSteps: commands.slice(0, 4)

    ColumnLayout {
        objectName: "welcome"
        width: Math.min(parent.width - 2 * Theme.spaceHuge, Theme.proseWidth)
        anchors.horizontalCenter: parent.horizontalCenter
        y: Math.max(Theme.spaceLarge, parent.height - height - Theme.spaceHuge)  // just above the composer
        spacing: Theme.pad
        AgentAvatar {
            initials: root.initials
            colourIndex: root.colourIndex
            size: Theme.avatarLarge
            Layout.alignment: Qt.AlignHCenter
        }
        Text {
            objectName: "welcomeTitle"
            textFormat: Text.PlainText
            text: "What should we work on?"
            font.pixelSize: Theme.fontDisplay
            font.weight: Font.DemiBold
            color: Theme.text
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        RowLayout {
            Layout.alignment: Qt.AlignHCenter
            spacing: Theme.gap
            Spinner { visible: root.agentState === "starting"; size: Theme.iconMedium; Accessible.name: "Starting the agent" }
            Text {
                objectName: "welcomeAgent"
                textFormat: Text.PlainText
                text: root.agentLabel + (root.agentState === "starting" ? " \u00b7 starting\u2026"
                                         : root.agentState === "ready" || root.agentState === "" ? "" : " \u00b7 " + root.agentState)
                font.pixelSize: Theme.fontBody
                color: Theme.text2
                elide: Text.ElideRight
                Layout.maximumWidth: root.width - 2 * Theme.spaceHuge
            }
        }
        Text {
            visible: root.firstSteps.length > 0
            textFormat: Text.PlainText
            text: "Write below, or start with one of its commands:"
            font.pixelSize: Theme.fontUi
            color: Theme.muted
            Layout.alignment: Qt.AlignHCenter
            Layout.topMargin: Theme.gap
        }
        Flow {
            objectName: "welcomeSteps"
            Layout.fillWidth: true
            Layout.preferredHeight: implicitHeight
            spacing: Theme.gap
            // centred: the flow's rows start where the widest row would be centred
            leftPadding: Math.max(0, (width - stepsWidth) / 2)
            readonly property real stepsWidth: {
                var total = 0
                for (var i = 0; i < children.length; ++i)
                    if (children[i].visible && children[i].width) total += children[i].width + spacing
                return Math.min(width, Math.max(0, total - spacing))
            }
            Repeater {
                model: root.firstSteps
                Button {
                    id: step
                    required property var modelData
                    objectName: "welcomeStep_" + modelData.name
                    text: "/" + modelData.name
                    contentItem: IconLabel { icon: "sparkles"; label: step.text; color: Theme.text2; labelFont.family: Theme.mono }
                    Accessible.name: "Start with /" + modelData.name + (modelData.description ? ": " + modelData.description : "")
                    PlainToolTip { visible: step.hovered && step.modelData.description !== ""; text: step.modelData.description }
                    onClicked: root.chosen("/" + modelData.name + " ")
                }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings > Folders: the shown chat's folder's project settings (.clawqt.json; app/main/stores/projects.py):
// the agent, mode and model its new chats start with, and the folders and MCP servers it asks to grant,
// which are used only once the user trusted them as they read now (Trust / Stop trusting).
ColumnLayout {
    id: root
    objectName: "settingsProject"
    property bool opened: false
    property int revision: 0  // read again after a trust decision
    readonly property var project: opened ? (revision, agents.projectSettings()) : ({})
    readonly property bool asks: project.trusted !== undefined
    readonly property bool trusted: project.trusted === "yes"
    property string said: ""
    visible: project.file !== undefined
    spacing: Theme.gap

    function decide(trust) {
        said = agents.trustProject(trust)
        revision += 1
    }

    Label {
        objectName: "settingsProjectSummary"
        textFormat: Text.PlainText
        wrapMode: Text.Wrap; Layout.fillWidth: true
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        readonly property string starts: [root.project.agent ? "the agent " + root.project.agent : "",
                                          root.project.mode ? "the mode " + root.project.mode : "",
                                          root.project.model ? "the model " + root.project.model : ""].filter(w => w).join(", ")
        text: root.project.file === undefined ? ""
              : "Project settings for this chat's folder (" + root.project.file + ")"
                + (starts ? ": new chats there start with " + starts + " when offered." : ".")
    }
    ColumnLayout {
        visible: root.asks
        Layout.fillWidth: true
        spacing: Theme.spaceTight
        RowLayout {
            spacing: Theme.gap
            StatusPill {
                objectName: "settingsProjectTrust"
                status: root.trusted ? "completed" : "pending"
                label: root.trusted ? "Trusted" : "Not trusted"
            }
            Label {
                textFormat: Text.PlainText
                text: root.trusted ? "Its chats get these, from the next chat opened:"
                                   : "It asks to give its chats these; they get none until you trust them:"
                color: Theme.text; font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap; Layout.fillWidth: true
            }
        }
        Label {
            objectName: "settingsProjectFolders"
            visible: text !== ""
            textFormat: Text.PlainText
            text: root.project.folders ? "Folders:\n" + root.project.folders : ""
            font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
            color: Theme.text2; wrapMode: Text.WrapAnywhere; Layout.fillWidth: true
        }
        Label {
            objectName: "settingsProjectServers"
            visible: text !== ""
            textFormat: Text.PlainText
            text: root.project.servers ? "MCP servers:\n" + root.project.servers : ""
            font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
            color: Theme.text2; wrapMode: Text.WrapAnywhere; Layout.fillWidth: true
        }
        Label {
            visible: text !== ""
            textFormat: Text.PlainText
            text: root.project.grantProblems ? "Left out: " + root.project.grantProblems + "." : ""
            color: Theme.warning; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap; Layout.fillWidth: true
        }
        RowLayout {
            spacing: Theme.gap
            Button {
                objectName: "settingsProjectTrustButton"
                visible: !root.trusted
                text: "Trust these"
                onClicked: root.decide(true)
                Accessible.name: "Trust the folders and MCP servers this project asks for"
            }
            Button {
                objectName: "settingsProjectDistrust"
                visible: root.trusted
                text: "Stop trusting"
                onClicked: root.decide(false)
                Accessible.name: "Stop giving this project's folders and MCP servers to its chats"
            }
            Label {
                textFormat: Text.PlainText
                text: root.said
                visible: text !== ""
                color: Theme.danger; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap; Layout.fillWidth: true
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings' MCP servers section: the user's own servers, given to every agent in each chat it opens
// (an agent can be left out per server), and a form to add one: its name, how it starts (a command
// line for stdio, an address for http/sse) and its secrets as NAME=value lines (environment variables
// or headers), which go to the keyring and are never shown again. Every check is the main side's.
ColumnLayout {
    id: root
    property Item next: null  // where Tab goes after Add
    property alias first: serverName  // where Tab comes in
    spacing: Theme.gap

    Label {
        objectName: "settingsSection_McpServers"
        textFormat: Text.PlainText
        text: "MCP servers"
        font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
        color: Theme.text
        Accessible.role: Accessible.Heading
        Layout.topMargin: Theme.pad
    }
    Label {
        textFormat: Text.PlainText
        text: mcpServers.servers.length ? "Given to the agents in every chat they open (from the next chat):"
                                        : "Your own MCP servers, given to the agents in every chat they open. None yet."
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        wrapMode: Text.Wrap; Layout.fillWidth: true
    }
    Repeater {
        model: mcpServers.servers
        delegate: Rectangle {
            id: serverRow
            required property var modelData
            objectName: "settingsMcpServer_" + modelData.name
            Layout.fillWidth: true
            implicitHeight: serverColumn.implicitHeight + 2 * Theme.spaceSmall
            radius: Theme.radius
            color: "transparent"
            border.color: Theme.border
            ColumnLayout {
                id: serverColumn
                x: Theme.pad; y: Theme.spaceSmall
                width: parent.width - 2 * Theme.pad
                spacing: Theme.spaceHair
                RowLayout {
                    Layout.fillWidth: true
                    Icon { icon: "plug"; color: Theme.text2; size: Theme.iconSmall; Accessible.ignored: true }
                    Label { textFormat: Text.PlainText; text: serverRow.modelData.name; font.weight: Font.DemiBold; color: Theme.text }
                    Label { textFormat: Text.PlainText; text: serverRow.modelData.transport; color: Theme.muted; font.pixelSize: Theme.fontSmall }
                    Item { Layout.fillWidth: true }
                    ToolButton {
                        objectName: "settingsRemoveMcpServer"
                        contentItem: IconLabel { icon: "trash"; color: Theme.muted }
                        onClicked: mcpServers.remove(serverRow.modelData.name)
                        Accessible.name: "Remove the MCP server " + serverRow.modelData.name
                        ToolTip.visible: hovered
                        ToolTip.text: "Remove"
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    text: serverRow.modelData.command
                          + (serverRow.modelData.secret_names.length ? "   (secrets: " + serverRow.modelData.secret_names.join(", ") + ")" : "")
                    font.family: Theme.mono; font.pixelSize: Theme.fontSmall; color: Theme.text2
                    elide: Text.ElideMiddle; Layout.fillWidth: true
                }
                Flow {
                    Layout.fillWidth: true
                    spacing: Theme.spaceSmall
                    Repeater {
                        model: serverRow.modelData.agents
                        CheckBox {
                            id: agentBox
                            required property var modelData
                            objectName: "mcpServerAgent_" + modelData.id
                            text: modelData.name
                            checked: modelData.on
                            contentItem: Text {
                                textFormat: Text.PlainText
                                leftPadding: agentBox.indicator.width + agentBox.spacing
                                text: agentBox.text; font: agentBox.font; color: Theme.text
                                verticalAlignment: Text.AlignVCenter
                            }
                            onToggled: mcpServers.setEnabled(serverRow.modelData.name, modelData.id, checked)
                            Accessible.name: "Give " + serverRow.modelData.name + " to " + modelData.name
                        }
                    }
                }
            }
        }
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.spaceSmall
        TextField {
            id: serverName
            objectName: "mcpServerName"
            placeholderText: "Name"
            Layout.preferredWidth: 120
            Accessible.name: "The new MCP server's name"
            KeyNavigation.tab: transportBox
        }
        ComboBox {
            id: transportBox
            objectName: "mcpServerTransport"
            model: ["stdio", "http", "sse"]
            Accessible.name: "How the server is reached"
            KeyNavigation.tab: serverCommand
        }
        TextField {
            id: serverCommand
            objectName: "mcpServerCommand"
            placeholderText: transportBox.currentIndex === 0 ? "Command line, e.g. uvx mcp-server-git" : "Address, e.g. https://mcp.example.com/mcp"
            font.family: Theme.mono
            Layout.fillWidth: true
            Accessible.name: transportBox.currentIndex === 0 ? "The command that starts the server" : "The server's address"
            KeyNavigation.tab: serverSecrets
        }
    }
    TextArea {
        id: serverSecrets
        objectName: "mcpServerSecrets"
        textFormat: TextEdit.PlainText
        placeholderText: "Secrets, one NAME=value per line (environment variables, or headers for http); kept in your keyring"
        font.family: Theme.mono
        wrapMode: TextEdit.WrapAnywhere
        Layout.fillWidth: true
        Layout.preferredHeight: Math.max(implicitHeight, 3 * Theme.controlHeight / 2)
        Accessible.name: "Secrets of the new server, one NAME=value per line"
        KeyNavigation.priority: KeyNavigation.BeforeItem
        KeyNavigation.tab: addServer
    }
    RowLayout {
        Layout.fillWidth: true
        Button {
            id: addServer
            objectName: "mcpServerAdd"
            contentItem: IconLabel { icon: "plus"; label: "Add the server"; color: Theme.text }
            onClicked: if (mcpServers.add(serverName.text, transportBox.currentText, serverCommand.text, serverSecrets.text)) {
                serverName.text = ""; serverCommand.text = ""; serverSecrets.text = ""
            }
            Accessible.name: "Add the MCP server"
            KeyNavigation.tab: root.next
        }
        Label {
            objectName: "mcpServerProblem"
            visible: mcpServers.problem !== ""
            textFormat: Text.PlainText
            text: mcpServers.problem
            color: Theme.danger; font.pixelSize: Theme.fontSmall
            wrapMode: Text.Wrap; Layout.fillWidth: true
        }
    }
}

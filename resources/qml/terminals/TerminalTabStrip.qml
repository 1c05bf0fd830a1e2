import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The terminal panel's tab strip: one tab per tab of terminals (title, sharing, who takes part, how
// many split panes, close), + for a new terminal, the split menu, and hide.
Rectangle {
    id: strip
    required property Item panel  // the TerminalPanel: focus, sharing icons and colours, hide
    implicitHeight: 34
    color: Theme.sidebar
    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: Theme.spaceTight
        anchors.rightMargin: Theme.spaceTight
        spacing: Theme.spaceHair
        ListView {
            id: tabList
            objectName: "terminalTabs"
            orientation: ListView.Horizontal
            model: userTerminals.tabs
            spacing: Theme.spaceHair
            clip: true
            boundsBehavior: Flickable.StopAtBounds
            Layout.fillHeight: true
            Layout.topMargin: Theme.spaceHair
            Layout.preferredWidth: Math.min(contentWidth, strip.panel.width - 120)
            Accessible.role: Accessible.PageTabList
            Accessible.name: "Terminals"
            delegate: AbstractButton {
                id: tab
                required property string terminalId
                required property string title
                required property string sharing
                required property string sharingLabel
                required property var modelData  // its state (a delegate's own `state` is QML's)
                required property bool participating
                required property string participationText
                required property string agentLabel
                required property bool openedByAgent
                required property int paneCount
                required property bool splitParticipating
                readonly property bool selected: terminalId === userTerminals.currentTab
                objectName: "terminalTab_" + terminalId
                height: tabList.height
                focusPolicy: Qt.TabFocus
                Accessible.role: Accessible.PageTab
                Accessible.name: "Terminal " + title + ", " + sharingLabel
                                 + (modelData.state === "pending" ? ", an agent's request waiting for you" : "")
                                 + (participating ? ", " + participationText : "")
                                 + (paneCount > 1 ? ", " + paneCount + " panes" : "")
                                 + (splitParticipating ? ", an agent participating in a pane" : "")
                PlainToolTip { visible: tab.hovered; delay: 500
                               text: tab.participating ? tab.participationText : "Sharing with agents: " + tab.sharingLabel }
                onClicked: { userTerminals.select(terminalId); strip.panel.focusScreen() }
                background: Rectangle {
                    radius: Theme.radiusSmall
                    color: tab.selected ? Theme.surface : tab.hovered ? Theme.hover
                                                                      : "transparent"
                    border.color: tab.visualFocus ? Theme.accent : tab.selected ? Theme.border : "transparent"
                    Rectangle {  // the shown tab's underline
                        visible: tab.selected
                        anchors.bottom: parent.bottom
                        width: parent.width; height: 2
                        color: Theme.accent
                    }
                }
                contentItem: RowLayout {
                    spacing: Theme.spaceSmall
                    Icon { icon: tab.modelData.state === "pending" ? "circle-question-mark" : "terminal"
                           color: tab.modelData.state === "pending" ? Theme.warning
                                : tab.modelData.state === "running" ? Theme.text : Theme.muted }
                    Text { textFormat: Text.PlainText; text: tab.title; color: Theme.text; font.pixelSize: Theme.fontSmall
                           elide: Text.ElideRight; Layout.maximumWidth: 160 }
                    IconLabel {  // a split tab: how many panes it shows
                        objectName: "tabPanes"
                        visible: tab.paneCount > 1
                        icon: "columns-2"; label: String(tab.paneCount)
                        iconSize: Theme.fontCaption; color: tab.splitParticipating ? Theme.success : Theme.muted
                    }
                    Rectangle {  // the sharing mode, always visible
                        objectName: "tabSharing"
                        radius: Theme.radiusSmall
                        implicitWidth: sharingRow.implicitWidth + Theme.gap
                        implicitHeight: sharingRow.implicitHeight + Theme.spaceHair
                        color: "transparent"
                        border.color: strip.panel.sharingColour(tab.sharing)
                        IconLabel { id: sharingRow; x: Theme.spaceTight; y: 1; spacing: Theme.spaceHair
                                    icon: strip.panel.sharingIcon(tab.sharing); label: tab.sharingLabel
                                    iconSize: Theme.fontCaption; color: strip.panel.sharingColour(tab.sharing) }
                    }
                    Rectangle {  // an agent takes part right now
                        objectName: "tabParticipating"
                        visible: tab.participating
                        radius: Theme.radiusSmall
                        implicitWidth: participatingRow.implicitWidth + Theme.gap
                        implicitHeight: participatingRow.implicitHeight + Theme.spaceHair
                        color: Theme.successSubtle
                        IconLabel { id: participatingRow; x: Theme.spaceTight; y: 1; spacing: Theme.spaceHair
                                    icon: "sparkles"; label: tab.agentLabel + " participating"
                                    iconSize: Theme.fontCaption; color: Theme.success }
                    }
                    ToolButton {
                        objectName: "closeTerminal"
                        focusPolicy: Qt.TabFocus
                        implicitWidth: 22; implicitHeight: 22
                        contentItem: Item { Icon { icon: "x"; size: Theme.iconMedium; color: Theme.muted; anchors.centerIn: parent } }
                        Accessible.name: "Close terminal " + tab.title + (tab.paneCount > 1 ? " and its other panes" : "")
                        onClicked: userTerminals.closeTab(tab.terminalId)
                    }
                }
            }
        }
        ToolButton {
            objectName: "newTerminalButton"
            focusPolicy: Qt.TabFocus
            contentItem: IconLabel { icon: "plus" }
            Accessible.name: "New terminal"
            ToolTip.visible: hovered; ToolTip.text: "New terminal in this chat's folder"
            onClicked: { userTerminals.newTerminal(); strip.panel.focusScreen() }
        }
        ToolButton {
            id: splitButton
            objectName: "splitTerminalButton"
            enabled: userTerminals.current.state === "running"
            focusPolicy: Qt.TabFocus
            contentItem: IconLabel { icon: "columns-2"; color: splitButton.enabled ? Theme.text : Theme.muted }
            Accessible.name: "Split the terminal"
            ToolTip.visible: hovered && !splitMenu.visible
            ToolTip.text: "Split: a new shell beside this one (Ctrl+Alt+R right, Ctrl+Alt+D down)"
            onClicked: splitMenu.open()
            Menu {
                id: splitMenu
                objectName: "splitMenu"
                y: splitButton.height
                MenuItem { objectName: "splitRight"; text: "Split right"; onTriggered: strip.panel.split("right")
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Alt+R" } }
                MenuItem { objectName: "splitDown"; text: "Split down"; onTriggered: strip.panel.split("down")
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Alt+D" } }
            }
        }
        Item { Layout.fillWidth: true }
        ToolButton {
            objectName: "hideTerminalPanel"
            focusPolicy: Qt.TabFocus
            contentItem: IconLabel { icon: "chevron-down" }
            Accessible.name: "Hide the terminal panel"
            ToolTip.visible: hovered; ToolTip.text: "Hide the terminals (they keep running; Ctrl+` shows them)"
            onClicked: strip.panel.hideRequested()
        }
    }
}

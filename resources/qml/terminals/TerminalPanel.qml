import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The user's own terminals: the tab strip, and for the pane the keyboard is in: its folder, the
// sharing control (only the user changes it), "Only this chat's agent", the participation banner
// with Pause/Enable; an agent's request (Open / Refuse), or the tab's live panes (split or not).
Rectangle {
    id: root
    objectName: "terminalPanel"
    signal hideRequested()
    readonly property var current: userTerminals.current
    readonly property bool running: current.state === "running"
    property Item currentScreen: null  // the screen of the pane the keyboard goes to (set by that pane)
    readonly property bool screenHasFocus: currentScreen !== null && currentScreen.activeFocus
    color: Theme.surface
    Accessible.role: Accessible.Pane
    Accessible.name: "Terminal panel"

    function sharingIcon(mode) {
        return mode === "shared" ? "radio" : mode === "status-only" ? "activity" : "eye-off"
    }
    function sharingColour(mode) {
        return mode === "shared" ? Theme.accent : mode === "status-only" ? Theme.warning : Theme.muted
    }
    // the keyboard goes to the terminal shown (or to its request's Open button)
    function focusScreen() {
        if (current.state === "pending") requestView.focusOpen()
        else if (currentScreen !== null) currentScreen.forceActiveFocus()
    }
    // a new shell beside the pane the keyboard is in; the keyboard goes to it
    function split(direction) {
        userTerminals.split(direction)
        Qt.callLater(focusScreen)
    }
    Shortcut { sequence: "Ctrl+Alt+R"; enabled: root.screenHasFocus; onActivated: root.split("right") }
    Shortcut { sequence: "Ctrl+Alt+D"; enabled: root.screenHasFocus; onActivated: root.split("down") }

    Rectangle { width: parent.width; height: 1; color: Theme.border }

    ColumnLayout {
        anchors.fill: parent
        anchors.topMargin: 1
        spacing: 0

        TerminalTabStrip { panel: root; Layout.fillWidth: true }

        TerminalAccessBar { Layout.fillWidth: true }

        RowLayout {  // the pane's header
            objectName: "terminalPaneHeader"
            visible: root.current.terminalId !== undefined
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            Layout.rightMargin: Theme.pad
            Layout.topMargin: Theme.spaceTight
            Layout.bottomMargin: Theme.spaceTight
            spacing: Theme.gap
            IconLabel { icon: "folder"; color: Theme.muted; iconSize: Theme.fontUi }
            Label {
                textFormat: Text.PlainText
                objectName: "terminalFolder"
                text: root.current.cwd || ""
                font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                color: Theme.muted
                elide: Text.ElideMiddle
                Layout.fillWidth: true
                Accessible.name: "Folder " + text
            }
            Label {
                textFormat: Text.PlainText
                objectName: "terminalStatus"
                visible: text !== "" && root.current.state !== "pending"  // a request says it below
                text: root.current.statusText || ""
                font.pixelSize: Theme.fontCaption
                color: root.current.state === "exited" || root.current.state === "pending" ? Theme.muted : Theme.danger
                elide: Text.ElideRight
                Layout.maximumWidth: 320
            }
            ToolButton {
                id: sharingButton
                objectName: "sharingButton"
                focusPolicy: Qt.TabFocus
                contentItem: IconLabel {
                    icon: root.sharingIcon(root.current.sharing)
                    label: root.current.sharingLabel || ""
                    color: root.sharingColour(root.current.sharing)
                    Icon { icon: "chevron-down"; size: Theme.iconSmall; color: parent.color; anchors.verticalCenter: parent.verticalCenter }
                }
                Accessible.name: "Sharing with agents: " + (root.current.sharingLabel || "") + ". Change"
                ToolTip.visible: hovered && !sharingMenu.visible
                ToolTip.text: "What agents may do in this terminal (only you change it)"
                onClicked: sharingMenu.open()
                Menu {
                    id: sharingMenu
                    objectName: "sharingMenu"
                    y: sharingButton.height
                    width: 330
                    Repeater {
                        model: userTerminals.sharingModes
                        MenuItem {
                            id: modeItem
                            required property var modelData
                            objectName: "sharing_" + modelData.mode
                            checkable: true
                            checked: root.current.sharing === modelData.mode
                            text: modelData.label
                            Accessible.name: modelData.label + ": " + modelData.description
                            onTriggered: userTerminals.setSharing(root.current.terminalId, modelData.mode)
                            indicator: Item {}  // one mode of three: a check mark, not a checkbox
                            contentItem: RowLayout {
                                spacing: Theme.gap
                                Icon { icon: "check"; color: Theme.accent; opacity: modeItem.checked ? 1 : 0 }
                                Icon { icon: root.sharingIcon(modeItem.modelData.mode); color: root.sharingColour(modeItem.modelData.mode) }
                                ColumnLayout {
                                    spacing: 0
                                    Layout.fillWidth: true
                                    Text { textFormat: Text.PlainText; text: modeItem.modelData.label; color: Theme.text; font.bold: modeItem.checked }
                                    Text { textFormat: Text.PlainText; text: modeItem.modelData.description; color: Theme.muted; font.pixelSize: Theme.fontCaption
                                           wrapMode: Text.Wrap; Layout.fillWidth: true }
                                }
                            }
                        }
                    }
                }
            }
            CheckBox {
                objectName: "pinToChat"
                focusPolicy: Qt.TabFocus
                text: "Only this chat's agent"
                checked: root.current.pinned === true
                enabled: session.sessionKey !== ""
                onToggled: userTerminals.setPinned(root.current.terminalId, checked)
                Accessible.name: "Only this chat's agent may use this terminal"
                ToolTip.visible: hovered
                ToolTip.text: root.current.pinnedElsewhere ? "Pinned to another chat: check to pin it to this one"
                                                           : "Unchecked, every chat's agent may use it (as sharing allows)"
            }
        }

        Rectangle {  // who takes part: the banner, "sent input", Pause / Enable
            id: banner
            objectName: "participationBanner"
            readonly property bool active: root.current.participating === true
            visible: active || root.current.agentSentInput === true
            Layout.fillWidth: true
            implicitHeight: bannerRow.implicitHeight + Theme.gap
            color: active ? Theme.successSubtle : Theme.sunken
            Rectangle { width: 3; height: parent.height; color: banner.active ? Theme.success : Theme.border }
            RowLayout {
                id: bannerRow
                x: Theme.pad; y: Theme.spaceTight
                width: parent.width - 2 * Theme.pad
                spacing: Theme.gap
                IconLabel { icon: "sparkles"; color: banner.active ? Theme.success : Theme.muted; iconSize: Theme.fontUi }
                Label {
                    textFormat: Text.PlainText
                    objectName: "participationText"
                    visible: banner.active
                    text: root.current.participationText || ""
                    color: Theme.text
                    font.bold: true
                    Accessible.role: Accessible.AlertMessage
                    Accessible.name: text
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "sentInputLabel"
                    visible: root.current.agentSentInput === true
                    text: (banner.active ? "\u00b7 " : "") + (root.current.agentLabel || "The agent") + " sent input"
                    color: Theme.text
                    Accessible.name: (root.current.agentLabel || "The agent") + " sent input to this terminal"
                }
                Item { Layout.fillWidth: true }
                Button {
                    objectName: "pauseSharing"
                    readonly property bool paused: root.current.sharing === "off"
                    focusPolicy: Qt.TabFocus
                    text: paused ? "Enable" : "Pause"
                    Accessible.name: paused ? "Enable sharing: the agent may read and type again"
                                            : "Pause sharing: the agent sees nothing from now on"
                    onClicked: userTerminals.setSharing(root.current.terminalId, paused ? "shared" : "off")
                }
            }
        }

        TerminalRequest {
            id: requestView
            panel: root
            visible: root.current.state === "pending"
            Layout.fillWidth: true
            Layout.fillHeight: true
        }

        RowLayout {
            objectName: "terminalPanelError"
            visible: userTerminals.error !== ""
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            Layout.rightMargin: Theme.pad
            Label { textFormat: Text.PlainText; objectName: "terminalPanelErrorText"; text: userTerminals.error; color: Theme.danger
                    wrapMode: Text.Wrap; Layout.fillWidth: true }
            ToolButton { objectName: "dismissTerminalError"; focusPolicy: Qt.TabFocus
                         contentItem: IconLabel { icon: "x"; color: Theme.muted; iconSize: Theme.iconSmall }
                         Accessible.name: "Dismiss the error"
                         onClicked: userTerminals.dismissError() }
        }

        Rectangle {  // the tab's panes, live
            visible: root.current.state !== "pending"
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.terminalBackground
            Label {
                textFormat: Text.PlainText
                anchors.centerIn: parent
                visible: root.current.terminalId === undefined
                text: "No terminal. Press + to open one."
                color: Theme.terminalMuted
            }
            TerminalSplit {
                objectName: "terminalPanes"
                anchors.fill: parent
                visible: root.current.terminalId !== undefined
                tree: userTerminals.layout
                panel: root
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import ClawQt.Terminal

// The user's own terminals: tabs (title, sharing, who takes part, close), a + button, and the tab
// shown: its folder, the sharing control (only the user changes it), "Only this chat's agent", the
// participation banner with Pause/Enable, an agent's request (Open / Refuse) and the live screen.
Rectangle {
    id: root
    objectName: "terminalPanel"
    signal hideRequested()
    readonly property var current: userTerminals.current
    readonly property bool running: current.state === "running"
    readonly property bool screenHasFocus: screen !== null && screen.activeFocus
    color: Theme.surface
    Accessible.role: Accessible.Pane
    Accessible.name: "Terminal panel"

    function sharingIcon(mode) {
        return mode === "shared" ? "broadcast" : mode === "status-only" ? "pulse" : "eye-closed"
    }
    function sharingColour(mode) {
        return mode === "shared" ? Theme.accent : mode === "status-only" ? Theme.warning : Theme.muted
    }
    // the keyboard goes to the terminal shown (or to its request's Open button)
    function focusScreen() {
        if (current.state === "pending") openRequest.forceActiveFocus()
        else screen.forceActiveFocus()
    }

    Rectangle { width: parent.width; height: 1; color: Theme.border }

    ColumnLayout {
        anchors.fill: parent
        anchors.topMargin: 1
        spacing: 0

        Rectangle {  // the tab strip
            Layout.fillWidth: true
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
                    Layout.preferredWidth: Math.min(contentWidth, root.width - 120)
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
                        readonly property bool selected: terminalId === userTerminals.currentId
                        objectName: "terminalTab_" + terminalId
                        height: tabList.height
                        focusPolicy: Qt.TabFocus
                        Accessible.role: Accessible.PageTab
                        Accessible.name: "Terminal " + title + ", " + sharingLabel
                                         + (modelData.state === "pending" ? ", an agent's request waiting for you" : "")
                                         + (participating ? ", " + participationText : "")
                        PlainToolTip { visible: tab.hovered; delay: 500
                                       text: tab.participating ? tab.participationText : "Sharing with agents: " + tab.sharingLabel }
                        onClicked: { userTerminals.select(terminalId); root.focusScreen() }
                        background: Rectangle {
                            radius: Theme.radiusSmall
                            color: tab.selected ? Theme.surface : tab.hovered ? Theme.chipHover
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
                            Text { textFormat: Text.PlainText; text: icons.glyph(tab.modelData.state === "pending" ? "question" : "terminal")
                                   font.family: icons.family; font.pixelSize: Theme.fontBody
                                   color: tab.modelData.state === "pending" ? Theme.warning
                                        : tab.modelData.state === "running" ? Theme.text : Theme.muted }
                            Text { textFormat: Text.PlainText; text: tab.title; color: Theme.text; font.pixelSize: Theme.fontSmall
                                   elide: Text.ElideRight; Layout.maximumWidth: 160 }
                            Rectangle {  // the sharing mode, always visible
                                objectName: "tabSharing"
                                radius: Theme.radiusSmall
                                implicitWidth: sharingRow.implicitWidth + Theme.gap
                                implicitHeight: sharingRow.implicitHeight + Theme.spaceHair
                                color: "transparent"
                                border.color: root.sharingColour(tab.sharing)
                                IconLabel { id: sharingRow; x: Theme.spaceTight; y: 1; spacing: Theme.spaceHair
                                            icon: root.sharingIcon(tab.sharing); label: tab.sharingLabel
                                            iconSize: Theme.fontTiny; color: root.sharingColour(tab.sharing) }
                            }
                            Rectangle {  // an agent takes part right now
                                objectName: "tabParticipating"
                                visible: tab.participating
                                radius: Theme.radiusSmall
                                implicitWidth: participatingRow.implicitWidth + Theme.gap
                                implicitHeight: participatingRow.implicitHeight + Theme.spaceHair
                                color: Theme.successSurface
                                IconLabel { id: participatingRow; x: Theme.spaceTight; y: 1; spacing: Theme.spaceHair
                                            icon: "sparkle"; label: tab.agentLabel + " participating"
                                            iconSize: Theme.fontTiny; color: Theme.success }
                            }
                            ToolButton {
                                objectName: "closeTerminal"
                                focusPolicy: Qt.TabFocus
                                implicitWidth: 22; implicitHeight: 22
                                contentItem: Text { textFormat: Text.PlainText; text: icons.glyph("close"); font.family: icons.family
                                                    font.pixelSize: Theme.fontSmall; color: Theme.muted
                                                    horizontalAlignment: Text.AlignHCenter
                                                    verticalAlignment: Text.AlignVCenter }
                                Accessible.name: "Close terminal " + tab.title
                                onClicked: userTerminals.close(tab.terminalId)
                            }
                        }
                    }
                }
                ToolButton {
                    objectName: "newTerminalButton"
                    focusPolicy: Qt.TabFocus
                    contentItem: IconLabel { icon: "add" }
                    Accessible.name: "New terminal"
                    ToolTip.visible: hovered; ToolTip.text: "New terminal in this chat's folder"
                    onClicked: { userTerminals.newTerminal(); root.focusScreen() }
                }
                Item { Layout.fillWidth: true }
                ToolButton {
                    objectName: "hideTerminalPanel"
                    focusPolicy: Qt.TabFocus
                    contentItem: IconLabel { icon: "chevron-down" }
                    Accessible.name: "Hide the terminal panel"
                    ToolTip.visible: hovered; ToolTip.text: "Hide the terminals (they keep running; Ctrl+` shows them)"
                    onClicked: root.hideRequested()
                }
            }
        }

        Rectangle {  // how the agent reaches these terminals; "Connect OpenClaw" shows its command first
            objectName: "terminalAccessBar"
            visible: terminalAccess.delivery === "connect" || terminalAccess.confirming || terminalAccess.result !== ""
                     || terminalAccess.problem !== ""
            Layout.fillWidth: true
            implicitHeight: accessColumn.implicitHeight + 2 * Theme.spaceSmall
            color: Theme.sidebar
            Component.onCompleted: terminalAccess.refresh()
            ColumnLayout {
                id: accessColumn
                x: Theme.pad; y: Theme.spaceSmall
                width: parent.width - 2 * Theme.pad
                spacing: Theme.spaceSmall
                RowLayout {
                    Layout.fillWidth: true
                    spacing: Theme.gap
                    IconLabel { icon: "plug"; color: Theme.muted; iconSize: Theme.fontBody }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "terminalAccessSummary"
                        text: terminalAccess.summary
                        color: Theme.text; font.pixelSize: Theme.fontSmall
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Button {
                        objectName: "connectOpenClaw"
                        visible: terminalAccess.delivery === "connect" && !terminalAccess.confirming
                        text: "Connect OpenClaw\u2026"
                        Accessible.name: "Connect OpenClaw to ClawQt's terminal tools (shows the command first)"
                        onClicked: terminalAccess.askToConnect()
                    }
                }
                ColumnLayout {
                    objectName: "connectConfirmation"
                    visible: terminalAccess.confirming
                    Layout.fillWidth: true
                    spacing: Theme.spaceSmall
                    Label {
                        textFormat: Text.PlainText
                        text: "ClawQt will run this OpenClaw command to add its terminal tools to OpenClaw's "
                              + "configuration (the key is shortened here):"
                        color: Theme.text; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                    Rectangle {
                        Layout.fillWidth: true
                        implicitHeight: commandText.implicitHeight + Theme.pad
                        radius: Theme.radiusSmall
                        color: Theme.terminalBackground
                        TextEdit {
                            textFormat: TextEdit.PlainText
                            id: commandText
                            objectName: "connectCommand"
                            x: Theme.gap; y: Theme.spaceSmall; width: parent.width - 2 * Theme.gap
                            text: terminalAccess.busy && terminalAccess.command === "" ? "Starting the terminal tools\u2026"
                                                                                    : terminalAccess.command
                            readOnly: true; selectByMouse: true; wrapMode: TextEdit.WrapAnywhere
                            font.family: Theme.mono; font.pixelSize: Theme.fontTiny
                            color: Theme.terminalText
                            Accessible.name: "The command ClawQt will run"
                        }
                    }
                    RowLayout {
                        spacing: Theme.gap
                        Button {
                            objectName: "confirmConnect"
                            text: "Run it"
                            enabled: !terminalAccess.busy && terminalAccess.command !== ""
                            highlighted: true
                            Accessible.name: "Run the command and connect OpenClaw"
                            onClicked: terminalAccess.confirm()
                        }
                        Button {
                            objectName: "cancelConnect"
                            text: "Cancel"
                            enabled: !terminalAccess.busy || terminalAccess.command === ""
                            onClicked: terminalAccess.cancel()
                        }
                        Spinner {
                            visible: terminalAccess.busy
                            Accessible.name: "Working"
                        }
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "connectResult"
                    visible: terminalAccess.result !== ""
                    text: terminalAccess.result
                    color: terminalAccess.resultOk ? Theme.success : Theme.error
                    font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap
                    Layout.fillWidth: true
                }
            }
        }

        RowLayout {  // the pane's header
            objectName: "terminalPaneHeader"
            visible: root.current.terminalId !== undefined
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            Layout.rightMargin: Theme.pad
            Layout.topMargin: Theme.spaceTight
            Layout.bottomMargin: Theme.spaceTight
            spacing: Theme.gap
            IconLabel { icon: "folder"; color: Theme.muted; iconSize: Theme.fontBody }
            Label {
                textFormat: Text.PlainText
                objectName: "terminalFolder"
                text: root.current.cwd || ""
                font.family: Theme.mono; font.pixelSize: Theme.fontTiny
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
                font.pixelSize: Theme.fontTiny
                color: root.current.state === "exited" || root.current.state === "pending" ? Theme.muted : Theme.error
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
                    Text { textFormat: Text.PlainText; text: icons.glyph("chevron-down"); font.family: icons.family; font.pixelSize: Theme.iconSmall
                           color: parent.color; anchors.verticalCenter: parent.verticalCenter }
                }
                Accessible.name: "Sharing with agents: " + (root.current.sharingLabel || "") + ". Change"
                ToolTip.visible: hovered && !sharingMenu.visible
                ToolTip.text: "What agents may do in this terminal (only you change it)"
                onClicked: sharingMenu.open()
                Menu {
                    id: sharingMenu
                    objectName: "sharingMenu"
                    y: sharingButton.height
                    background: Elevated { implicitWidth: 200 }
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
                                Text { textFormat: Text.PlainText; text: icons.glyph("check"); font.family: icons.family; font.pixelSize: Theme.fontMedium
                                       color: Theme.accent; opacity: modeItem.checked ? 1 : 0 }
                                Text { textFormat: Text.PlainText; text: icons.glyph(root.sharingIcon(modeItem.modelData.mode))
                                       font.family: icons.family; font.pixelSize: Theme.fontMedium
                                       color: root.sharingColour(modeItem.modelData.mode) }
                                ColumnLayout {
                                    spacing: 0
                                    Layout.fillWidth: true
                                    Text { textFormat: Text.PlainText; text: modeItem.modelData.label; color: Theme.text; font.bold: modeItem.checked }
                                    Text { textFormat: Text.PlainText; text: modeItem.modelData.description; color: Theme.muted; font.pixelSize: Theme.fontTiny
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
            color: active ? Theme.successSurface : Theme.chip
            Rectangle { width: 3; height: parent.height; color: banner.active ? Theme.success : Theme.border }
            RowLayout {
                id: bannerRow
                x: Theme.pad; y: Theme.spaceTight
                width: parent.width - 2 * Theme.pad
                spacing: Theme.gap
                IconLabel { icon: "sparkle"; color: banner.active ? Theme.success : Theme.muted; iconSize: Theme.fontBody }
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

        Rectangle {  // an agent asks to run a command in a new terminal: nothing runs before Open
            objectName: "terminalRequest"
            visible: root.current.state === "pending"
            Layout.fillWidth: true
            Layout.fillHeight: true
            color: Theme.window
            ColumnLayout {
                x: Theme.pad; y: Theme.pad
                width: parent.width - 2 * Theme.pad
                spacing: Theme.gap
                Label { textFormat: Text.PlainText; text: "An agent asks to open a terminal and run:"; color: Theme.text; font.bold: true
                        wrapMode: Text.Wrap; Layout.fillWidth: true }
                Rectangle {
                    Layout.fillWidth: true
                    implicitHeight: requestCommand.implicitHeight + Theme.pad
                    radius: Theme.radiusSmall
                    color: Theme.terminalBackground
                    TextEdit {
                        id: requestCommand
                        objectName: "requestCommand"
                        x: Theme.gap; y: Theme.spaceSmall
                        width: parent.width - 2 * Theme.gap
                        text: root.current.command || "(an interactive shell)"
                        textFormat: TextEdit.PlainText
                        readOnly: true; selectByMouse: true
                        wrapMode: TextEdit.WrapAnywhere
                        font.family: Theme.mono; font.pixelSize: Theme.fontSmall
                        color: Theme.terminalText
                        Accessible.name: "Command the agent wants to run: " + text
                    }
                }
                Label { textFormat: Text.PlainText; objectName: "requestFolder"; text: "In " + (root.current.cwd || ""); color: Theme.muted
                        font.family: Theme.mono; font.pixelSize: Theme.fontTiny; elide: Text.ElideMiddle; Layout.fillWidth: true }
                RowLayout {
                    spacing: Theme.spaceTight
                    Label { textFormat: Text.PlainText; text: "Sharing it asks for:"; color: Theme.muted }
                    IconLabel { objectName: "requestSharing"; icon: root.sharingIcon(root.current.sharing)
                                label: root.current.sharingLabel || ""; color: root.sharingColour(root.current.sharing) }
                }
                Label { textFormat: Text.PlainText; text: "Nothing runs until you open it. Unanswered, the request expires."
                        color: Theme.muted; font.pixelSize: Theme.fontTiny; wrapMode: Text.Wrap; Layout.fillWidth: true }
                RowLayout {
                    spacing: Theme.gap
                    Button { id: openRequest; objectName: "openRequest"; text: "Open and run"; highlighted: true
                             Accessible.name: "Open the terminal and run the agent's command"
                             onClicked: { userTerminals.openRequested(root.current.terminalId); screen.forceActiveFocus() } }
                    Button { objectName: "refuseRequest"; text: "Refuse"
                             Accessible.name: "Refuse: the agent's command never runs"
                             onClicked: userTerminals.refuse(root.current.terminalId) }
                }
            }
        }

        RowLayout {
            objectName: "terminalPanelError"
            visible: userTerminals.error !== ""
            Layout.fillWidth: true
            Layout.leftMargin: Theme.pad
            Layout.rightMargin: Theme.pad
            Label { textFormat: Text.PlainText; objectName: "terminalPanelErrorText"; text: userTerminals.error; color: Theme.error
                    wrapMode: Text.Wrap; Layout.fillWidth: true }
            ToolButton { objectName: "dismissTerminalError"; focusPolicy: Qt.TabFocus
                         contentItem: IconLabel { icon: "close"; color: Theme.muted; iconSize: Theme.iconSmall }
                         Accessible.name: "Dismiss the error"
                         onClicked: userTerminals.dismissError() }
        }

        Rectangle {  // the live screen
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
            TerminalScreen {
                id: screen
                fontPixelSize: Theme.fontSmall
                objectName: "panelScreen"
                anchors.fill: parent
                anchors.margins: Theme.spaceSmall
                source: userTerminals
                terminalId: root.current.terminalId || ""
                rows: Math.max(1, fitRows)
                interactive: root.running
                showCursor: root.running
                selectable: true
                textColor: Theme.terminalText
                backgroundColor: Theme.terminalBackground
                cursorColor: Theme.terminalText
                selectionColor: Theme.terminalSelection
                reservedShortcuts: ["Ctrl+`", "Ctrl+L"]
                clip: true
                activeFocusOnTab: true
                Accessible.role: Accessible.EditableText
                Accessible.name: "Terminal " + (root.current.title || "")
                Accessible.description: "Ctrl+Shift+C copies, Ctrl+Shift+V pastes, Shift+Page Up scrolls back, "
                                        + "Ctrl+` or Ctrl+L returns to the message box"
                onFitColumnsChanged: syncSize()
                onFitRowsChanged: syncSize()
                onActiveFocusChanged: if (activeFocus && root.current.terminalId) userTerminals.focus(root.current.terminalId)
                function syncSize() { if (visible && fitColumns > 1 && fitRows > 0) userTerminals.setViewSize(fitColumns, fitRows) }
                Component.onCompleted: syncSize()
                onVisibleChanged: syncSize()
                TapHandler {
                    acceptedButtons: Qt.RightButton
                    onTapped: contextMenu.popup()
                }
                Menu {
                    id: contextMenu
                    objectName: "terminalContextMenu"
                    background: Elevated { implicitWidth: 200 }
                    MenuItem { text: "Copy"; enabled: screen !== null && screen.hasSelection; onTriggered: screen.copySelection()
                               Accessible.name: "Copy the selected text" }
                    MenuItem { text: "Paste"; enabled: root.running; onTriggered: screen.paste()
                               Accessible.name: "Paste into the terminal" }
                }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The chat's title, the question-directory toggle, the terminal panel's, and the chat's menu (find,
// export); the chats' toggle while a narrow window folds them away. The agent's name and state are the
// sidebar's footer's. The mode, model, options and usage are the composer's (SessionPickers).
ToolBar {
    id: root
    signal toggleDirectory()
    signal toggleTerminals()
    signal openSettings()
    signal openFind()
    signal openSearchAll()
    signal openInbox()
    signal toggleSidebar()
    objectName: "headerBar"
    property bool directoryOpen: false
    property bool sidebarFolded: false  // a narrow window folds the chats away: a button brings them back
    property bool sidebarShown: false
    // a narrow header drops words that icons and tooltips already say, so nothing is cut off
    readonly property bool narrow: width < Theme.narrowHeader
    RowLayout {
        objectName: "headerRow"
        anchors.fill: parent
        anchors.leftMargin: Theme.pad
        anchors.rightMargin: Theme.pad
        spacing: Theme.gap
        ToolButton {
            objectName: "sidebarToggle"
            visible: root.sidebarFolded
            checkable: true
            checked: root.sidebarShown
            contentItem: Icon { icon: "panel-left"; color: Theme.text }
            onClicked: root.toggleSidebar()
            Accessible.name: root.sidebarShown ? "Hide the chats" : "Show the chats"
            ToolTip.visible: hovered
            ToolTip.text: "Chats (Ctrl+B)"
        }
        Label {  // which chat, first; then with which agent (its state is the sidebar's footer's)
            objectName: "chatTitle"
            textFormat: Text.PlainText
            text: sessionHeader.title
            color: Theme.text
            font.pixelSize: Theme.fontBody; font.weight: Font.DemiBold
            elide: Text.ElideRight
            // its whole width, given up (elided) only when the header has no more room; a width that
            // fills the row would share the spare room with the spacer and elide a short title
            Layout.preferredWidth: implicitWidth
            Layout.minimumWidth: 0
        }
        AgentAvatar {
            objectName: "headerAgentMark"
            size: Theme.avatarSmall
            initials: agent.turnInitials  // the main chat's own agent (a tile's may run another)
            colourIndex: agent.turnColour
            Accessible.ignored: true  // the label beside it says it
        }
        Label {
            objectName: "headerAgent"
            textFormat: Text.PlainText
            text: agent.turnLabel + (agents.shownTarget ? " \u00b7 " + agents.shownTarget : "")
            color: Theme.text2
            font.pixelSize: Theme.fontSmall
            elide: Text.ElideRight  // its whole name, given up only when the header has no more room
            Layout.preferredWidth: implicitWidth
            Layout.minimumWidth: Theme.avatarLarge
            Accessible.name: "with the agent " + text
        }
        Item { Layout.fillWidth: true }
        ToolButton {  // everything that waits for the user in every chat, its count on it
            objectName: "inboxButton"
            text: "Inbox"
            contentItem: IconLabel { icon: "inbox"; label: root.narrow ? (inbox.count ? String(inbox.count) : "")
                                                              : inbox.count ? "Inbox \u00b7 " + inbox.count : "Inbox"
                                     color: inbox.waiting ? Theme.warning : Theme.text }
            onClicked: root.openInbox()
            Accessible.name: "Inbox" + (inbox.count ? ", " + inbox.count + (inbox.waiting ? ", " + inbox.waiting + " waiting for you" : "") : ", empty")
            ToolTip.visible: hovered
            ToolTip.text: "What waits for you in every chat (Ctrl+Shift+I)"
        }
        ToolButton {
            objectName: "questionToggle"
            text: "Questions"
            contentItem: IconLabel { icon: "list"; label: root.narrow ? "" : "Questions"
                                     color: parent.enabled ? Theme.text : Theme.muted }
            checkable: true
            checked: root.directoryOpen
            enabled: conversation.questions.length + conversation.questionsHidden >= 2
            onClicked: root.toggleDirectory()
            Accessible.name: "Question directory"
            ToolTip.visible: hovered
            ToolTip.text: "Jump to one of your questions (Ctrl+Shift+Q)"
        }
        ToolButton {
            objectName: "terminalToggle"
            text: "Terminal"
            contentItem: IconLabel { objectName: "terminalToggleLabel"; icon: "terminal"
                                     color: userTerminals.participating ? Theme.success : Theme.text
                                     label: root.narrow ? "" : userTerminals.participating ? "Terminal \u00b7 agent participating"
                                                                                          : "Terminal" }
            checkable: true
            checked: userTerminals.panelOpen
            onClicked: { checked = Qt.binding(() => userTerminals.panelOpen); root.toggleTerminals() }
            Accessible.name: (userTerminals.panelOpen ? "Hide the terminal panel" : "Show the terminal panel")
                             + (userTerminals.participating ? " (an agent is participating in a terminal)" : "")
            ToolTip.visible: hovered
            ToolTip.text: "Your terminals (Ctrl+`)"
        }
        ToolButton {
            objectName: "chatMenuButton"
            contentItem: IconLabel { icon: "ellipsis-vertical"; color: Theme.text }
            Accessible.name: "Chat menu"
            ToolTip.visible: hovered
            ToolTip.text: "Find, search every chat, export, review, protocol inspector"
            onClicked: chatMenu.popup(this, 0, height)
            Menu {
                id: chatMenu
                objectName: "chatMenu"
                MenuItem { objectName: "menuFind"; text: "Find in chat…"; onTriggered: root.openFind()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+F" } }
                MenuItem { objectName: "menuSearchAll"; text: "Search every chat…"; onTriggered: root.openSearchAll()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Shift+F" } }
                MenuItem { objectName: "menuExport"; text: "Export as Markdown…"
                           enabled: session.sessionKey !== "" && !chatExport.busy
                           onTriggered: chatExport.exportChat()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Shift+E"; enabled: parent.enabled } }
                MenuItem { objectName: "menuReviewAll"; text: "Review all changes…"
                           enabled: session.sessionKey !== "" && !session.readOnly
                           onTriggered: review.openChat()
                           contentItem: ShortcutLabel { label: parent.text; keys: "Ctrl+Shift+R"; enabled: parent.enabled } }
                MenuItem { objectName: "menuInspector"; text: inspector.isOpen ? "Hide protocol inspector" : "Protocol inspector"
                           onTriggered: inspector.setOpen(!inspector.isOpen)
                           contentItem: ShortcutLabel { label: parent.text; keys: "F12" } }
            }
        }
        ToolButton {
            objectName: "settingsButton"
            contentItem: IconLabel { icon: "settings"; color: Theme.text }
            onClicked: root.openSettings()
            Accessible.name: "Settings"
            ToolTip.visible: hovered
            ToolTip.text: "Settings (Ctrl+,)"
        }
    }
}

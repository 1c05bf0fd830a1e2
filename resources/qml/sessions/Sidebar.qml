import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQml.Models
import "../common"

// Sessions: the agent's (paged) plus the ones made here; heartbeat-only ones hidden, grouped by when
// they were last touched (a chat that needs you above them all), searched by title (Ctrl+K). A spinner
// marks a session whose turn runs, a dot one that finished unseen, "Needs you" one whose agent waits
// for a permission answer (the request is shown when the chat is opened); the others say when. Under the
// pointer a row offers pin, rename and delete (delete asks first); pinned chats stay at the top.
Rectangle {
    id: root
    objectName: "sidebar"
    color: Theme.sidebar
    signal chooseAgent()  // New chat with… (the picker)
    signal openAgentSettings()  // the footer's agent: Settings at Agents
    function focusSearch() { search.forceActiveFocus(); search.selectAll() }
    ColumnLayout {
        anchors.fill: parent
        anchors.margins: Theme.gap
        RowLayout {
            spacing: Theme.spaceHair
            Button {
                objectName: "newChatButton"
                Layout.fillWidth: true
                contentItem: IconLabel { icon: "plus"; label: "New chat"; color: Theme.text }
                onClicked: session.newChat()
                Accessible.name: agents.count > 1 ? "New chat with " + agents.lastUsedName + " (Ctrl+N)"
                                                  : "New chat (Ctrl+N)"
                PlainToolTip { visible: parent.hovered && agents.count > 1; text: "New chat with " + agents.lastUsedName + " (Ctrl+N)" }
            }
            Button {
                objectName: "chooseAgentButton"
                visible: agents.choiceCount > 1
                Layout.preferredWidth: implicitHeight  // a square beside New chat
                contentItem: IconLabel { icon: "chevron-down"; color: Theme.text }
                onClicked: root.chooseAgent()
                Accessible.name: "New chat with another agent (Ctrl+Shift+N)"
                ToolTip.visible: hovered
                ToolTip.text: "New chat with… (Ctrl+Shift+N)"
            }
        }
        TextField {
            id: search
            objectName: "sessionSearch"
            Layout.fillWidth: true
            placeholderText: "Search chats (Ctrl+K)"
            leftPadding: Theme.spaceField + Theme.iconSize + Theme.gap
            text: sessions.query
            onTextEdited: sessions.setQuery(text)
            Keys.onEscapePressed: (event) => { event.accepted = text !== ""; sessions.setQuery("") }
            rightPadding: viewMenuButton.width + (agentMenuButton.visible ? agentMenuButton.width : 0) + Theme.spaceTight
            Accessible.name: "Search chats (agent:name keeps one agent's chats)"
            Icon { icon: "search"; color: Theme.muted; x: Theme.spaceField; anchors.verticalCenter: parent.verticalCenter }
            ToolButton {  // how the list is grouped, and whether archived chats are listed
                id: viewMenuButton
                objectName: "sidebarViewButton"
                anchors.right: parent.right; anchors.verticalCenter: parent.verticalCenter
                contentItem: Icon { icon: "list"; size: Theme.iconMedium
                                    color: sessions.groupBy !== "date" || sessions.showArchived ? Theme.accent : Theme.muted }
                onClicked: viewMenu.popup(viewMenuButton, viewMenuButton.width - viewMenu.width, viewMenuButton.height)
                Accessible.name: "Group the chats, show archived chats"
                PlainToolTip { visible: viewMenuButton.hovered; text: "Group by date or folder; archived chats" }
                Menu {
                    id: viewMenu
                    objectName: "sidebarViewMenu"
                    MenuItem { objectName: "groupByDate"; text: "Group by date"; checkable: true
                               checked: sessions.groupBy === "date"; onTriggered: sessions.setGroupBy("date") }
                    MenuItem { objectName: "groupByFolder"; text: "Group by folder"; checkable: true
                               checked: sessions.groupBy === "folder"; onTriggered: sessions.setGroupBy("folder") }
                    MenuSeparator {}
                    MenuItem { objectName: "showArchived"; checkable: true; checked: sessions.showArchived
                               text: "Show archived chats" + (sessions.archivedCount ? " (" + sessions.archivedCount + ")" : "")
                               contentItem: ButtonText { horizontalAlignment: Text.AlignLeft }
                               onTriggered: sessions.setShowArchived(!sessions.showArchived) }
                }
            }
            ToolButton {  // "Show the chats of": writes the `agent:` word into the search
                id: agentMenuButton
                objectName: "agentMenuButton"
                visible: agents.count > 1
                anchors.right: viewMenuButton.left; anchors.verticalCenter: parent.verticalCenter
                contentItem: Icon { icon: "funnel"; size: Theme.iconMedium
                                    color: /(^|\s)agent:\S/i.test(sessions.query) ? Theme.accent : Theme.muted }
                onClicked: agentMenu.popup()
                Accessible.name: "Show the chats of one agent"
                PlainToolTip { visible: agentMenuButton.hovered; text: "Show the chats of\u2026" }
                Menu {
                    id: agentMenu
                    objectName: "agentMenu"
                    Instantiator {  // a menu takes its items from an Instantiator, not a Repeater
                        model: agents.filterChoices
                        delegate: MenuItem {
                            required property var modelData
                            objectName: "agentMenu_" + (modelData.value || "all")
                            text: modelData.text
                            contentItem: ButtonText { horizontalAlignment: Text.AlignLeft }  // an agent's name, as written
                            onTriggered: root.showChatsOf(modelData.value)
                        }
                        onObjectAdded: (index, item) => agentMenu.insertItem(index, item)
                        onObjectRemoved: (index, item) => agentMenu.removeItem(item)
                    }
                }
            }
        }
        Text {  // a search reads the agent's older pages too, and says so while they come
            objectName: "searchingOlder"
            visible: sessions.searchingOlder
            Layout.fillWidth: true
            leftPadding: Theme.spaceField
            textFormat: Text.PlainText
            text: "Searching older chats\u2026"
            color: Theme.muted
            font.pixelSize: Theme.fontCaption
        }
        ListView {
            id: sessionView
            objectName: "sessionList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: sessions.sessionModel
            spacing: Theme.spaceHair
            keyNavigationEnabled: true
            onAtYEndChanged: if (atYEnd && sessions.hasMore) sessions.loadMore()
            section.property: "section"
            section.delegate: Text {
                required property string section
                objectName: "sessionGroup"
                width: ListView.view ? ListView.view.width : 0
                textFormat: Text.PlainText
                text: section
                elide: Text.ElideRight  // a folder's name comes first: what is cut is where it is
                rightPadding: Theme.spaceField
                font.pixelSize: Theme.fontCaption
                font.weight: Font.Medium
                color: section === "Needs you" ? Theme.warning : Theme.muted
                topPadding: Theme.pad
                bottomPadding: Theme.spaceTight
                leftPadding: Theme.spaceField
            }
            ColumnLayout {  // no row to show: a search that matches nothing, or no chat yet, drawn and said
                objectName: "sessionListEmpty"
                visible: sessionView.count === 0
                width: parent.width
                y: Theme.spaceHuge
                spacing: Theme.gap
                Icon {
                    icon: sessions.query !== "" ? "search" : "message-square"
                    size: Theme.avatarSmall
                    color: Theme.muted
                    Layout.alignment: Qt.AlignHCenter
                    Accessible.ignored: true
                }
                Text {
                    objectName: sessions.query !== "" ? "noChatMatches" : "noChatsYet"
                    Layout.fillWidth: true
                    textFormat: Text.PlainText
                    text: sessions.query !== "" ? "No chat is called anything like \u201c" + sessions.query + "\u201d"
                          : sessions.archivedCount && !sessions.showArchived
                            ? "Every chat is archived. The list's menu shows them (" + sessions.archivedCount + ")."
                            : "Your chats will appear here. Start one with New chat (Ctrl+N)."
                    color: Theme.muted
                    font.pixelSize: Theme.fontSmall
                    horizontalAlignment: Text.AlignHCenter
                    wrapMode: Text.Wrap
                    leftPadding: Theme.spaceField; rightPadding: Theme.spaceField
                }
            }
            delegate: ItemDelegate {
                id: entry
                required property var modelData
                width: sessionView.width
                objectName: "sessionRow_" + modelData.key
                hoverEnabled: true  // the row's actions show under the pointer on every platform
                readonly property bool actionsShown: entry.hovered || entry.visualFocus
                highlighted: modelData.current
                // the open chat tinted, its text in the text colour (white on the accent was unreadable in
                // the dark); the keyboard's place outlined
                background: Rectangle {
                    radius: Theme.radiusSmall
                    color: entry.highlighted ? Theme.selected : entry.hovered ? Theme.hover : "transparent"
                    border.color: entry.visualFocus ? Theme.accent : "transparent"
                }
                Accessible.name: "Session " + modelData.title + (modelData.live ? ", working" : "")
                                 + (modelData.agentName ? ", with " + modelData.agentName : "")
                                 + (modelData.branchOf ? ", continues " + modelData.branchOf : "")
                                 + (modelData.needsYou ? ", needs you: " + modelData.needsYouWhy : "")
                contentItem: RowLayout {
                    AgentAvatar {  // the row's name says it
                        objectName: "sessionAgentMark"
                        visible: entry.modelData.agentInitials !== ""
                        size: 18
                        initials: entry.modelData.agentInitials
                        colourIndex: entry.modelData.agentColour
                        PlainToolTip { visible: markHover.hovered; text: entry.modelData.agentName }
                        HoverHandler { id: markHover }
                    }
                    Spinner { visible: entry.modelData.live; size: Theme.iconSmall
                              Accessible.ignored: true }  // the row's name says it
                    Rectangle { visible: entry.modelData.unseen && !entry.modelData.live; width: 8; height: 8
                                radius: Theme.radiusSmall; color: Theme.accent }
                    Icon {  // a chat that continues another (Continue from here, Edit and resend)
                        objectName: "sessionBranchMark"
                        visible: (entry.modelData.branchOf || "") !== ""
                        icon: "git-branch"; size: Theme.iconSmall; color: Theme.muted
                        PlainToolTip { visible: branchHover.hovered; text: "Continues \u201c" + entry.modelData.branchOf + "\u201d" }
                        HoverHandler { id: branchHover }
                    }
                    Label { textFormat: Text.PlainText; text: entry.modelData.title; elide: Text.ElideRight; Layout.fillWidth: true
                            color: Theme.text; font.weight: entry.modelData.needsYou || entry.modelData.unseen ? Font.DemiBold : Font.Normal }
                    Label {  // when, unless the row has more to say
                        objectName: "sessionWhen"
                        visible: text !== "" && !entry.modelData.live && !entry.modelData.needsYou && !entry.modelData.unseen
                                 && !entry.actionsShown
                        textFormat: Text.PlainText
                        text: entry.modelData.when || ""
                        font.pixelSize: Theme.fontCaption
                        color: Theme.muted
                    }
                    NeedsYouPill { objectName: "needsYouMark"; visible: entry.modelData.needsYou && !entry.actionsShown }
                    Loader {  // under the pointer or the keyboard: the row's own actions (also in its menu);
                        // made only then, not for every row at startup
                        active: entry.actionsShown
                        visible: active
                        sourceComponent: Row {
                            objectName: "sessionActions"
                            spacing: 0
                            RowAction { objectName: "sessionPin"; iconName: entry.modelData.pinned ? "pin-off" : "pin"
                                        tip: entry.modelData.pinned ? "Unpin" : "Pin to the top"
                                        onClicked: sessions.setPinned(entry.modelData.key, !entry.modelData.pinned) }
                            RowAction { objectName: "sessionRename"; iconName: "pencil"; tip: "Rename (F2)"
                                        onClicked: root.rename(entry.modelData.key, entry.modelData.title) }
                            RowAction { objectName: "sessionDelete"; iconName: "trash"; tip: "Delete\u2026 (Delete)"
                                        visible: sessions.canDelete
                                        onClicked: root.askDelete(entry.modelData.key, entry.modelData.title) }
                        }
                    }
                }
                onClicked: tiles.open(modelData.key)
                TapHandler { acceptedButtons: Qt.RightButton; onTapped: menu.popup() }
                Keys.onPressed: (event) => {
                    if (event.key === Qt.Key_F2) { root.rename(modelData.key, modelData.title); event.accepted = true }
                    else if (event.key === Qt.Key_Delete && sessions.canDelete) {
                        root.askDelete(modelData.key, modelData.title); event.accepted = true }
                    else if (event.key === Qt.Key_Menu) { menu.popup(); event.accepted = true }
                    else if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                             && (event.modifiers & Qt.ControlModifier)) {
                        tiles.openBeside(modelData.key); event.accepted = true }  // side by side
                    else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                        tiles.open(modelData.key); event.accepted = true }
                }
                Menu {
                    id: menu
                    MenuItem { text: entry.modelData.pinned ? "Unpin" : "Pin to the top"
                               onTriggered: sessions.setPinned(entry.modelData.key, !entry.modelData.pinned) }
                    MenuItem { objectName: "sessionBeside"; text: "Open side by side"
                               onTriggered: tiles.openBeside(entry.modelData.key) }
                    MenuItem { text: "Rename"; onTriggered: root.rename(entry.modelData.key, entry.modelData.title) }
                    MenuItem { objectName: "sessionArchive"; text: entry.modelData.archived ? "Back to the list" : "Archive"
                               onTriggered: sessions.setArchived(entry.modelData.key, !entry.modelData.archived) }
                    MenuItem { text: "Close"; enabled: sessions.canClose
                               onTriggered: sessions.close(entry.modelData.key) }
                    MenuItem { text: "Delete…"; enabled: sessions.canDelete
                               onTriggered: root.askDelete(entry.modelData.key, entry.modelData.title) }
                }
            }
        }
        Rectangle { Layout.fillWidth: true; implicitHeight: 1; color: Theme.border }  // the footer's divider
        RowLayout {  // the agent of the chat shown and where it is; Settings a click away
            objectName: "sidebarFooter"
            Layout.fillWidth: true
            spacing: Theme.gap
            ItemDelegate {
                id: agentStatus
                objectName: "agentStatus"
                Layout.fillWidth: true
                hoverEnabled: true
                background: Rectangle { radius: Theme.radiusSmall; color: agentStatus.hovered ? Theme.hover : "transparent" }
                contentItem: RowLayout {
                    spacing: Theme.gap
                    Rectangle {
                        implicitWidth: Theme.spaceSmall; implicitHeight: Theme.spaceSmall; radius: width / 2
                        color: agent.state === "ready" ? Theme.success
                             : agent.state === "working" || agent.state === "starting" || agent.state === "sign-in" ? Theme.warning
                             : Theme.danger
                    }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "agentStateLabel"
                        text: agent.label + (agents.shownTarget ? " \u00b7 " + agents.shownTarget : "")
                              + " \u00b7 " + (agent.state === "starting" ? "starting agent\u2026"
                                             : agent.state === "sign-in" ? "sign-in needed" : agent.state)
                        color: Theme.text2
                        font.pixelSize: Theme.fontSmall
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                    }
                }
                onClicked: root.openAgentSettings()
                Accessible.name: "Agent " + agent.label + (agents.shownTarget ? ", " + agents.shownTarget : "") + ", "
                                 + (agent.state === "sign-in" ? "sign-in needed" : agent.state) + ". Open its settings"
                PlainToolTip { visible: agentStatus.hovered; text: "The agent's settings" }
            }
            ToolButton {  // agents that offer it (ACP `logout`): the agent forgets the user's sign-in
                id: signOutButton
                objectName: "signOutButton"
                visible: signIn.canSignOut && !signIn.shown
                contentItem: Icon { icon: "log-out"; size: Theme.iconSmall; color: Theme.text2 }
                Accessible.name: "Sign out of " + agent.label
                PlainToolTip { visible: signOutButton.hovered; text: "Sign out of " + agent.label + "\u2026" }
                onClicked: root.askSignOut()
            }
        }
    }
    function showChatsOf(agentId) {  // the query's `agent:` word set (or taken away), its other words kept
        const rest = sessions.query.split(/\s+/).filter(word => word && !/^agent:/i.test(word))
        sessions.setQuery((agentId ? "agent:" + agentId + " " : "") + rest.join(" "))
    }
    // the dialogs are made the first time they are asked for: the window's start does not pay for them
    function rename(key, title) {
        renameLoader.active = true
        renameLoader.item.key = key
        renameLoader.item.field.text = title
        renameLoader.item.open()
    }
    function askDelete(key, title) {
        deleteLoader.active = true
        deleteLoader.item.key = key
        deleteLoader.item.chat = title
        deleteLoader.item.open()
    }
    function askSignOut() { signOutLoader.active = true; signOutLoader.item.open() }
    Loader {
        id: deleteLoader
        active: false
        sourceComponent: Dialog {  // deleting asks first: the agent deletes the chat, and nothing brings it back
            id: deleteDialog
            objectName: "deleteChatDialog"
            property string key: ""
            property string chat: ""
            title: "Delete this chat?"
            anchors.centerIn: Overlay.overlay
            modal: true
            Label { textFormat: Text.PlainText; width: 320; wrapMode: Text.Wrap; color: Theme.text
                    text: "“" + deleteDialog.chat + "” is deleted by its agent; it cannot be brought back." }
            footer: DialogButtonBox {
                DangerButton { objectName: "deleteChatConfirm"; text: "Delete"; DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole }
                Button { objectName: "deleteChatCancel"; text: "Cancel"; DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
            }
            onAccepted: sessions.delete(key)
        }
    }
    Loader {
        id: signOutLoader
        active: false
        sourceComponent: Dialog {  // signing out asks first: every chat with this agent needs a sign-in again
            objectName: "signOutDialog"
            title: "Sign out?"
            anchors.centerIn: Overlay.overlay
            modal: true
            contentWidth: 520  // the label wraps to it (its own natural width, read back, looped the binding)
            Label { textFormat: Text.PlainText; width: 520; wrapMode: Text.Wrap; color: Theme.text
                    text: "Sign out of " + agent.label + "? It forgets your sign-in, and ClawQt the keys it kept for it. You sign in again to chat with it." }
            footer: DialogButtonBox {
                DangerButton { objectName: "signOutConfirm"; text: "Sign out"; DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole }
                Button { text: "Cancel"; DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
            }
            onAccepted: signIn.signOut()
        }
    }
    Loader {
        id: renameLoader
        active: false
        sourceComponent: Dialog {
            id: renameDialog
            objectName: "renameChatDialog"
            property string key: ""
            property alias field: nameField
            title: "Rename session"
            standardButtons: Dialog.Ok | Dialog.Cancel
            anchors.centerIn: Overlay.overlay
            TextField { id: nameField; objectName: "renameChatField"; width: 260; onAccepted: renameDialog.accept() }
            onAccepted: sessions.rename(key, nameField.text)
        }
    }
}

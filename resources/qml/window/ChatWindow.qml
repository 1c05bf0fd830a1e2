import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../cards"
import "../common"
import "../composer"
import "../conversation"
import "../review"
import "../sessions"

// The chat window's content: the header, the chats, the conversation and its composer, the panels and
// the dialogs. Loaded into Main.qml's window once Python has bound the chat objects it uses, so the
// window's first frame (StartFrame) never waits for the main side.
Item {
    id: chatWindow
    objectName: "chatWindow"
    readonly property string chatTitle: sessionHeader.title
    // under this width the chats fold away (the header's Chats button, Ctrl+B, brings them back over the
    // chat; choosing one folds them again): the conversation keeps a readable column
    readonly property bool sidebarFolded: width < Theme.sidebarFoldWidth
    property bool sidebarShown: false
    onSidebarFoldedChanged: sidebarShown = false
    HeaderBar {
        id: headerBar
        anchors { left: parent.left; right: parent.right; top: parent.top }
        sidebarFolded: chatWindow.sidebarFolded
        sidebarShown: chatWindow.sidebarShown
        onToggleSidebar: chatWindow.sidebarShown = !chatWindow.sidebarShown
        directoryOpen: conversationView.directoryOpen
        onToggleDirectory: conversation.setDirectoryOpen(!conversation.directoryOpen)
        onToggleTerminals: if (userTerminals.panelOpen) chatWindow.hideTerminals(); else chatWindow.terminalFocus()
        onOpenSettings: chatWindow.openSettings()
        onOpenFind: conversationView.openFind()
        onOpenSearchAll: chatWindow.openSearchAll()
        onOpenInbox: chatWindow.openInbox()
    }

    // Ctrl+`: open the terminals and type in the one shown; pressed there, back to the composer
    function terminalFocus() {
        if (userTerminals.panelOpen && terminalPanel.item && terminalPanel.item.screenHasFocus) {
            composerView.input.forceActiveFocus()
            return
        }
        userTerminals.setPanelOpen(true)
        if (terminalPanel.item) terminalPanel.item.focusScreen()
    }
    function hideTerminals() {
        userTerminals.setPanelOpen(false)
        composerView.input.forceActiveFocus()
    }

    SplitView {
        id: mainSplit
        objectName: "mainSplit"
        anchors { left: parent.left; right: parent.right; top: headerBar.bottom; bottom: parent.bottom }
        // the panes' sizes the user left (view_memory.py), noted when a drag of a handle ends
        Component.onCompleted: restoreState(viewState.splitState("main"))
        onResizingChanged: if (!resizing) viewState.setSplitState("main", saveState())
        Sidebar { id: sidebar; SplitView.preferredWidth: 240; SplitView.minimumWidth: 160
                  visible: !chatWindow.sidebarFolded || chatWindow.sidebarShown
                  onChooseAgent: chatWindow.openAgentPicker()
                  onOpenAgentSettings: chatWindow.openSettingsAt("Agents") }
        SplitView {  // the chat above, the user's terminals below (hidden until opened)
            id: chatSplit
            objectName: "chatSplit"
            orientation: Qt.Vertical
            Component.onCompleted: restoreState(viewState.splitState("chat"))
            onResizingChanged: if (!resizing) viewState.setSplitState("chat", saveState())
            SplitView.fillWidth: true
            SplitView.minimumWidth: 360
            RowLayout {  // the main chat, then the chats beside it (tiles/items.py places them here)
                id: chatRow
                objectName: "chatRow"
                spacing: 0
                SplitView.fillHeight: true
                SplitView.minimumHeight: 200
                Item {
                    id: mainChat
                    objectName: "mainChat"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    Layout.preferredWidth: 100  // as a tile's: the row shares its width out evenly
                    Layout.minimumWidth: 300
                    ColumnLayout {
                        anchors.fill: parent
                        spacing: 0
                        Banner { Layout.fillWidth: true; onChooseAgent: chatWindow.openAgentPicker()
                                 onOpenSettings: chatWindow.openSettingsAt("Agents") }
                        TraceBanner { Layout.fillWidth: true }
                        BranchBanner { Layout.fillWidth: true }
                        Conversation { id: conversationView; objects: rowObjects; visible: !signIn.shown; Layout.fillWidth: true; Layout.fillHeight: true
                                       onFindClosed: composerView.input.forceActiveFocus()
                                       onSuggested: (text) => { composerView.input.text = text
                                                                composerView.input.cursorPosition = text.length
                                                                composerView.input.forceActiveFocus() } }
                        Loader {  // built only when needed: most starts never sign in
                            active: signIn.shown
                            visible: active
                            Layout.fillWidth: true; Layout.fillHeight: true
                            source: active ? paintedTypes.withTerminalScreen("../agents/SignInPanel.qml") : ""
                        }
                        Rectangle {
                            objectName: "noticeBar"
                            // the agent's callout above already says it: one failure is told once
                            visible: notices.notice.length > 0 && notices.notice !== (agent.banner.message || "")
                            Layout.fillWidth: true
                            implicitHeight: noticeRow.implicitHeight + Theme.pad
                            color: Theme.warningSubtle
                            ColumnLayout {
                                id: noticeRow
                                x: Theme.pad; y: Theme.spaceSmall
                                width: parent.width - 2 * Theme.pad
                                RowLayout {
                                    Layout.fillWidth: true
                                    Label { textFormat: Text.PlainText; text: notices.notice; wrapMode: Text.Wrap; Layout.fillWidth: true; color: Theme.text }
                                    ToolButton { id: detailsToggle; objectName: "noticeDetailsToggle"; checkable: true
                                                 visible: notices.details.length > 0
                                                 text: checked ? "Hide details" : "Details"
                                                 contentItem: IconLabel { icon: detailsToggle.checked ? "chevron-up" : "chevron-down"
                                                                          label: detailsToggle.text }
                                                 Accessible.name: checked ? "Hide the error's details" : "Show the error's details" }
                                    Button { id: openConfig; objectName: "openConfigButton"; visible: notices.configFile !== ""
                                             text: "Open config file"
                                             contentItem: IconLabel { icon: "file-text"; label: openConfig.text }
                                             onClicked: notices.openConfigFile()
                                             Accessible.name: "Open the config file " + notices.configFile }
                                    Button { id: retryButton; objectName: "retryButton"; visible: notices.canRetry; text: "Retry"
                                             contentItem: IconLabel { icon: "refresh-cw"; label: retryButton.text }
                                             onClicked: notices.retry() }
                                }
                                TextEdit {
                                    objectName: "noticeDetails"
                                    visible: detailsToggle.checked && notices.details.length > 0
                                    Layout.fillWidth: true
                                    text: notices.details
                                    readOnly: true; selectByMouse: true
                                    textFormat: TextEdit.PlainText
                                    wrapMode: TextEdit.WrapAnywhere
                                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                                    color: Theme.muted
                                }
                            }
                        }
                        QueuePanel { Layout.fillWidth: true; visible: queue.count > 0 && !session.readOnly }
                        Composer { id: composerView; Layout.fillWidth: true; enabled: !session.readOnly }
                        Item {  // an empty chat holds the composer mid-height, under the greeting, the last chats below
                            id: composerLift
                            objectName: "composerLift"
                            visible: conversationView.empty
                            Layout.fillWidth: true
                            Layout.fillHeight: true
                            RecentChats {
                                x: Theme.columnX(composerLift.width)
                                y: Theme.spaceLarge
                                width: Theme.columnWidth(composerLift.width)
                                visible: y + implicitHeight < composerLift.height && hasChats
                            }
                        }
                    }
                    Rectangle {  // which chat the keyboard is in, while more than one is on screen
                        objectName: "mainFocusRing"
                        anchors.fill: parent
                        color: "transparent"
                        border.width: 2
                        border.color: Theme.accent
                        visible: tiles.count > 0 && tiles.focusedPane === tilePane
                    }
                }
            }
            Loader {  // built the first time the panel opens: startup does not pay for it
                id: terminalPanel
                objectName: "terminalPanelLoader"
                active: userTerminals.panelOpen
                visible: active
                SplitView.preferredHeight: 300
                SplitView.minimumHeight: 140
                source: active ? paintedTypes.withTerminalScreen("../terminals/TerminalPanel.qml") : ""
                Connections { target: terminalPanel.item; function onHideRequested() { chatWindow.hideTerminals() } }
            }
            Loader {  // the protocol inspector (F12), built the first time it opens
                id: inspectorPanel
                objectName: "inspectorPanelLoader"
                active: inspector.isOpen
                visible: active
                SplitView.preferredHeight: 280
                SplitView.minimumHeight: 160
                source: active ? "../inspector/InspectorPanel.qml" : ""
                Connections { target: inspectorPanel.item; function onHideRequested() { inspector.setOpen(false) } }
            }
        }
        Loader {  // a turn's review (a footer's Review), built the first time it opens
            id: reviewPanel
            objectName: "reviewPaneLoader"
            active: review.isOpen
            visible: active
            SplitView.preferredWidth: Math.min(640, chatWindow.width / 2)
            SplitView.minimumWidth: 360
            source: active ? "../review/ReviewPane.qml" : ""
        }
        Loader {  // the attachment preview, made the first time one opens, then kept (shown or hidden)
            id: previewPanel
            objectName: "previewPanelLoader"
            readonly property bool wanted: attachments.preview.name !== undefined
            active: false
            onWantedChanged: if (wanted) active = true
            visible: wanted
            SplitView.preferredWidth: 400
            SplitView.minimumWidth: 240
            source: active ? "../cards/PreviewPanel.qml" : ""
        }
    }

    Loader {  // made the first time a link asks to be confirmed
        id: linkLoader
        active: false
        sourceComponent: Dialog {  // a link the main side wants confirmed: its real target, and why it asks
            objectName: "linkDialog"
            parent: Overlay.overlay
            anchors.centerIn: parent
            width: Math.min(560, chatWindow.width - 2 * Theme.spaceHuge)
            modal: true
            title: "Open this link?"
            onRejected: conversation.cancelLink()
            onAccepted: conversation.confirmLink()
            ColumnLayout {
                width: parent.width
                spacing: Theme.gap
                Label { textFormat: Text.PlainText; objectName: "linkReason"; text: "ClawQt asks because " + (conversation.pendingLink.reason || "")
                        wrapMode: Text.Wrap; Layout.fillWidth: true; color: Theme.text }
                TextEdit {  // selectable, plain: the exact target, nothing rendered from it
                    objectName: "linkTarget"
                    text: conversation.pendingLink.shown || ""
                    textFormat: TextEdit.PlainText
                    readOnly: true; selectByMouse: true
                    wrapMode: TextEdit.WrapAnywhere
                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                    color: Theme.text
                    Layout.fillWidth: true
                }
            }
            footer: DialogButtonBox {
                Button { objectName: "linkOpen"; text: "Open"; DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole }
                Button { objectName: "linkCancel"; text: "Cancel"; DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
            }
        }
    }
    Connections {  // opened and closed from here: a `visible` binding breaks at the first close
        target: conversation
        function onPendingLinkChanged() {
            if (conversation.pendingLink.shown !== undefined) {
                linkLoader.active = true
                linkLoader.item.open()
            } else if (linkLoader.item) {
                linkLoader.item.close()
            }
        }
    }

    Popup {  // the lightbox: an inline image or thumbnail shown large; Esc or a click closes it
        id: lightbox
        objectName: "lightbox"
        parent: Overlay.overlay
        anchors.centerIn: parent
        width: chatWindow.width * 0.9; height: chatWindow.height * 0.9
        modal: true
        focus: true
        visible: attachments.lightbox !== ""
        onClosed: attachments.closeLightbox()
        background: Rectangle { color: Theme.lightboxScrim; radius: Theme.radiusSmall }
        Image {
            objectName: "lightboxImage"
            anchors.fill: parent
            source: attachments.lightbox
            fillMode: Image.PreserveAspectFit
            TapHandler { onTapped: lightbox.close() }
        }
    }

    Loader {  // Restore to here's dialog, made the first time a message's checkpoint is asked for
        id: restoreLoader
        objectName: "restoreDialogLoader"
        active: false
        source: active ? "../review/RestoreDialog.qml" : ""
        Connections { target: checkpoints; function onChanged() { restoreLoader.active = true } }
    }
    Loader {  // made on first use: nothing of Settings costs the window's start
        id: settingsLoader
        active: false
        source: active ? "../settings/SettingsDialog.qml" : ""
    }
    Loader {  // made on first use, like Settings
        id: agentPickerLoader
        active: false
        source: active ? "../agents/AgentPicker.qml" : ""
    }
    Loader {  // made on first use, like Settings
        id: searchAllLoader
        active: false
        source: active ? "../search/SearchPane.qml" : ""
    }
    Loader {  // the protocol doctor (Settings > Agents, the inspector), made the first time it opens
        id: doctorLoader
        objectName: "doctorLoader"
        active: false
        source: active ? "../doctor/DoctorDialog.qml" : ""
        Connections {
            target: doctor
            function onChanged() {
                if (!doctor.isOpen) return
                doctorLoader.active = true
                if (!doctorLoader.item.opened) doctorLoader.item.open()
            }
        }
    }
    Loader {  // made on first use, like Settings
        id: inboxLoader
        active: false
        source: active ? "../inbox/InboxPanel.qml" : ""
    }
    function openInbox() {
        inboxLoader.active = true
        inboxLoader.item.top = headerBar.height
        if (inboxLoader.item.opened) inboxLoader.item.close(); else inboxLoader.item.open()
    }
    function openSearchAll() {
        searchAllLoader.active = true
        searchAllLoader.item.open()
    }
    function openAgentPicker() {
        agentPickerLoader.active = true
        agentPickerLoader.item.open()
    }
    function openSettings() {
        settingsLoader.active = true
        settingsLoader.item.open()
    }
    function openSettingsAt(section) {  // at one of its sections ("Agents")
        openSettings()
        settingsLoader.item.showSection(section)
    }
    Shortcut { sequences: [StandardKey.Preferences, "Ctrl+,"]; onActivated: chatWindow.openSettings() }
    Shortcut { sequences: [StandardKey.New]; onActivated: session.newChat() }
    Shortcut { sequence: "Ctrl+Shift+N"; onActivated: chatWindow.openAgentPicker() }
    Shortcut { sequence: "Ctrl+K"; onActivated: { if (chatWindow.sidebarFolded) chatWindow.sidebarShown = true
                                                   sidebar.focusSearch() } }
    Shortcut { sequence: "Ctrl+B"; enabled: chatWindow.sidebarFolded; onActivated: chatWindow.sidebarShown = !chatWindow.sidebarShown }
    Connections {  // a chat chosen from the folded chats: they fold again, the chat has the room
        target: session
        function onSessionChanged() { if (chatWindow.sidebarFolded) chatWindow.sidebarShown = false }
    }
    Shortcut { sequence: "Ctrl+L"; onActivated: composerView.input.forceActiveFocus() }
    // chats side by side (tiles/tiles.py): the keyboard moves between them, a new one opens beside
    Shortcut { sequence: "Ctrl+Alt+Right"; onActivated: tiles.focusNext() }
    Shortcut { sequence: "Ctrl+Alt+Left"; onActivated: tiles.focusPrevious() }
    Shortcut { sequence: "Ctrl+Alt+N"; onActivated: tiles.newBeside() }
    Shortcut { sequence: "Ctrl+Alt+W"; enabled: tiles.count > 0 && tiles.focusedPane !== tilePane
               onActivated: tiles.closeFocused() }
    Connections {
        target: tiles
        function onFocusChanged() { if (tiles.focusedPane === tilePane) composerView.input.forceActiveFocus() }
    }
    Connections {
        target: composerView.input
        function onActiveFocusChanged() { if (composerView.input.activeFocus) tiles.setFocusedPane(tilePane) }
    }
    Shortcut { sequence: "Ctrl+`"; onActivated: chatWindow.terminalFocus() }
    Shortcut { sequence: "Ctrl+Shift+Q"; onActivated: if (headerBar.enabled) conversation.setDirectoryOpen(!conversation.directoryOpen) }
    Shortcut { sequence: "Ctrl+End"; onActivated: conversationView.jumpToLatest() }
    Shortcut { sequence: "Esc"; enabled: session.busy && tiles.focusedPane === tilePane; onActivated: turn.stop() }
    Shortcut { sequence: "Esc"; enabled: !session.busy && attachments.preview.name !== undefined
               onActivated: attachments.closePreview() }
    Shortcut { sequences: [StandardKey.Open]; onActivated: composerFiles.chooseFiles() }
    Shortcut { sequences: [StandardKey.Find]; onActivated: conversationView.openFind() }
    Shortcut { sequence: "Ctrl+Shift+F"; onActivated: chatWindow.openSearchAll() }
    Shortcut { sequence: "Ctrl+Shift+I"; onActivated: chatWindow.openInbox() }
    Shortcut { sequence: "F12"; onActivated: inspector.setOpen(!inspector.isOpen) }
    Shortcut { sequence: "Ctrl+Shift+E"; enabled: session.sessionKey !== "" && !chatExport.busy
               onActivated: chatExport.exportChat() }
    Shortcut { sequence: "Ctrl+Shift+R"; enabled: session.sessionKey !== "" && !session.readOnly
               onActivated: review.openChat() }
    Shortcut { sequences: [StandardKey.FindNext]; enabled: search.isOpen; onActivated: search.next() }
    Shortcut { sequences: [StandardKey.FindPrevious]; enabled: search.isOpen; onActivated: search.previous() }
    // the find bar's marks take the theme's colours (a dark scheme must not keep light marks)
    readonly property var searchColours: [Theme.searchMatch, Theme.searchCurrent, Theme.searchText]
    onSearchColoursChanged: search.setColours(Theme.searchMatch, Theme.searchCurrent, Theme.searchText)
    // what the user typed into the start frame's composer before this was loaded: kept, cursor at its end
    function takeEarlyText(text) {
        composerView.input.insert(composerView.input.length, text)
        composerView.input.cursorPosition = composerView.input.length
    }
    Component.onCompleted: {
        search.setColours(Theme.searchMatch, Theme.searchCurrent, Theme.searchText)
        composerView.input.forceActiveFocus()
    }
}

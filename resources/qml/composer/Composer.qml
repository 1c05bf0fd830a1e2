import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Multi-line composer: Enter sends, Shift+Enter adds a line, Esc stops a running turn; slash-command
// completion from the agent's commands; `@` mentions files under the session's folder; files come in
// by the Attach button, drag-and-drop and paste (removable chips above the text); the draft is saved
// per session.
Rectangle {
    id: root
    property alias input: input
    // the card (a gap above, more below), inside it the chips, at most 220 of text, the toolbar
    implicitHeight: Theme.gap + Theme.spaceLarge + 2 * Theme.gap + (chips.visible ? chips.implicitHeight + Theme.spaceTight : 0)
                    + Math.min(220, input.implicitHeight) + Theme.spaceTight + toolbar.implicitHeight
    color: Theme.canvas
    // the `@word` being typed just before the cursor, or "" (no mention in progress)
    readonly property string mentionQuery: {
        var before = input.text.substring(0, input.cursorPosition)
        var match = before.match(/(^|\s)@([^\s@]*)$/)
        return match ? match[2] : ""
    }
    readonly property bool mentioning: {
        var before = input.text.substring(0, input.cursorPosition)
        return /(^|\s)@([^\s@]*)$/.test(before) && input.activeFocus
    }
    readonly property var mentionMatches: mentioning ? composerFiles.mentionCandidates(mentionQuery) : []

    DropArea {
        id: dropArea
        objectName: "composerDropArea"
        anchors.fill: parent
        keys: ["text/uri-list"]
        onDropped: (drop) => { composerFiles.addUrls(drop.urls); drop.accept(Qt.CopyAction) }
    }

    Popup {
        id: mentionPopup
        objectName: "mentionCompletion"
        y: -height - Theme.spaceTight
        x: Theme.pad
        width: Math.min(root.width - 2 * Theme.pad, 520)
        height: Math.min(260, mentionList.contentHeight + Theme.gap)
        visible: root.mentionMatches.length > 0
        closePolicy: Popup.NoAutoClose
        padding: Theme.spaceTight
        ListView {
            id: mentionList
            objectName: "mentionList"
            anchors.fill: parent
            model: root.mentionMatches
            currentIndex: 0
            clip: true
            delegate: ItemDelegate {
                required property var modelData
                width: mentionList.width
                highlighted: ListView.isCurrentItem
                text: modelData
                font.family: Theme.mono; font.features: Theme.codeFeatures
                background: Rectangle { radius: Theme.radiusSmall; color: parent.highlighted ? Theme.selected : "transparent" }
                contentItem: Text { textFormat: Text.PlainText; text: parent.text; font: parent.font; color: Theme.text; elide: Text.ElideMiddle }
                onClicked: root.mention(modelData)
            }
        }
    }
    readonly property var matches: {
        var text = input.text
        if (text.length === 0 || text[0] !== "/" || text.indexOf(" ") >= 0) return []
        var typed = text.substring(1).toLowerCase()
        return sessionHeader.commands.filter(c => c.name.toLowerCase().indexOf(typed) === 0)
    }

    Popup {
        id: completion
        objectName: "slashCompletion"
        y: -height - Theme.spaceTight
        x: Theme.pad
        width: Math.min(root.width - 2 * Theme.pad, 480)
        height: Math.min(240, commandList.contentHeight + Theme.gap)
        visible: root.matches.length > 0 && input.activeFocus
        closePolicy: Popup.NoAutoClose
        padding: Theme.spaceTight
        ListView {
            id: commandList
            objectName: "slashList"
            anchors.fill: parent
            model: root.matches
            currentIndex: 0
            clip: true
            delegate: ItemDelegate {
                required property var modelData
                required property int index
                width: commandList.width
                highlighted: ListView.isCurrentItem
                // a light selection, not the style's saturated highlight: the hint and the description
                // keep their own colours and stay readable on it (checked by contrast in the tests)
                background: Rectangle {
                    objectName: "slashItemBackground"
                    radius: Theme.radiusSmall
                    color: parent.highlighted ? Theme.selected : "transparent"
                }
                contentItem: Column {
                    Text { textFormat: Text.PlainText; objectName: "slashItemName"
                           text: "/" + modelData.name + (modelData.hint ? "  " + modelData.hint : "")
                           color: Theme.text; font.family: Theme.mono; font.features: Theme.codeFeatures }
                    Text { textFormat: Text.PlainText; objectName: "slashItemDescription"
                           text: modelData.description; color: Theme.muted; font.pixelSize: Theme.fontCaption
                           visible: text.length > 0; elide: Text.ElideRight; width: commandList.width - 2 * Theme.gap }
                }
                onClicked: root.complete(modelData.name)
            }
        }
    }

    Rectangle {  // the composer's card, in the conversation's reading column
        id: card
        objectName: "composerCard"
        x: Theme.columnX(root.width)
        y: Theme.gap
        width: Theme.columnWidth(root.width)
        height: root.height - Theme.gap - Theme.spaceLarge
        radius: Theme.radiusXl
        color: dropArea.containsDrag ? Theme.accentSubtle : Theme.surface
        border.width: 1
        border.color: input.activeFocus || dropArea.containsDrag ? Theme.accent : Theme.borderStrong
        Shadow { level: 1; radius: card.radius }
        ColumnLayout {
            anchors.fill: parent
            anchors.margins: Theme.gap
            spacing: Theme.spaceTight
            Flow {
                id: chips
                objectName: "attachmentChips"
                visible: composerFiles.count > 0
                Layout.fillWidth: true
                spacing: Theme.gap
                Repeater {
                    model: composerFiles.items
                    Rectangle {
                        id: chip
                        required property var modelData
                        objectName: "attachmentChip"
                        radius: Theme.radius / 2
                        color: Theme.sunken
                        border.color: Theme.border
                        implicitWidth: chipRow.implicitWidth + Theme.gap
                        implicitHeight: chipRow.implicitHeight + Theme.spaceSmall
                        Accessible.name: "Attached " + modelData.name
                        RowLayout {
                            id: chipRow
                            x: Theme.spaceTight; y: Theme.spaceHair
                            Image { visible: chip.modelData.thumbnail !== ""; source: chip.modelData.thumbnail
                                    objectName: "chipThumbnail"
                                    Layout.preferredWidth: 40; Layout.preferredHeight: 40
                                    fillMode: Image.PreserveAspectFit; cache: false
                                    HoverHandler { id: thumbHover }
                                    PlainToolTip { visible: thumbHover.hovered; text: chip.modelData.name } }
                            Text { visible: chip.modelData.thumbnail === ""; text: chip.modelData.name; color: Theme.text
                                   font.pixelSize: Theme.fontSmall; elide: Text.ElideMiddle; Layout.maximumWidth: 220
                                   textFormat: Text.PlainText }
                            ToolButton { objectName: "removeChip"
                                         contentItem: IconLabel { icon: "x"; iconSize: Theme.fontSmall; color: Theme.text }
                                         Accessible.name: "Remove " + chip.modelData.name
                                         onClicked: composerFiles.remove(chip.modelData.id) }
                        }
                    }
                }
            }


            ScrollView {
                Layout.fillWidth: true
                Layout.fillHeight: true
                TextArea {
                    textFormat: TextEdit.PlainText
                    id: input
                    objectName: "composerInput"
                    placeholderText: session.readOnly ? (session.readOnlyNote ? "Read-only: Close it to write again"
                                                                              : "A replayed trace is read-only: Close replay to write again")
                                     : session.busy ? "The agent is working\u2026 (Enter queues a message, Esc stops)"
                                     : "Message the agent (Enter to send, Shift+Enter for a new line)"
                    wrapMode: TextArea.Wrap
                    font.pixelSize: Theme.fontBody
                    background: Item {}  // the card is its frame
                    text: turn.draft  // then kept in step by the Connections below (typing ends a binding)
                    Accessible.name: "Message"
                    onTextChanged: turn.setDraft(text)
                    Keys.onPressed: (event) => {
                        if (event.matches(StandardKey.Paste) && composerFiles.pasteFromClipboard()) {
                            event.accepted = true  // an image or copied files became attachments
                        } else if (mentionPopup.visible && (event.key === Qt.Key_Down || event.key === Qt.Key_Up)) {
                            mentionList.currentIndex = Math.max(0, Math.min(root.mentionMatches.length - 1,
                                mentionList.currentIndex + (event.key === Qt.Key_Down ? 1 : -1)))
                            event.accepted = true
                        } else if (mentionPopup.visible && (event.key === Qt.Key_Tab
                                   || ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                                       && !(event.modifiers & Qt.ShiftModifier)))) {
                            root.mention(root.mentionMatches[Math.max(0, mentionList.currentIndex)])
                            event.accepted = true
                        } else if (completion.visible && (event.key === Qt.Key_Down || event.key === Qt.Key_Up)) {
                            commandList.currentIndex = Math.max(0, Math.min(root.matches.length - 1,
                                commandList.currentIndex + (event.key === Qt.Key_Down ? 1 : -1)))
                            event.accepted = true
                        } else if (completion.visible && (event.key === Qt.Key_Tab
                                   || ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                                       && !(event.modifiers & Qt.ShiftModifier)))) {
                            root.complete(root.matches[Math.max(0, commandList.currentIndex)].name)
                            event.accepted = true
                        } else if (event.key === Qt.Key_Up && !(event.modifiers & ~Qt.KeypadModifier)
                                   && (input.text === "" || (root.walkIndex >= 0 && input.text === root.walkText))) {
                            root.walkPrompts(1)  // an empty composer walks this chat's earlier prompts
                            event.accepted = true
                        } else if (event.key === Qt.Key_Down && !(event.modifiers & ~Qt.KeypadModifier)
                                   && root.walkIndex >= 0 && input.text === root.walkText) {
                            root.walkPrompts(-1)
                            event.accepted = true
                        } else if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                                   && !(event.modifiers & Qt.ShiftModifier)) {
                            root.send()
                            event.accepted = true
                        } else if (event.key === Qt.Key_Escape && session.busy) {
                            turn.stop()
                            event.accepted = true
                        }
                    }
                }
            }
            RowLayout {  // the card's toolbar: attach on the left, the turn's controls on the right
                id: toolbar
                Layout.fillWidth: true
                ToolButton {  // "+" as in most chat apps: the tooltip and the accessible name say what it does
                    objectName: "attachButton"
                    contentItem: IconLabel { icon: "plus"; iconSize: Theme.iconSize; color: Theme.text2 }
                    Accessible.name: "Attach files"
                    ToolTip.visible: hovered; ToolTip.text: "Attach files (or drop them here, or paste an image)"
                    onClicked: composerFiles.chooseFiles()
                }
                Rectangle { visible: pickers.visibleChildren.length > 0; width: 1; height: Theme.iconSize; color: Theme.border }
                SessionPickers { id: pickers; narrow: card.width < Theme.proseWidth * 0.75 }
                Item { Layout.fillWidth: true }
                Spinner {
                    objectName: "workingIndicator"
                    visible: session.busy
                    Layout.alignment: Qt.AlignBottom
                    Layout.bottomMargin: Theme.spaceSmall
                    Accessible.name: "The agent is working"
                }
                Button {  // round, as the send button of the chat apps users know: an icon, its words in a tooltip
                    id: sendButton
                    objectName: "sendButton"
                    // while a turn runs a message is queued (sent when the agent finishes): the button says so
                    readonly property bool queues: !session.readOnly && (session.busy || session.sessionKey === "")
                    visible: !session.busy || input.text.trim().length > 0 || composerFiles.count > 0
                    text: queues ? "Queue" : "Send"
                    highlighted: true
                    Layout.alignment: Qt.AlignBottom
                    implicitWidth: Theme.controlHeight; implicitHeight: Theme.controlHeight
                    padding: 0
                    contentItem: Icon {
                        icon: sendButton.queues ? "list-plus" : "arrow-up"
                        color: Theme.textOnAccent
                    }
                    background: RoundLook { control: sendButton; fill: Theme.accent; fillHover: Theme.accentHover }
                    enabled: input.text.trim().length > 0 || composerFiles.count > 0
                    Accessible.name: queues ? "Queue message (sent when the agent finishes)" : "Send message"
                    ToolTip.visible: hovered
                    ToolTip.text: !queues ? "Send (Enter)"
                                  : session.sessionKey === "" ? "Queue: sent as soon as the chat is open (Enter)"
                                  : "Queue: sent when the agent finishes (Enter)"
                    onClicked: root.send()
                }
                Button {
                    id: stopButton
                    objectName: "stopButton"
                    visible: session.busy
                    text: "Stop"
                    Layout.alignment: Qt.AlignBottom
                    implicitWidth: Theme.controlHeight; implicitHeight: Theme.controlHeight
                    padding: 0
                    contentItem: Icon { icon: "square"; color: Theme.text; size: Theme.iconMedium }
                    background: RoundLook { control: stopButton; fill: Theme.surface; fillHover: Theme.hover
                                            edge: Theme.borderStrong }
                    Accessible.name: "Stop the agent"
                    ToolTip.visible: hovered; ToolTip.text: "Stop (Esc)"
                    onClicked: turn.stop()
                }
            }
        }
    }

    Connections {  // another session's draft, a cancelled queued message, a sent one
        target: turn
        function onDraftChanged() { if (input.text !== turn.draft) input.text = turn.draft }
    }

    // Up/Down in an empty composer: the chat's earlier prompts, newest first (like a shell's history).
    // Walking goes on while the text is the prompt shown; typing anything makes it the user's draft.
    property int walkIndex: -1  // -1: not walking; 0: the newest prompt
    property string walkText: ""
    function walkPrompts(step) {
        if (input.text === "") walkIndex = -1
        const next = walkIndex + step
        if (next < 0) {  // past the newest: back to an empty composer
            walkIndex = -1; walkText = ""; input.text = ""
            return
        }
        const text = conversation.earlierPrompt(next)
        if (text === "") return  // nothing older: the oldest stays
        walkIndex = next; walkText = text; input.text = text
        input.cursorPosition = input.length
    }
    function send() {  // while a turn runs, the message is queued (turn.py)
        if (input.text.trim().length === 0 && composerFiles.count === 0) return
        turn.send(input.text)
        input.text = ""
    }
    function mention(relative) {
        var before = input.text.substring(0, input.cursorPosition)
        var after = input.text.substring(input.cursorPosition)
        var start = before.lastIndexOf("@")
        input.text = before.substring(0, start) + "@" + relative + " " + after
        input.cursorPosition = start + relative.length + 2
        composerFiles.addMention(relative)
    }
    function complete(name) {
        input.text = "/" + name + " "
        input.cursorPosition = input.text.length
    }
}

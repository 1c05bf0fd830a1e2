import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../elicitation"

// The inbox (Ctrl+Shift+I, the header's Inbox): everything that waits for the user in every chat, the
// newest first. A permission request is answered in place (Allow / Deny: its once-options), and so is a
// question's form (its fields as on its card, Send / Decline; what is typed is the card's too); a
// proposal is dismissed here and run from its card (Open to run), as is a link to open; a turn that
// ended out of sight is there until its chat is shown. Up/Down move, Enter opens, Esc closes.
Popup {
    id: root
    objectName: "inboxPanel"
    parent: Overlay.overlay
    x: parent.width - width - Theme.pad
    property real top: 0  // under the header: where the window places it
    y: top
    width: Math.min(420, parent.width - 2 * Theme.pad)
    height: Math.min(list.contentHeight + heading.implicitHeight + 3 * Theme.pad + (list.count ? 0 : empty.implicitHeight),
                     parent.height - y - Theme.pad)
    padding: Theme.pad
    focus: true
    onOpened: { list.currentIndex = 0; list.forceActiveFocus() }

    ColumnLayout {
        anchors.fill: parent
        spacing: Theme.gap
        Accessible.role: Accessible.Dialog
        Accessible.name: "Inbox: what waits for you"
        Label {
            id: heading
            textFormat: Text.PlainText
            text: inbox.waiting ? "Waiting for you" : "Inbox"
            font.bold: true; font.pixelSize: Theme.fontBody
            color: Theme.text
            Accessible.role: Accessible.Heading
        }
        Text {
            id: empty
            objectName: "inboxEmpty"
            visible: list.count === 0
            textFormat: Text.PlainText
            text: "Nothing waits for you. Permission requests, questions and finished turns of every chat come here."
            color: Theme.muted
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }
        ListView {
            id: list
            objectName: "inboxList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: inbox.items
            spacing: Theme.spaceHair
            keyNavigationEnabled: true
            highlightMoveDuration: 0
            Keys.onReturnPressed: if (currentItem) inbox.open(currentItem.entry.id)
            Keys.onEnterPressed: if (currentItem) inbox.open(currentItem.entry.id)
            delegate: ItemDelegate {
                id: row
                required property var modelData
                required property int index
                readonly property var entry: modelData
                objectName: "inboxItem_" + modelData.kind
                width: list.width
                highlighted: ListView.isCurrentItem
                Accessible.name: modelData.title + ": " + modelData.words + (modelData.when ? ", " + modelData.when : "")
                onClicked: inbox.open(modelData.id)
                background: Rectangle { radius: Theme.radiusSmall
                                        color: row.highlighted ? Theme.selected : row.hovered ? Theme.hover : "transparent" }
                contentItem: ColumnLayout {
                    spacing: Theme.spaceHair
                    RowLayout {
                        spacing: Theme.gap
                        Icon { icon: row.modelData.kind === "permission" ? "shield-alert"
                                     : row.modelData.kind === "question" ? "circle-question-mark"
                                     : row.modelData.kind === "proposal" ? "square-terminal"
                                     : row.modelData.kind === "failed" ? "circle-x" : "circle-check"
                               color: row.modelData.kind === "done" ? Theme.muted
                                    : row.modelData.kind === "failed" ? Theme.danger : Theme.warning
                               size: Theme.iconMedium; Accessible.ignored: true }
                        Label { textFormat: Text.PlainText; text: row.modelData.title; font.weight: Font.DemiBold
                                color: Theme.text; elide: Text.ElideRight; Layout.fillWidth: true }
                        Label { textFormat: Text.PlainText; text: row.modelData.when; color: Theme.muted
                                font.pixelSize: Theme.fontCaption }
                    }
                    Label { objectName: "inboxWords"; textFormat: Text.PlainText; text: row.modelData.words
                            color: Theme.text2; wrapMode: Text.Wrap; maximumLineCount: 3; elide: Text.ElideRight
                            Layout.fillWidth: true; Layout.preferredWidth: 0; leftPadding: Theme.iconMedium + Theme.gap }
                    ColumnLayout {  // a question's form, answered here as on its card
                        objectName: "inboxForm"
                        visible: row.modelData.fields.length > 0
                        Layout.fillWidth: true
                        Layout.leftMargin: Theme.iconMedium + Theme.gap
                        spacing: Theme.gap
                        Repeater {
                            model: row.modelData.fields
                            QuestionField {
                                required property var modelData
                                Layout.fillWidth: true
                                answers: questions
                                requestId: row.modelData.requestId
                                field: modelData
                                onSubmit: questions.send(row.modelData.requestId)
                                onDismiss: root.close()
                            }
                        }
                        Text {  // the answer could not go (the question ended meanwhile, the agent is gone)
                            objectName: "inboxFormProblem"
                            readonly property string said: { questions.revision; return questions.problem(row.modelData.requestId, "") }
                            visible: said !== ""
                            textFormat: Text.PlainText
                            text: said
                            color: Theme.danger
                            font.pixelSize: Theme.fontSmall
                            wrapMode: Text.Wrap
                            Layout.fillWidth: true
                        }
                    }
                    RowLayout {
                        spacing: Theme.gap
                        Layout.leftMargin: Theme.iconMedium + Theme.gap
                        Button { objectName: "inboxSend"; text: "Send"; visible: row.modelData.fields.length > 0; highlighted: true
                                 Accessible.name: "Send the answer: " + row.modelData.words
                                 onClicked: questions.send(row.modelData.requestId) }
                        Button { objectName: "inboxDecline"; text: "Decline"; visible: row.modelData.fields.length > 0
                                 Accessible.name: "Decline to answer: " + row.modelData.words
                                 onClicked: questions.decline(row.modelData.requestId) }
                        Button { objectName: "inboxAllow"; text: "Allow"; visible: row.modelData.canAllow; highlighted: true
                                 Accessible.name: "Allow once: " + row.modelData.words
                                 onClicked: inbox.allow(row.modelData.id) }
                        Button { objectName: "inboxDeny"; text: "Deny"; visible: row.modelData.canDeny
                                 Accessible.name: "Deny: " + row.modelData.words
                                 onClicked: inbox.deny(row.modelData.id) }
                        Button { objectName: "inboxDismiss"; text: "Dismiss"; visible: row.modelData.kind === "proposal"
                                 Accessible.name: "Dismiss the proposal: " + row.modelData.words
                                 onClicked: inbox.dismiss(row.modelData.id) }
                        Button { objectName: "inboxOpen"; text: row.modelData.kind === "proposal" ? "Open to run" : "Open"; flat: true
                                 Accessible.name: "Open the chat: " + row.modelData.title
                                 onClicked: inbox.open(row.modelData.id) }
                    }
                }
            }
        }
    }
}

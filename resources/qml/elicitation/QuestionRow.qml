import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../conversation"

// The agent's question as a card of the turn, set apart while it waits (amber, "Needs you", as a
// permission): a form's fields with Send, Decline and Cancel, or a link with the host it really opens
// (and a warning when the host may imitate another) and Open, Decline, Cancel. Keyboard: Tab through the
// fields and buttons, Enter sends, Esc cancels; a question that arrives while the composer is empty takes
// the keyboard. Once it ended, one quiet line says how, with what was sent under it.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var question
    required property bool first
    objectName: "questionRow"
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + box.implicitHeight + Theme.pad
    readonly property bool waiting: question.waiting && !objects.questions.readOnly  // answerable here
    readonly property QtObject answers: objects.questions
    Accessible.role: Accessible.Grouping
    Accessible.name: (waiting ? "The agent asks: " : "The agent asked: ") + question.title

    function send() { answers.send(question.requestId) }
    function cancel() { answers.cancel(question.requestId) }
    Component.onCompleted: if (waiting && objects.turn.draft === "" && fields.count > 0) fields.itemAt(0).focusEditor()

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    Rectangle {
        id: box
        objectName: "questionCard"
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        implicitHeight: content.implicitHeight + 2 * (root.waiting ? Theme.pad : Theme.spaceTight)
        radius: Theme.radiusLarge
        color: root.waiting ? Theme.warningSubtle : "transparent"
        border.color: Theme.warningBorder
        border.width: root.waiting ? 1 : 0
        Shadow { visible: root.waiting; level: 1; radius: box.radius }

        ColumnLayout {
            id: content
            x: root.waiting ? Theme.pad : 0; y: root.waiting ? Theme.pad : Theme.spaceTight
            width: parent.width - 2 * x
            spacing: Theme.gap

            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                Icon { icon: root.waiting ? "circle-question-mark"
                             : root.question.status === "accept" ? "circle-check" : "circle-slash"
                       color: root.waiting ? Theme.warning : root.question.status === "accept" ? Theme.success : Theme.muted
                       size: root.waiting ? Theme.iconSize : Theme.iconMedium
                       Accessible.ignored: true }
                Text {
                    objectName: "questionTitle"
                    textFormat: Text.PlainText
                    text: root.question.title
                    color: root.waiting ? Theme.text : Theme.text2
                    font.weight: root.waiting ? Font.DemiBold : Font.Normal
                    wrapMode: Text.Wrap
                    Layout.fillWidth: root.waiting
                    Layout.maximumWidth: root.waiting ? -1 : content.width / 2
                    elide: Text.ElideRight
                    maximumLineCount: root.waiting ? 3 : 1
                }
                Text {
                    objectName: "questionEnding"
                    visible: !root.waiting
                    textFormat: Text.PlainText
                    text: root.question.waiting ? "Not answered in this trace" : root.question.ending
                    color: Theme.muted
                    font.pixelSize: Theme.fontSmall
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                NeedsYouPill { objectName: "questionWaiting"; visible: root.waiting }
            }
            Text {  // what the agent says it needs
                objectName: "questionMessage"
                visible: root.question.message !== "" && (root.waiting || root.question.mode === "refused")
                textFormat: Text.PlainText
                text: root.question.message
                color: Theme.text
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            Text {  // the form could not be shown: why
                objectName: "questionRefused"
                visible: root.question.refused !== ""
                textFormat: Text.PlainText
                text: root.question.refused
                color: Theme.danger
                font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }

            // a form
            Repeater {
                id: fields
                model: root.waiting ? root.question.fields : []
                QuestionField {
                    required property var modelData
                    Layout.fillWidth: true
                    answers: root.answers
                    requestId: root.question.requestId
                    field: modelData
                    onSubmit: root.send()
                    onDismiss: root.cancel()
                }
            }
            // a link: the host it really opens, before anything opens
            ColumnLayout {
                visible: root.waiting && root.question.mode === "url"
                Layout.fillWidth: true
                spacing: Theme.spaceSmall
                RowLayout {
                    spacing: Theme.spaceSmall
                    Icon { icon: "globe"; color: Theme.text2; size: Theme.iconSmall; Accessible.ignored: true }
                    Text { textFormat: Text.PlainText; text: "Opens"; color: Theme.text2 }
                    Text {
                        objectName: "questionHost"
                        textFormat: Text.PlainText
                        text: root.question.host
                        font.family: Theme.mono; font.weight: Font.DemiBold
                        color: Theme.text
                        Accessible.name: "Opens " + text
                    }
                }
                RowLayout {
                    visible: root.question.hostWarning !== ""
                    Layout.fillWidth: true
                    spacing: Theme.spaceSmall
                    Icon { icon: "triangle-alert"; color: Theme.danger; size: Theme.iconSmall; Accessible.ignored: true }
                    Text {
                        objectName: "questionHostWarning"
                        textFormat: Text.PlainText
                        text: root.question.hostWarning
                        color: Theme.danger
                        font.pixelSize: Theme.fontSmall
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                    }
                }
            }
            Text {  // the answer could not go (the question ended meanwhile, the agent is gone)
                objectName: "questionProblem"
                readonly property string said: { root.answers.revision; return root.answers.problem(root.question.requestId, "") }
                visible: root.waiting && said !== ""
                textFormat: Text.PlainText
                text: said
                color: Theme.danger
                font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            RowLayout {
                visible: root.waiting && root.question.mode !== "refused"
                spacing: Theme.spaceSmall
                Button {
                    id: sendButton
                    objectName: root.question.mode === "url" ? "questionOpen" : "questionSend"
                    text: root.question.mode === "url" ? "Open " + root.question.host : "Send"
                    contentItem: ButtonText {  // a host is the agent's: drawn as written
                        text: sendButton.text; font: sendButton.font; color: sendButton.palette.buttonText
                        elide: Text.ElideMiddle
                    }
                    highlighted: true
                    onClicked: root.question.mode === "url" ? root.answers.openLink(root.question.requestId) : root.send()
                    Keys.onReturnPressed: clicked()
                    Keys.onEnterPressed: clicked()
                    Keys.onEscapePressed: root.cancel()
                }
                Button {
                    objectName: "questionDecline"
                    text: "Decline"
                    onClicked: root.answers.decline(root.question.requestId)
                    Keys.onReturnPressed: clicked()
                    Keys.onEnterPressed: clicked()
                    Keys.onEscapePressed: root.cancel()
                }
                Button {
                    objectName: "questionCancel"
                    text: "Cancel"
                    flat: true
                    onClicked: root.cancel()
                    Keys.onReturnPressed: clicked()
                    Keys.onEnterPressed: clicked()
                    Keys.onEscapePressed: root.cancel()
                }
                Text {
                    visible: root.question.mode === "form"
                    textFormat: Text.PlainText
                    text: "Enter sends · Esc cancels"
                    color: Theme.muted
                    font.pixelSize: Theme.fontCaption
                }
            }
            // what the user typed into a question that ended unanswered: kept, to copy
            Text {
                objectName: "questionUnsent"
                readonly property var lines: { root.answers.revision; return root.answers.unsent(root.question.requestId) }
                visible: !root.waiting && lines.length > 0
                textFormat: Text.PlainText
                text: "Not sent:\n" + lines.join("\n")
                color: Theme.text2
                font.pixelSize: Theme.fontSmall
                wrapMode: Text.Wrap
                Layout.fillWidth: true
                Layout.leftMargin: Theme.iconMedium + Theme.gap
            }
            // what was sent, once answered
            Repeater {
                model: root.waiting ? [] : root.question.answers
                Text {
                    required property var modelData
                    objectName: "questionAnswer"
                    textFormat: Text.PlainText
                    text: modelData.label + ": " + modelData.value
                    color: Theme.text2
                    font.pixelSize: Theme.fontSmall
                    wrapMode: Text.Wrap
                    Layout.fillWidth: true
                    Layout.leftMargin: Theme.iconMedium + Theme.gap
                }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The review of one turn's changes (a footer's Review button) or of every turn of the chat (Review all
// changes, Ctrl+Shift+R): each changed file with its hunks under the message that started its turn, Keep
// and Undo per hunk, Keep all / Undo file per file, Undo all. Keys while it has focus:
// J or Down and K or Up move between the pending changes, Y keeps, U undoes, Esc closes. Built the
// first time it opens.
Rectangle {
    id: root
    objectName: "reviewPane"
    color: Theme.canvas
    border.color: Theme.border
    focus: true
    Accessible.role: Accessible.Pane
    Accessible.name: review.wholeChat ? "Review of every change of this chat" : "Review of this turn's changes"
    Component.onCompleted: forceActiveFocus()

    Keys.onPressed: (event) => {
        if (event.modifiers !== Qt.NoModifier && event.modifiers !== Qt.KeypadModifier) return
        if (event.key === Qt.Key_J || event.key === Qt.Key_Down) review.move(1)
        else if (event.key === Qt.Key_K || event.key === Qt.Key_Up) review.move(-1)
        else if (event.key === Qt.Key_Y) review.keepCurrent()
        else if (event.key === Qt.Key_U) review.undoCurrent()
        else if (event.key === Qt.Key_Escape) review.close()
        else return
        event.accepted = true
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: Theme.pad
        spacing: Theme.gap
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            Icon { icon: "git-compare"; size: Theme.iconSize; color: Theme.text2 }
            Label { textFormat: Text.PlainText; text: review.wholeChat ? "Review all changes" : "Review"
                    font.bold: true; font.pixelSize: Theme.fontTitle
                    color: Theme.text }
            Item { Layout.fillWidth: true }
            Button {
                objectName: "reviewSendComments"
                visible: review.commentCount > 0
                highlighted: true
                text: review.commentCount === 1 ? "Send 1 comment" : "Send " + review.commentCount + " comments"
                contentItem: ButtonText {}
                Accessible.name: "Send the comments to the agent as the next message"
                onClicked: review.sendComments()
            }
            DangerButton {
                objectName: "reviewUndoTurn"
                text: review.wholeChat ? "Undo every change" : "Undo all of this turn"
                enabled: review.files.length > 0
                onClicked: undoTurnConfirm.open()
            }
            ToolButton {
                objectName: "reviewClose"
                contentItem: Icon { icon: "x"; size: Theme.iconSize; color: Theme.text2 }
                Accessible.name: "Close the review"
                onClicked: review.close()
            }
        }
        Label {
            objectName: "reviewSaid"
            visible: review.said !== ""
            Layout.fillWidth: true
            textFormat: Text.PlainText
            text: review.said
            wrapMode: Text.Wrap
            color: Theme.danger; font.pixelSize: Theme.fontSmall
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            Label {
                objectName: "reviewCount"
                textFormat: Text.PlainText
                color: Theme.muted; font.pixelSize: Theme.fontSmall
                text: review.files.length === 0 ? "Nothing left to review"
                      : review.files.length + (review.files.length === 1 ? " file, " : " files, ")
                        + (review.count === 0 ? "every change kept"
                           : review.count + (review.count === 1 ? " change" : " changes") + " to decide")
            }
            Switch {
                objectName: "reviewSideBySide"
                text: "Side by side"
                checked: review.sideBySide
                onToggled: review.setSideBySide(checked)
                font.pixelSize: Theme.fontSmall
                Accessible.name: "Show the old and new lines side by side"
            }
            Label {
                visible: review.files.length > 0
                Layout.fillWidth: true
                Layout.minimumWidth: 0  // a narrow pane (a tile's) cuts the hint, never overlaps the switch
                elide: Text.ElideRight
                horizontalAlignment: Text.AlignRight
                textFormat: Text.PlainText
                text: "J and K move, Y keeps, U undoes, Esc closes"
                color: Theme.muted; font.pixelSize: Theme.fontCaption
            }
        }
        ScrollView {
            id: scroller
            Layout.fillWidth: true
            Layout.fillHeight: true
            contentWidth: availableWidth
            ColumnLayout {
                width: scroller.availableWidth
                spacing: Theme.pad
                Repeater {
                    model: review.files
                    ColumnLayout {
                        id: fileBox
                        required property var modelData
                        readonly property int stop: modelData.hunks.length === 0 ? review.stopOf(modelData.turn, modelData.path, "") : -1
                        objectName: "reviewFile"
                        Layout.fillWidth: true
                        spacing: Theme.spaceTight
                        Label {  // the whole chat's review: the message that started the turn, over its files
                            objectName: "reviewTurnLabel"
                            visible: !!fileBox.modelData.turnLabel
                            Layout.fillWidth: true
                            Layout.topMargin: Theme.gap
                            textFormat: Text.PlainText
                            elide: Text.ElideRight
                            text: fileBox.modelData.turnLabel || ""
                            color: Theme.text2; font.pixelSize: Theme.fontSmall; font.weight: Font.DemiBold
                        }
                        RowLayout {
                            Layout.fillWidth: true
                            spacing: Theme.gap
                            Icon { icon: fileBox.modelData.status === "created" ? "file-plus"
                                         : fileBox.modelData.status === "deleted" ? "file-minus" : "file-diff"
                                   size: Theme.iconSize; color: Theme.text2 }
                            Label { textFormat: Text.PlainText; text: fileBox.modelData.name; font.bold: true; color: Theme.text }
                            Label { textFormat: Text.PlainText; text: fileBox.modelData.status; color: Theme.muted
                                    font.pixelSize: Theme.fontCaption }
                            Label { textFormat: Text.PlainText; text: fileBox.modelData.path; color: Theme.muted
                                    font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle; Layout.fillWidth: true }
                            ToolButton {
                                objectName: "reviewKeepFile"
                                text: "Keep all"
                                contentItem: ButtonText {}
                                onClicked: review.keepFile(fileBox.modelData.turn, fileBox.modelData.path)
                                Accessible.name: "Keep every change to " + fileBox.modelData.name
                            }
                            ToolButton {
                                objectName: "reviewUndoFile"
                                text: "Undo file"
                                contentItem: ButtonText {}
                                onClicked: review.undoFile(fileBox.modelData.turn, fileBox.modelData.path)
                                Accessible.name: "Undo every change to " + fileBox.modelData.name
                            }
                        }
                        Rectangle {  // a file undone whole: why, and the keyboard's mark when it is there
                            visible: fileBox.modelData.hunks.length === 0
                            Layout.fillWidth: true
                            implicitHeight: wholeText.implicitHeight + 2 * Theme.spaceTight
                            radius: Theme.radius / 2
                            color: fileBox.stop === review.current ? Theme.accentSubtle : "transparent"
                            border.color: fileBox.stop === review.current ? Theme.accent : Theme.border
                            Label { id: wholeText; x: Theme.gap; y: Theme.spaceTight; width: parent.width - 2 * Theme.gap
                                    textFormat: Text.PlainText; wrapMode: Text.Wrap; color: Theme.text2
                                    font.pixelSize: Theme.fontSmall; text: fileBox.modelData.whole }
                            TapHandler { onTapped: review.goTo(fileBox.stop) }
                        }
                        Repeater {
                            model: fileBox.modelData.hunks
                            ReviewHunk {
                                required property var modelData
                                Layout.fillWidth: true
                                hunk: modelData
                                path: fileBox.modelData.path
                                turn: fileBox.modelData.turn
                                stop: modelData.kept ? -1 : review.stopOf(fileBox.modelData.turn, fileBox.modelData.path, modelData.id)
                            }
                        }
                    }
                }
            }
        }
    }

    Dialog {
        id: undoTurnConfirm
        objectName: "reviewUndoTurnConfirm"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: review.wholeChat ? "Undo every change of this chat?" : "Undo all of this turn?"
        Label {
            textFormat: Text.PlainText
            width: Math.min(420, root.width)
            wrapMode: Text.Wrap
            color: Theme.text
            text: (review.wholeChat ? "Every file the chat's turns changed is put back as it was before them, the newest turn first."
                                    : "Every file this turn changed is put back as it was before it.")
                  + " A file changed since is left as it is, and the review says which."
        }
        footer: DialogButtonBox {
            Button { text: "Cancel"; DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
            DangerButton { objectName: "reviewUndoTurnYes"; text: "Undo all"; DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole }
        }
        onAccepted: review.undoTurn()
        onClosed: root.forceActiveFocus()  // the keys work on the pane again
    }
}

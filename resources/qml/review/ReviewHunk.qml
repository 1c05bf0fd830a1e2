import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../cards"

// One hunk in the review pane: its lines as a diff, Keep and Undo with their keys; the hunk the
// keyboard is on has the accent's edge, a kept one is quiet with a "Kept" mark.
Rectangle {
    id: root
    required property var hunk   // {id, kept, diff, line}
    required property string path
    required property string turn
    required property int stop   // its place among the keyboard's stops (-1: kept)
    readonly property bool current: stop >= 0 && stop === review.current
    objectName: "reviewHunk"
    implicitHeight: column.implicitHeight + 2 * Theme.spaceTight
    radius: Theme.radius / 2
    color: current ? Theme.accentSubtle : "transparent"
    border.color: current ? Theme.accent : Theme.border
    border.width: current ? 2 : 1
    opacity: hunk.kept ? 0.6 : 1
    Accessible.role: Accessible.Grouping
    Accessible.name: "Change at line " + hunk.line + (hunk.kept ? ", kept" : "")

    TapHandler { onTapped: if (root.stop >= 0) review.goTo(root.stop) }

    ColumnLayout {
        id: column
        x: Theme.spaceTight; y: Theme.spaceTight
        width: parent.width - 2 * Theme.spaceTight
        spacing: Theme.spaceTight
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.gap
            Text { text: "Line " + root.hunk.line; color: Theme.muted; font.pixelSize: Theme.fontCaption
                   textFormat: Text.PlainText; Layout.fillWidth: true }
            StatusPill { visible: root.hunk.kept; status: "completed"; label: "Kept" }
            Button {
                id: keepButton
                objectName: "reviewKeepHunk"
                visible: !root.hunk.kept
                text: "Keep"
                contentItem: RowLayout {
                    spacing: Theme.spaceSmall
                    ButtonText { text: keepButton.text; font: keepButton.font; color: keepButton.palette.buttonText }
                    KeyCap { key: root.current ? "Y" : "" }
                }
                Accessible.name: "Keep this change"
                onClicked: { review.goTo(root.stop); review.keepCurrent() }
            }
            Button {
                id: undoButton
                objectName: "reviewUndoHunk"
                visible: !root.hunk.kept
                text: "Undo"
                contentItem: RowLayout {
                    spacing: Theme.spaceSmall
                    ButtonText { text: undoButton.text; font: undoButton.font; color: undoButton.palette.buttonText }
                    KeyCap { key: root.current ? "U" : "" }
                }
                Accessible.name: "Undo this change"
                onClicked: { review.goTo(root.stop); review.undoCurrent() }
            }
        }
        DiffView {
            Layout.fillWidth: true
            objects: rowObjects
            diff: root.hunk.diff
            showPath: false
            showHeader: false
            sideBySide: review.sideBySide
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: Theme.spaceSmall
            ComboBox {  // which line the comment is about, for a change of several lines
                id: commentLine
                objectName: "reviewCommentLine"
                visible: root.hunk.lastLine > root.hunk.line
                readonly property int first: root.hunk.line
                model: {
                    const lines = ["Whole change"]
                    for (let n = root.hunk.line; n <= Math.min(root.hunk.lastLine, root.hunk.line + 199); ++n)
                        lines.push("Line " + n)
                    return lines
                }
                currentIndex: root.hunk.commentLine > 0 ? root.hunk.commentLine - first + 1 : 0
                onActivated: (index) => review.setCommentLine(root.turn, root.path, root.hunk.id,
                                                              index === 0 ? 0 : first + index - 1)
                Accessible.name: "The line the comment is about"
            }
            TextField {  // what the user says about this change: sent with the others as the next message
                objectName: "reviewComment"
                Layout.fillWidth: true
                placeholderText: "Comment on this change (Send comments sends them all to the agent)"
                text: root.hunk.comment
                onTextEdited: review.setComment(root.turn, root.path, root.hunk.id, text)
                Keys.onEscapePressed: (event) => { focus = false; event.accepted = true }
                Accessible.name: "Comment on " + root.hunk.lines
            }
        }
    }
}

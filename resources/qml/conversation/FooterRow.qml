import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../cards"
import "../common"

// The end of an assistant turn: timing, the one copy action of the turn, and the files the agent
// changed in it (each with its diff against what the agent last read, and a revert).
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property int index
    required property var footer
    readonly property var files: footer.files || []
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: column.implicitHeight + Theme.spaceTight
    ColumnLayout {
        id: column
        x: Theme.columnX(root.width); y: Theme.spaceHair
        width: Theme.columnWidth(root.width)
        spacing: Theme.spaceHair
        RowLayout {
            Layout.fillWidth: true
            ToolButton {
                id: copy
                property bool copied: false
                contentItem: IconLabel { icon: copy.copied ? "check" : "copy"; label: copy.copied ? "Copied" : "Copy"
                                         color: Theme.muted; iconSize: Theme.fontSmall
                                         labelFont.pixelSize: Theme.fontCaption }
                Accessible.name: "Copy the agent's reply"
                onClicked: { root.objects.conversation.copyTurn(root.index); copied = true }
            }
            ToolButton {
                id: copyMarkdown
                objectName: "copyTurnMarkdown"
                property bool copied: false
                contentItem: IconLabel { icon: copyMarkdown.copied ? "check" : "file-text"
                                         label: copyMarkdown.copied ? "Copied" : "Copy as Markdown"
                                         color: Theme.muted; iconSize: Theme.fontSmall
                                         labelFont.pixelSize: Theme.fontCaption }
                Accessible.name: "Copy the whole turn as Markdown, tools and their output included"
                onClicked: { root.objects.conversation.copyTurnMarkdown(root.index); copied = true }
            }
            Text { textFormat: Text.PlainText; objectName: "turnTiming"; text: root.footer.timing || ""; color: Theme.muted; font.pixelSize: Theme.fontCaption }
            Item { Layout.fillWidth: true }
        }
        Rectangle {
            objectName: "filesChanged"
            visible: root.files.length > 0
            Layout.fillWidth: true
            implicitHeight: filesColumn.implicitHeight + 2 * Theme.gap
            radius: Theme.radius / 2
            color: "transparent"
            border.color: Theme.border
            ColumnLayout {
                id: filesColumn
                x: Theme.gap; y: Theme.gap
                width: parent.width - 2 * Theme.gap
                spacing: Theme.spaceHair
                RowLayout {
                    Layout.fillWidth: true
                    Text { textFormat: Text.PlainText; text: root.files.length === 1 ? "1 file changed" : root.files.length + " files changed"
                           font.bold: true; font.pixelSize: Theme.fontSmall; color: Theme.text; Layout.fillWidth: true }
                    ToolButton {
                        objectName: "reviewTurnButton"
                        text: "Review"
                        contentItem: IconLabel { icon: "git-compare"; label: "Review"; color: Theme.text
                                                 iconSize: Theme.iconSmall; labelFont.pixelSize: Theme.fontCaption }
                        Accessible.name: "Review this turn's changes hunk by hunk"
                        onClicked: root.objects.review.openTurn(root.footer.messageId)
                    }
                }
                Repeater {
                    model: root.files
                    ColumnLayout {
                        id: fileEntry
                        required property var modelData
                        readonly property bool open: !!modelData.open  // kept by the row's view state
                        Layout.fillWidth: true
                        spacing: 0
                        RowLayout {
                            Layout.fillWidth: true
                            ToolButton { id: diffToggle; objectName: "fileDiffToggle"
                                         text: fileEntry.modelData.name
                                         contentItem: IconLabel { icon: fileEntry.open ? "chevron-down" : "chevron-right"
                                                                  label: diffToggle.text; iconSize: Theme.iconSmall
                                                                  labelFont.pixelSize: Theme.fontSmall }
                                         onClicked: root.objects.timeline.togglePart(root.index, "file:" + fileEntry.modelData.path)
                                         Accessible.name: (fileEntry.open ? "Hide" : "Show") + " the diff of "
                                                          + fileEntry.modelData.name }
                            Text { text: (fileEntry.modelData.created ? "created  " : fileEntry.modelData.deleted ? "deleted  " : "")
                                         + (fileEntry.modelData.note ? fileEntry.modelData.note + "  " : "") + fileEntry.modelData.path
                                   color: Theme.muted; font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle
                                   Layout.fillWidth: true; textFormat: Text.PlainText }
                            DiffCounts { added: fileEntry.modelData.added; removed: fileEntry.modelData.removed }
                            ToolButton { objectName: "revertButton"; text: "Revert"
                                         contentItem: IconLabel { icon: "undo-2"; label: "Revert"; color: Theme.text
                                                                  iconSize: Theme.iconSmall; labelFont.pixelSize: Theme.fontCaption }
                                         Accessible.name: "Revert this turn's change to " + fileEntry.modelData.name
                                         onClicked: root.objects.fileChanges.revert(root.footer.messageId, fileEntry.modelData.path) }
                        }
                        Loader {  // built when opened: a closed file costs nothing
                            objectName: "fileDiff"
                            active: fileEntry.open
                            visible: active
                            Layout.fillWidth: true
                            sourceComponent: DiffView {
                                objects: root.objects; diff: fileEntry.modelData.diff; showPath: false
                                showAll: fileEntry.modelData.whole
                                onShowAllRequested: root.objects.timeline.togglePart(root.index, "whole:" + fileEntry.modelData.path)
                            }
                        }
                    }
                }
            }
        }
    }
}

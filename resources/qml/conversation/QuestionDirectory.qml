import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The question directory: floats over the conversation without changing the column width.
Rectangle {
    id: root
    objectName: "questionDirectory"
    signal chosen(int number)
    signal closed()
    width: 320
    height: Math.min(420, layout.implicitHeight + 2 * Theme.gap)
    radius: Theme.radius
    color: Theme.surface
    border.color: Theme.border
    Keys.onEscapePressed: closed()
    // opened (or a question added while open): the newest entry is the one in view and current
    onVisibleChanged: if (visible) entries.showNewest()
    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: Theme.gap
        Text { textFormat: Text.PlainText; text: "Questions"; font.bold: true; color: Theme.text }
        Text { textFormat: Text.PlainText; visible: conversation.questionsHidden > 0; color: Theme.muted; font.pixelSize: Theme.fontCaption
               text: conversation.questionsHidden + " more questions not shown" }
        ListView {
            id: entries
            objectName: "questionList"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 340)
            clip: true
            model: conversation.questions
            keyNavigationEnabled: true
            onCountChanged: if (root.visible) showNewest()
            function showNewest() {
                currentIndex = count - 1
                positionViewAtEnd()
            }
            delegate: ItemDelegate {
                id: entry
                required property var modelData
                objectName: "questionEntry"
                width: entries.width
                highlighted: ListView.isCurrentItem
                text: modelData.number + ". " + modelData.title
                contentItem: ButtonText {
                    horizontalAlignment: Text.AlignLeft
                    color: entry.highlighted ? entry.palette.highlightedText : entry.palette.text
                }
                PlainToolTip { visible: entry.hovered || (entry.activeFocus && entry.ListView.isCurrentItem); delay: 500
                               text: entry.modelData.text }
                Accessible.name: "Question " + modelData.number + ": " + modelData.title
                onClicked: root.chosen(modelData.number)
                Keys.onReturnPressed: root.chosen(modelData.number)
            }
        }
    }
}

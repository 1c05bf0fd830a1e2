import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

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
    ColumnLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: Theme.gap
        Text { text: "Questions"; font.bold: true; color: Theme.text }
        Text { visible: conversation.questionsHidden > 0; color: Theme.muted; font.pixelSize: 11
               text: conversation.questionsHidden + " more questions not shown" }
        ListView {
            id: entries
            objectName: "questionList"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 340)
            clip: true
            model: conversation.questions
            keyNavigationEnabled: true
            delegate: ItemDelegate {
                required property var modelData
                width: entries.width
                text: modelData.number + ". " + modelData.title
                Accessible.name: "Question " + modelData.number + ": " + modelData.title
                onClicked: root.chosen(modelData.number)
                Keys.onReturnPressed: root.chosen(modelData.number)
            }
        }
    }
}

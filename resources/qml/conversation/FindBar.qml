import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Find in the chat (Ctrl+F): floats over the top of the conversation. Enter goes to the next older
// match, Shift+Enter to the next newer one (F3 / Shift+F3 anywhere), Esc closes and gives the keyboard
// back to the composer. Matches are numbered from the newest; the count grows while a long chat is
// still being searched ("3 of 40+").
Rectangle {
    id: root
    objectName: "findBar"
    signal closed()
    visible: search.isOpen
    width: Math.min(420, parent ? parent.width - 2 * Theme.pad : 420)
    height: row.implicitHeight + 2 * Theme.gap
    radius: Theme.radius
    color: Theme.raised
    border.color: Theme.border
    Shadow { radius: root.radius }

    function focusField() { field.forceActiveFocus(); field.selectAll() }

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.margins: Theme.gap
        spacing: Theme.spaceSmall
        Icon { icon: "search"; color: Theme.muted; Accessible.ignored: true; Layout.alignment: Qt.AlignVCenter }
        TextField {
            id: field
            objectName: "findField"
            Layout.fillWidth: true
            placeholderText: "Find in this chat"
            text: search.query
            selectByMouse: true
            onTextEdited: search.setQuery(text)
            Accessible.name: "Find in this chat"
            Accessible.description: search.summary
            Keys.onReturnPressed: (event) => { if (event.modifiers & Qt.ShiftModifier) search.previous(); else search.next() }
            Keys.onEnterPressed: (event) => { if (event.modifiers & Qt.ShiftModifier) search.previous(); else search.next() }
            Keys.onEscapePressed: root.closed()
        }
        Text {
            textFormat: Text.PlainText
            objectName: "findSummary"
            text: search.summary
            color: search.query !== "" && search.count === 0 && search.complete ? Theme.danger : Theme.muted
            font.pixelSize: Theme.fontSmall
            Layout.minimumWidth: implicitWidth
        }
        ToolButton {
            objectName: "findOlder"
            enabled: search.count > 0
            contentItem: IconLabel { icon: "arrow-up"; color: Theme.text }
            Accessible.name: "Older match (Enter)"
            ToolTip.visible: hovered; ToolTip.delay: 500; ToolTip.text: "Older match (Enter, F3)"
            onClicked: search.next()
        }
        ToolButton {
            objectName: "findNewer"
            enabled: search.count > 0
            contentItem: IconLabel { icon: "arrow-down"; color: Theme.text }
            Accessible.name: "Newer match (Shift+Enter)"
            ToolTip.visible: hovered; ToolTip.delay: 500; ToolTip.text: "Newer match (Shift+Enter, Shift+F3)"
            onClicked: search.previous()
        }
        ToolButton {
            objectName: "findClose"
            contentItem: IconLabel { icon: "x"; color: Theme.text }
            Accessible.name: "Close find (Esc)"
            onClicked: root.closed()
        }
    }
}

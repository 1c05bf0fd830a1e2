import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import ClawQt.Terminal
import "../common"

// One terminal of the tab shown: its live screen (the keyboard goes to it when it has focus; a click
// or Tab there makes it the pane the header and the keys follow) and, when the tab is split, a title
// row saying which terminal it is, with its own close button.
Rectangle {
    id: pane
    required property string terminalId
    required property Item panel  // the TerminalPanel: it keeps the current pane's screen for focus
    readonly property var entry: userTerminals.entries[terminalId] || ({})
    readonly property bool isCurrent: terminalId === userTerminals.currentId
    readonly property bool split: userTerminals.layout.pane === undefined
    readonly property bool running: entry.state === "running"
    color: Theme.terminalBackground
    onIsCurrentChanged: if (isCurrent) panel.currentScreen = screen
    Component.onCompleted: if (isCurrent) panel.currentScreen = screen

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        Rectangle {  // which terminal this pane is (only when the tab shows more than one)
            objectName: "paneTitle_" + pane.terminalId
            visible: pane.split
            Layout.fillWidth: true
            implicitHeight: 26
            color: pane.isCurrent ? Theme.surface : Theme.sidebar
            Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 2
                        color: pane.isCurrent ? Theme.accent : Theme.border }
            TapHandler { onTapped: screen.forceActiveFocus() }
            RowLayout {
                anchors.fill: parent
                anchors.leftMargin: Theme.gap
                anchors.rightMargin: Theme.spaceHair
                spacing: Theme.spaceSmall
                IconLabel { icon: "terminal"; iconSize: Theme.fontSmall; color: pane.isCurrent ? Theme.text : Theme.muted }
                Text { textFormat: Text.PlainText; text: (pane.entry.title || "") + " \u00b7 " + (pane.entry.shell || "")
                       color: pane.isCurrent ? Theme.text : Theme.muted; font.pixelSize: Theme.fontCaption
                       font.bold: pane.isCurrent; elide: Text.ElideRight; Layout.fillWidth: true }
                IconLabel { objectName: "paneSharing"; icon: pane.panel.sharingIcon(pane.entry.sharing)
                            label: pane.entry.sharingLabel || ""; iconSize: Theme.fontCaption
                            color: pane.panel.sharingColour(pane.entry.sharing) }
                IconLabel { visible: pane.entry.participating === true; icon: "sparkles"; iconSize: Theme.fontCaption
                            label: (pane.entry.agentLabel || "") + " participating"; color: Theme.success }
                Text { textFormat: Text.PlainText; visible: pane.entry.state === "exited"; text: pane.entry.statusText || ""
                       color: Theme.muted; font.pixelSize: Theme.fontCaption }
                ToolButton {
                    objectName: "closePane_" + pane.terminalId
                    focusPolicy: Qt.TabFocus
                    implicitWidth: 22; implicitHeight: 22
                    contentItem: IconLabel { icon: "x"; iconSize: Theme.fontSmall; color: Theme.muted }
                    Accessible.name: "Close the pane " + (pane.entry.title || "")
                    onClicked: userTerminals.close(pane.terminalId)
                }
            }
        }
        TerminalScreen {
            id: screen
            objectName: pane.isCurrent ? "panelScreen" : "paneScreen_" + pane.terminalId
            Layout.fillWidth: true
            Layout.fillHeight: true
            Layout.margins: Theme.spaceSmall
            fontPixelSize: Theme.fontSmall
            source: userTerminals
            terminalId: pane.terminalId
            rows: Math.max(1, fitRows)
            interactive: pane.running
            showCursor: pane.running && (pane.isCurrent || !pane.split)
            selectable: true
            textColor: Theme.terminalText
            darkPalette: Theme.dark
            backgroundColor: Theme.terminalBackground
            cursorColor: Theme.terminalText
            selectionColor: Theme.terminalSelection
            reservedShortcuts: ["Ctrl+`", "Ctrl+L", "Ctrl+Alt+R", "Ctrl+Alt+D"]
            clip: true
            activeFocusOnTab: true
            Accessible.role: Accessible.EditableText
            Accessible.name: "Terminal " + (pane.entry.title || "")
            Accessible.description: "Ctrl+Shift+C copies, Ctrl+Shift+V pastes, Shift+Page Up scrolls back, "
                                    + "Ctrl+Alt+R splits right, Ctrl+Alt+D splits down, "
                                    + "Ctrl+` or Ctrl+L returns to the message box"
            onFitColumnsChanged: syncSize()
            onFitRowsChanged: syncSize()
            onTerminalIdChanged: syncSize()
            onActiveFocusChanged: if (activeFocus) userTerminals.focus(pane.terminalId)
            function syncSize() {
                if (visible && fitColumns > 1 && fitRows > 0) userTerminals.setPaneSize(pane.terminalId, fitColumns, fitRows)
            }
            Component.onCompleted: syncSize()
            onVisibleChanged: syncSize()
            TapHandler {
                acceptedButtons: Qt.RightButton
                onTapped: { screen.forceActiveFocus(); contextMenu.popup() }
            }
            Menu {
                id: contextMenu
                objectName: "terminalContextMenu"
                MenuItem { text: "Copy"; enabled: screen.hasSelection; onTriggered: screen.copySelection()
                           Accessible.name: "Copy the selected text" }
                MenuItem { text: "Paste"; enabled: pane.running; onTriggered: screen.paste()
                           Accessible.name: "Paste into the terminal" }
                MenuSeparator {}
                MenuItem { objectName: "splitRightItem"; text: "Split right"; enabled: pane.running
                           onTriggered: pane.panel.split("right") }
                MenuItem { objectName: "splitDownItem"; text: "Split down"; enabled: pane.running
                           onTriggered: pane.panel.split("down") }
                MenuItem { text: pane.split ? "Close pane" : "Close terminal"; onTriggered: userTerminals.close(pane.terminalId) }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import ClawQt.Terminal
import "../common"

// A terminal card body: cwd header, the rendered screen text, and the exit pill.
Rectangle {
    id: root
    property QtObject objects: null  // set by the Loader that makes it
    property var terminal
    onTerminalChanged: screen.refresh()
    property string toolId: ""
    property bool running: false
    implicitHeight: layout.implicitHeight + 2 * Theme.gap
    radius: Theme.radius / 2
    color: Theme.terminalBackground
    ColumnLayout {
        id: layout
        x: Theme.gap; y: Theme.gap
        width: root.width - 2 * Theme.gap
        RowLayout {
            Layout.fillWidth: true
            Text { textFormat: Text.PlainText; text: root.terminal.cwd || "terminal"; color: Theme.terminalMuted; font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                   Layout.fillWidth: true; elide: Text.ElideMiddle }
            Text {
                textFormat: Text.PlainText
                objectName: "terminalExit"
                text: {
                    if (!root.terminal.exited)
                        return root.running ? "running" : ""
                    const how = root.terminal.signal ? root.terminal.signal : "exit " + root.terminal.exitCode
                    return root.terminal.note ? how + " · " + root.terminal.note : how
                }
                color: root.terminal.exited && root.terminal.exitCode === 0 ? Theme.terminalSuccess : Theme.terminalFailure
                font.pixelSize: Theme.fontCaption
            }
            ToolButton { contentItem: IconLabel { icon: "copy"; label: "Copy"; color: Theme.terminalButton
                                                  iconSize: Theme.fontSmall; labelFont.pixelSize: Theme.fontCaption }
                         Accessible.name: "Copy terminal output"
                         onClicked: root.objects.conversation.copyTerminal(root.toolId) }
        }
        TerminalScreen {  // painted from the emulator: only the rows shown, no rich-text layout
            id: screen
            fontPixelSize: Theme.fontSmall
            objectName: "terminalScreen"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.max(1, shownLines) * lineHeight
            source: root.objects ? root.objects.terminals : null
            terminalId: root.terminal.id
            rows: 24
            textColor: Theme.terminalText
            darkPalette: Theme.dark
            clip: true
            Accessible.role: Accessible.StaticText
            Accessible.name: "Terminal output"
        }
    }
}

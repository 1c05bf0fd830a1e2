import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Rendered markdown: prose blocks as rich text, code blocks in a box with a copy button.
ColumnLayout {
    id: root
    property var blocks: []
    property color textColor: Theme.text
    spacing: 6

    Repeater {
        model: root.blocks
        delegate: Loader {
            required property var modelData
            Layout.fillWidth: true
            sourceComponent: modelData.kind === "code" ? codeBlock : proseBlock
            property var block: modelData
        }
    }

    Component {
        id: proseBlock
        TextEdit {
            text: block.html
            textFormat: TextEdit.RichText
            readOnly: true
            selectByMouse: true
            wrapMode: TextEdit.Wrap
            color: root.textColor
            width: parent ? parent.width : 0
            onLinkActivated: (link) => controller.openLink(link)
            HoverHandler { enabled: parent.hoveredLink !== ""; cursorShape: Qt.PointingHandCursor }
            Accessible.role: Accessible.StaticText
            Accessible.name: getText(0, length)
        }
    }

    Component {
        id: codeBlock
        Rectangle {
            width: parent ? parent.width : 0
            implicitHeight: code.implicitHeight + 2 * Theme.gap + 4
            radius: Theme.radius / 2
            color: Theme.codeBackground
            border.color: Theme.border
            TextEdit {
                id: code
                x: Theme.gap; y: Theme.gap
                width: parent.width - 2 * Theme.gap - copyButton.width
                text: block.html
                textFormat: TextEdit.RichText
                readOnly: true
                selectByMouse: true
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.mono
                color: Theme.text
            }
            ToolButton {
                id: copyButton
                anchors.right: parent.right
                anchors.top: parent.top
                text: copied ? "Copied" : "Copy"
                property bool copied: false
                font.pixelSize: 11
                Accessible.name: "Copy code" + (block.lang ? " (" + block.lang + ")" : "")
                onClicked: { controller.copyText(block.code); copied = true }
            }
        }
    }
}

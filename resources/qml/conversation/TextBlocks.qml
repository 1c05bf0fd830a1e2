import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Rendered markdown: prose blocks as rich text, code blocks in a box with a copy button. `blocks` is the
// row's block model (Python): while a reply streams only the changed (last) block is updated and new
// ones appended; finished blocks keep their items untouched. Text is set only once a block has its
// width: rich text laid out at width 0 puts every character on a line of its own (quadratic in a run
// without spaces). A "more" block says how much of a long reply is not rendered and offers the next part.
ColumnLayout {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    property var blocks: []
    property color textColor: Theme.text
    property bool naturalWidth: false  // prose tells its unwrapped width (a user's bubble fits its text)
    spacing: Theme.pad

    Repeater {
        model: root.blocks
        delegate: Loader {
            id: blockLoader
            required property int index
            required property string kind
            required property string html
            required property string code
            required property string lang
            required property string tail
            Layout.fillWidth: true
            sourceComponent: kind === "code" ? codeBlock : kind === "more" ? moreBlock : proseBlock
        }
    }

    Component {
        id: proseBlock
        Item {  // the Loader reads this item's natural width, not the text's unless asked: a TextEdit
                // asked for its natural width lays its whole text out unwrapped again on every change
                // (a reply's long paragraphs, costly to shape in bidi text and joined emoji, paid it twice)
            id: prose
            property var source: parent
            width: parent ? parent.width : 0
            implicitWidth: root.naturalWidth ? proseText.implicitWidth : 0
            implicitHeight: proseText.implicitHeight
            TextEdit {
                id: proseText
                objectName: "proseText"
                // links take the application palette's colour when the text is parsed: a new link colour
                // re-parses (the comment naming it changes the text)
                property bool sized: prose.width > 0  // changes once, not on every resize
                text: sized ? root.objects.app.proseStyle + prose.source.html + "<!--" + root.objects.app.linkColour + "-->" : ""
                textFormat: TextEdit.RichText
                onTextChanged: { root.objects.wholeText.keep(this); if (root.objects.search.isActive) root.objects.search.watch(this) }  // drawn whole: a culled block is redrawn whenever the list moves
                readOnly: true
                selectByMouse: true
                wrapMode: TextEdit.Wrap
                color: root.textColor
                font.pixelSize: Theme.fontBody
                width: prose.width
                onLinkActivated: (link) => root.objects.conversation.openLink(link)
                HoverHandler { enabled: parent.hoveredLink !== ""; cursorShape: Qt.PointingHandCursor }
                Accessible.role: Accessible.StaticText
                Accessible.name: getText(0, length)
            }
        }
    }

    Component {
        id: moreBlock
        RowLayout {
            id: more
            property var source: parent
            width: parent ? parent.width : 0
            spacing: Theme.gap
            Label {
                objectName: "moreLabel"
                Layout.fillWidth: true
                text: more.source ? more.source.html : ""
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: Theme.muted
                font.italic: true
            }
            Button {
                objectName: "showMore"
                visible: !!more.source && more.source.lang !== ""  // a renderer to ask for more
                text: "Show more"
                Accessible.name: "Show more of this reply"
                onClicked: root.blocks.showMore(more.source.index)
            }
        }
    }

    Component {
        id: codeBlock
        Rectangle {  // a header (the language, Copy) over the code
            id: box
            objectName: "codeBlock"
            property var source: parent
            width: parent ? parent.width : 0
            // the code padded alike above and below
            implicitHeight: codeHeader.height + (codeText.visible ? codeText.implicitHeight : 0)
                            + (codeTail.visible ? codeTail.implicitHeight : 0) + 2 * Theme.pad
            radius: Theme.radius
            color: Theme.sunken
            border.color: Theme.border
            clip: true  // a highlighted line does not wrap (Qt's <pre>): it stops at the block's edge
            Rectangle {
                id: codeHeader
                width: parent.width; height: copyButton.implicitHeight
                radius: Theme.radius
                color: "transparent"
                Text {
                    textFormat: Text.PlainText
                    objectName: "codeLanguage"
                    anchors.left: parent.left; anchors.leftMargin: Theme.spaceLarge
                    anchors.verticalCenter: parent.verticalCenter
                    text: box.source && box.source.lang ? box.source.lang : "code"
                    font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
                    color: Theme.muted
                }
                ToolButton {
                    id: copyButton
                    objectName: "copyCode"
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    property bool copied: false
                    contentItem: IconLabel { icon: copyButton.copied ? "check" : "copy"
                                             label: copyButton.copied ? "Copied" : "Copy"
                                             color: Theme.muted; iconSize: Theme.fontSmall }
                    font.pixelSize: Theme.fontCaption
                    Accessible.name: "Copy code" + (box.source && box.source.lang ? " (" + box.source.lang + ")" : "")
                    onClicked: { root.objects.conversation.copyText(box.source.code); copied = true }
                }
            }
            TextEdit {
                id: codeText
                objectName: "codeText"
                visible: text !== ""
                x: Theme.spaceLarge; y: codeHeader.height + Theme.pad
                width: parent.width - 2 * Theme.spaceLarge
                property bool sized: width > 0
                text: box.source && sized ? box.source.html : ""
                textFormat: TextEdit.RichText
                onTextChanged: { root.objects.wholeText.keep(this); if (root.objects.search.isActive) root.objects.search.watch(this) }
                readOnly: true
                selectByMouse: true
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontUi
                color: Theme.text
            }
            TextEdit {  // the lines still streaming, not highlighted until the block's next checkpoint
                id: codeTail
                objectName: "codeTail"
                visible: text !== ""
                x: codeText.x
                y: codeText.visible ? codeText.y + codeText.implicitHeight : codeHeader.height + Theme.pad
                width: codeText.width
                text: box.source && codeText.sized ? box.source.tail : ""
                textFormat: TextEdit.RichText
                onTextChanged: { root.objects.wholeText.keep(this); if (root.objects.search.isActive) root.objects.search.watch(this) }
                readOnly: true
                selectByMouse: true
                wrapMode: TextEdit.WrapAnywhere
                font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontUi
                color: Theme.text
            }
        }
    }
}

import QtQuick
import QtQuick.Layouts
import QtQuick.Controls
import "../common"

// One assistant text segment (the agent's prose), left-aligned under the turn's identity column.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var blocks
    required property var errors
    required property var images
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + column.implicitHeight + Theme.gap

    function settle() { blocksView.ensurePolished(); column.ensurePolished() }  // Conversation.qml says why
    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    ColumnLayout {
        id: column
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        TextBlocks { objects: root.objects; id: blocksView; Layout.fillWidth: true; blocks: root.blocks }
        Repeater {
            model: root.errors || []
            Text { textFormat: Text.PlainText; required property var modelData; text: modelData; color: Theme.danger; wrapMode: Text.Wrap
                   Layout.fillWidth: true }
        }
        Repeater {  // inline images: shown from main-read or embedded bytes; remote ones only on a click
            model: root.images || []
            Item {
                id: inline
                required property var modelData
                Layout.preferredWidth: inline.modelData.source ? Math.min(480, picture.implicitWidth)
                                                               : Math.min(column.width, 360)
                Layout.preferredHeight: inline.modelData.source ? Math.min(360, picture.implicitHeight) : 28
                Image {
                    id: picture
                    objectName: "inlineImage"
                    anchors.fill: parent
                    visible: !!inline.modelData.source
                    source: inline.modelData.source || ""
                    fillMode: Image.PreserveAspectFit
                    Accessible.role: Accessible.Graphic
                    Accessible.name: "Image " + (inline.modelData.name || "")
                    TapHandler { onTapped: root.objects.attachments.showLightbox(inline.modelData.source) }
                    HoverHandler { cursorShape: Qt.PointingHandCursor }
                }
                Button {
                    objectName: "remoteImage"
                    visible: inline.modelData.remote
                    text: "Remote image " + inline.modelData.name + " \u2014 open in browser"
                    contentItem: ButtonText {}
                    onClicked: root.objects.attachments.openExternally(inline.modelData.uri)
                }
                Button {  // a file outside the workspace, or past the memory budget: read on this click
                    objectName: "askImage"
                    visible: !!inline.modelData.ask && !inline.modelData.source
                    text: inline.modelData.ask || ""
                    contentItem: ButtonText {}
                    onClicked: root.objects.attachments.showInlineImage(inline.modelData.uri)
                }
                Text { textFormat: Text.PlainText; visible: !!inline.modelData.error; text: inline.modelData.error; color: Theme.muted
                       font.pixelSize: Theme.fontCaption }
            }
        }
    }
}

import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The attachment preview: an image, a PDF's first pages, highlighted text or code, rendered Markdown
// (links inert, nothing remote loaded), a CSV or a workbook's first sheet as a table, a Word document's
// text, an HTML page's text structure (made safe by the main side); anything else offers "Open with
// system app" (a click, never automatic).
Rectangle {
    id: panel
    objectName: "previewPanel"
    readonly property var shown: attachments.preview
    visible: shown.name !== undefined
    color: Theme.canvas
    border.color: Theme.border
    Accessible.role: Accessible.Pane
    Accessible.name: "Preview of " + (shown.name || "")

    Keys.onEscapePressed: attachments.closePreview()

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: Theme.pad
        spacing: Theme.gap
        RowLayout {
            Layout.fillWidth: true
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 0
                Label { textFormat: Text.PlainText; objectName: "previewTitle"; text: panel.shown.name || ""; font.bold: true
                        elide: Text.ElideMiddle; Layout.fillWidth: true; color: Theme.text }
                Label { textFormat: Text.PlainText; text: (panel.shown.path || "") + (panel.shown.outside ? "  (outside the workspace)" : "")
                        color: Theme.muted; font.pixelSize: Theme.fontCaption; elide: Text.ElideMiddle; Layout.fillWidth: true }
            }
            Button { id: openButton; objectName: "previewOpenButton"; text: "Open with system app"
                     contentItem: IconLabel { icon: "external-link"; label: openButton.text }
                     visible: !!panel.shown.canOpen; onClicked: attachments.openExternally(panel.shown.uri)
                     Accessible.name: "Open " + (panel.shown.name || "") + " with the system application" }
            ToolButton { contentItem: IconLabel { icon: "x"; color: Theme.muted }
                         onClicked: attachments.closePreview(); Accessible.name: "Close preview" }
        }
        Label { textFormat: Text.PlainText; visible: !!panel.shown.error; text: panel.shown.error || ""; color: Theme.danger
                wrapMode: Text.Wrap; Layout.fillWidth: true }
        Label { textFormat: Text.PlainText; visible: !!panel.shown.note; text: panel.shown.note || ""; color: Theme.muted
                font.pixelSize: Theme.fontCaption; wrapMode: Text.Wrap; Layout.fillWidth: true }
        Label { textFormat: Text.PlainText; visible: panel.shown.kind === "other" && !panel.shown.error && !panel.shown.note
                text: "No preview for this kind of file."; color: Theme.muted }
        BusyIndicator { objectName: "previewBusy"; visible: panel.shown.kind === "loading"; running: visible
                        Layout.alignment: Qt.AlignHCenter; Accessible.name: "Reading the file" }
        Item {  // without content the header and the notes stay at the top
            Layout.fillHeight: true
            visible: !content.visible
        }
        ScrollView {
            id: content
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            visible: panel.shown.kind === "image" || panel.shown.kind === "pdf" || !!panel.shown.html
            Column {  // one child: the ScrollView sizes its content from it
                width: panel.width - 2 * Theme.pad
                Column {
                    objectName: "previewPages"
                    visible: panel.shown.kind === "pdf"
                    spacing: Theme.gap
                    Repeater {
                        model: panel.shown.pages || []
                        Image {
                            required property string modelData
                            required property int index
                            objectName: "previewPage"
                            source: modelData
                            fillMode: Image.PreserveAspectFit
                            width: Math.min(implicitWidth, panel.width - 2 * Theme.pad)
                            asynchronous: false
                            cache: false
                            Accessible.role: Accessible.Graphic
                            Accessible.name: "Page " + (index + 1)
                        }
                    }
                }
                Image {
                    objectName: "previewImage"
                    visible: panel.shown.kind === "image"
                    source: panel.shown.image || ""
                    fillMode: Image.PreserveAspectFit
                    width: Math.min(implicitWidth, panel.width - 2 * Theme.pad)
                    asynchronous: false
                    cache: false
                }
                TextEdit {
                    objectName: "previewText"
                    visible: !!panel.shown.html
                    width: panel.width - 2 * Theme.pad
                    text: panel.shown.html || ""
                    textFormat: TextEdit.RichText
                    readOnly: true; selectByMouse: true
                    wrapMode: TextEdit.Wrap
                    color: Theme.text
                    // links are inert here: no onLinkActivated
                }
            }
        }
    }
}

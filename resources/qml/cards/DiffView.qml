import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// One unified diff (a tool call's edit, or a file the agent changed): hunks with their context, old and
// new line numbers, +/- colours and the changed words marked; a long diff shows its start and "Show all".
ColumnLayout {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    property string diff: ""
    property bool showPath: true  // the files-changed row names the file itself
    property bool showHeader: true  // the path and Copy above the lines (a review hunk has its own)
    property bool showAll: false  // the row's view state (RowView) keeps it: a delegate does not outlive a scroll
    property bool sideBySide: false  // old and new lines in two columns (the review's choice)
    signal showAllRequested()
    readonly property var view: root.objects.diffs.render(root.diff, Theme.dark, root.showAll, root.sideBySide)
    spacing: Theme.spaceHair

    RowLayout {
        visible: root.showHeader
        Layout.fillWidth: true
        spacing: Theme.gap
        Text {
            objectName: "diffPath"
            visible: root.showPath
            Layout.fillWidth: true
            text: root.view.files.length === 1 ? root.view.files[0].path : root.view.files.length + " files"
            font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
            color: Theme.muted; elide: Text.ElideMiddle; textFormat: Text.PlainText
        }
        DiffCounts { visible: root.showPath; added: root.view.added; removed: root.view.removed }
        Item { visible: !root.showPath; Layout.fillWidth: true }
        ToolButton { contentItem: IconLabel { icon: "copy"; label: "Copy"; color: Theme.muted; iconSize: Theme.fontSmall
                                              labelFont.pixelSize: Theme.fontCaption }
                     Accessible.name: "Copy the diff"
                     visible: root.view.tooLarge === ""  // a diff left out has nothing to copy
                     onClicked: root.objects.conversation.copyText(root.diff) }
    }
    Rectangle {
        Layout.fillWidth: true
        implicitHeight: (root.view.total > 0 ? body.implicitHeight : summary.implicitHeight) + Theme.gap
        radius: Theme.radius / 2
        color: Theme.surface
        border.color: Theme.border
        clip: true
        Text {
            textFormat: Text.PlainText
            id: summary
            objectName: root.view.tooLarge !== "" ? "diffTooLarge" : "diffEmpty"
            visible: root.view.total === 0
            x: Theme.gap; y: Theme.spaceTight
            width: parent.width - 2 * Theme.gap
            text: root.view.tooLarge !== "" ? root.view.tooLarge : "No changes"
            wrapMode: Text.Wrap
            color: Theme.muted; font.pixelSize: Theme.fontCaption
        }
        TextEdit {
            id: body
            objectName: "diffBody"
            visible: root.view.total > 0
            x: Theme.spaceTight; y: Theme.spaceTight
            width: parent.width - Theme.gap
            text: root.view.html
            textFormat: TextEdit.RichText
            onTextChanged: root.objects.wholeText.keep(this)  // drawn whole (see TextBlocks.qml)
            readOnly: true; selectByMouse: true
            wrapMode: root.sideBySide ? TextEdit.WrapAtWordBoundaryOrAnywhere : TextEdit.NoWrap  // the table fits
            font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontCaption
            Accessible.role: Accessible.StaticText
            Accessible.name: "Diff, " + root.view.added + " lines added, " + root.view.removed + " removed"
        }
    }
    Button {
        objectName: "diffShowAll"
        visible: root.view.hidden > 0 && !root.showAll
        text: "Show all " + root.view.total + " lines"
        contentItem: ButtonText {}
        font.pixelSize: Theme.fontCaption
        flat: true
        onClicked: root.showAllRequested()
    }
    Text {
        textFormat: Text.PlainText
        visible: root.view.hidden > 0 && root.showAll
        text: root.view.hidden + " more lines not shown (Copy takes the whole diff)"
        color: Theme.muted; font.pixelSize: Theme.fontCaption
    }
}

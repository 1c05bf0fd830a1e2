import QtQuick

// "+12 −3": how many lines a diff adds and removes, in the diff's colours.
Row {
    property int added: 0
    property int removed: 0
    spacing: Theme.spaceTight
    Text { textFormat: Text.PlainText; objectName: "diffAdded"; text: "+" + parent.added; color: Theme.success; font.pixelSize: Theme.fontCaption; font.bold: true }
    Text { textFormat: Text.PlainText; objectName: "diffRemoved"; text: "\u2212" + parent.removed; color: Theme.danger; font.pixelSize: Theme.fontCaption; font.bold: true }
}

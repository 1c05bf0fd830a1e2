import QtQuick

// A button's label drawn as written, in the style's colour and font: the style's own label reads a
// tag-like text as rich text. `contentItem: ButtonText {}` on any button whose text is not the app's own.
Text {
    textFormat: Text.PlainText
    text: parent ? parent.text : ""
    font: parent ? parent.font : Qt.application.font
    color: parent ? parent.palette.buttonText : Theme.text
    horizontalAlignment: Text.AlignHCenter
    verticalAlignment: Text.AlignVCenter
    elide: Text.ElideRight
}

import QtQuick
import QtQuick.Controls

// One entry of a ComboBox's list, its name shown as written (the style's entries read a tag-like name
// as rich text). `delegate: PlainChoice { box: theComboBox }`; the box's `textRole` names the field.
MenuItem {
    id: entry
    required property var model
    required property int index
    property ComboBox box
    width: ListView.view ? ListView.view.width : implicitWidth
    text: box.textRole ? model[box.textRole] : model.modelData
    font.weight: box.currentIndex === index ? Font.DemiBold : Font.Normal
    highlighted: box.highlightedIndex === index
    hoverEnabled: box.hoverEnabled
    contentItem: Text {
        textFormat: Text.PlainText
        text: entry.text
        font: entry.font
        elide: Text.ElideRight
        verticalAlignment: Text.AlignVCenter
        color: entry.highlighted ? entry.palette.highlightedText : entry.palette.text
    }
}

import QtQuick
import QtQuick.Templates as T
import "../../common"

// A choice among a few: a field with a chevron; its list opens as a menu.
T.ComboBox {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            implicitContentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             implicitContentHeight + topPadding + bottomPadding,
                             implicitIndicatorHeight + topPadding + bottomPadding)
    leftPadding: Theme.spaceField
    rightPadding: Theme.spaceField + indicator.width + Theme.spaceTight
    font.pixelSize: Theme.fontUi
    delegate: PlainChoice { box: control }  // each choice as written, the current one in 600
    indicator: Icon {
        x: control.width - width - Theme.spaceField
        y: (control.height - height) / 2
        icon: "chevron-down"
        size: Theme.iconSmall
        color: control.enabled ? Theme.text2 : Theme.disabled
    }
    contentItem: Text {
        textFormat: Text.PlainText
        text: control.displayText
        font: control.font
        color: control.enabled ? Theme.text : Theme.disabled
        verticalAlignment: Text.AlignVCenter
        elide: Text.ElideRight
    }
    background: Rectangle {  // `flat`: a picker in a bar, no frame until hovered
        implicitWidth: Theme.controlHeight
        implicitHeight: control.flat ? Theme.controlSmall : Theme.controlHeight
        radius: Theme.radiusControl
        color: control.flat ? "transparent" : Theme.surface
        border.width: control.flat ? 0 : 1
        border.color: control.activeFocus ? Theme.accent : Theme.borderStrong
        Rectangle {
            anchors.fill: parent
            radius: parent.radius
            color: control.down ? Theme.selected : control.hovered ? Theme.hover : "transparent"
        }
        FocusRing { control: control }
    }
    popup: T.Popup {
        y: control.height + Theme.spaceTight
        width: Math.max(control.width, implicitWidth)
        implicitHeight: Math.min(contentItem.implicitHeight + topPadding + bottomPadding,
                                 control.Window.height - topMargin - bottomMargin)
        padding: Theme.spaceTight
        topMargin: Theme.gap
        bottomMargin: Theme.gap
        contentItem: ListView {
            clip: true
            implicitHeight: contentHeight
            model: control.delegateModel
            currentIndex: control.highlightedIndex
            highlightMoveDuration: 0
            T.ScrollBar.vertical: ScrollBar { }
        }
        background: PopupLook { }
    }
}

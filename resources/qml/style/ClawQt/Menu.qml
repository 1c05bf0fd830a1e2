import QtQuick
import QtQuick.Templates as T
import "../../common"

// A menu: raised, rounded, a soft shadow, its items in a column.
T.Menu {
    id: control
    readonly property string designStyle: "ClawQt"
    implicitWidth: Math.max(implicitBackgroundWidth + leftInset + rightInset,
                            contentWidth + leftPadding + rightPadding)
    implicitHeight: Math.max(implicitBackgroundHeight + topInset + bottomInset,
                             contentHeight + topPadding + bottomPadding)
    padding: Theme.spaceTight
    margins: 0
    overlap: 1
    font.pixelSize: Theme.fontUi
    delegate: MenuItem { }
    contentItem: ListView {
        implicitHeight: contentHeight
        model: control.contentModel
        interactive: Window.window ? contentHeight + control.topPadding + control.bottomPadding > control.height : false
        clip: true
        currentIndex: control.currentIndex
        T.ScrollBar.vertical: ScrollBar { }
    }
    background: PopupLook { implicitWidth: Theme.menuWidth }
}

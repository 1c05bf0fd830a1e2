import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../cards"
import "../common"

// A permission request as a card of its own, set apart from replies and tool cards while it waits
// (tinted, a coloured edge, a shield and "Needs you"); answered, it folds into one quiet line. When the
// tool card right above is the call it concerns, that card's footer shows it and this row is empty
// (permission_card.py decides which).
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var permission
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    visible: !permission.inCard
    implicitHeight: permission.inCard ? 0 : turnHeader.extra + box.implicitHeight + Theme.pad
    readonly property bool pending: permission.status === "pending"

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    Rectangle {
        id: box
        objectName: "permissionCard"
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        implicitHeight: body.item ? body.item.implicitHeight + 2 * (root.pending ? Theme.pad : Theme.spaceTight) : 0
        radius: Theme.radiusLarge
        // waiting for the user: the one look of "needs you" (amber), raised; once answered it folds into
        // one quiet line of the turn
        color: root.pending ? Theme.warningSubtle : "transparent"
        border.color: Theme.warningBorder
        border.width: root.pending ? 1 : 0
        Shadow { visible: root.pending; level: 1; radius: box.radius }
        Loader {  // nothing built for a request its tool card shows
            id: body
            active: !root.permission.inCard
            x: root.pending ? Theme.pad : 0; y: root.pending ? Theme.pad : Theme.spaceTight
            width: parent.width - 2 * x
            sourceComponent: PermissionBody { objects: root.objects; permission: root.permission }
        }
    }
}

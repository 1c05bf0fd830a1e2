import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// An inline permission prompt, set apart from replies and tool cards while it waits (tinted, a coloured
// edge, a shield and "Needs you"): the agent's options as buttons (Tab / arrows, Enter or Space, or the
// option's number), answered once; afterwards it shows the choice.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var permission
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + box.implicitHeight + Theme.pad
    readonly property bool pending: permission.status === "pending"

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    Rectangle {
        id: box
        objectName: "permissionCard"
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        implicitHeight: content.implicitHeight + 2 * (root.pending ? Theme.pad : Theme.spaceTight)
        radius: Theme.radiusLarge
        // waiting for the user: the one look of "needs you" (amber), raised; once answered it folds into
        // one quiet line of the turn
        color: root.pending ? Theme.warningSubtle : "transparent"
        border.color: Theme.warningBorder
        border.width: root.pending ? 1 : 0
        Shadow { visible: root.pending; level: 1; radius: box.radius }
        ColumnLayout {
            id: content
            x: root.pending ? Theme.pad : 0; y: root.pending ? Theme.pad : Theme.spaceTight
            width: parent.width - 2 * x
            spacing: Theme.gap
            RowLayout {
                Layout.fillWidth: true
                spacing: Theme.gap
                Icon { icon: root.pending ? "shield-alert" : (root.permission.status === "cancelled" ? "circle-slash" : "shield-check")
                       color: root.pending ? Theme.warning : root.permission.status === "cancelled" ? Theme.muted : Theme.success
                       size: root.pending ? Theme.iconSize : Theme.iconMedium
                       Accessible.ignored: true }
                Text { textFormat: Text.PlainText; text: root.permission.title
                       color: root.pending ? Theme.text : Theme.text2
                       font.weight: root.pending ? Font.DemiBold : Font.Normal
                       wrapMode: root.pending ? Text.Wrap : Text.NoWrap; elide: Text.ElideRight
                       Layout.fillWidth: root.pending
                       Layout.maximumWidth: root.pending ? -1 : content.width / 2
                       Accessible.name: (root.pending ? "The agent asks permission: " : "Permission: ") + text }
                Text {
                    textFormat: Text.PlainText
                    visible: !root.pending
                    objectName: "permissionAnswer"
                    text: root.permission.status === "cancelled" ? "Cancelled"
                          : "Answered: " + root.permission.selectedName
                            + (root.permission.selectedMeaning ? " (" + root.permission.selectedMeaning + ")" : "")
                    color: Theme.muted
                    font.pixelSize: Theme.fontSmall
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Rectangle {
                    objectName: "permissionWaiting"
                    visible: root.pending
                    radius: height / 2
                    color: "transparent"
                    border.color: Theme.warning
                    implicitWidth: waitingLabel.implicitWidth + Theme.pad
                    implicitHeight: waitingLabel.implicitHeight + Theme.spaceTight
                    Accessible.ignored: true
                    Label { id: waitingLabel; textFormat: Text.PlainText; anchors.centerIn: parent; text: "Needs you"
                            font.pixelSize: Theme.fontCaption; font.weight: Font.DemiBold; color: Theme.warning }
                }
            }
            // what the request itself says it would run (the title above is the agent's own summary)
            ColumnLayout {
                objectName: "permissionRequest"
                visible: root.pending && root.permission.requestText !== ""
                Layout.fillWidth: true
                spacing: Theme.spaceHair
                Text {
                    textFormat: Text.PlainText
                    text: root.permission.requestKind === "command" ? "Runs exactly:" : "The request, as the agent sent it:"
                    color: Theme.muted; font.pixelSize: Theme.fontCaption
                }
                Rectangle {
                    Layout.fillWidth: true
                    implicitHeight: requestText.implicitHeight + 2 * Theme.spaceSmall
                    radius: Theme.radiusSmall
                    color: Theme.sunken
                    border.color: Theme.border
                    TextEdit {
                        id: requestText
                        objectName: "permissionRequestText"
                        x: Theme.spaceSmall; y: Theme.spaceSmall
                        width: parent.width - 2 * Theme.spaceSmall
                        textFormat: TextEdit.PlainText
                        text: root.permission.requestText
                        readOnly: true; selectByMouse: true
                        wrapMode: TextEdit.WrapAnywhere
                        font.family: Theme.mono; font.features: Theme.codeFeatures; font.pixelSize: Theme.fontSmall
                        color: Theme.text; selectionColor: Theme.highlight; selectedTextColor: Theme.textOnAccent
                        Accessible.role: Accessible.StaticText
                        Accessible.name: (root.permission.requestKind === "command" ? "Runs exactly: " : "Request: ") + text
                    }
                }
            }
            Flow {  // wraps: an agent may offer up to a hundred options (the main side keeps no more)
                visible: root.pending
                Layout.fillWidth: true
                spacing: Theme.spaceSmall
                Repeater {
                    id: buttons
                    model: root.permission.options
                    Button {
                        required property var modelData
                        required property int index
                        objectName: "permissionOption_" + modelData.optionId
                        text: (index + 1) + ". " + modelData.name
                        contentItem: ButtonText { elide: Text.ElideNone }
                        highlighted: modelData.optionKind.indexOf("allow") === 0
                        focusPolicy: Qt.StrongFocus
                        Accessible.name: modelData.name
                        onClicked: root.objects.turn.answerPermission(root.permission.requestId, modelData.optionId)
                        Keys.onReturnPressed: clicked()
                        Keys.onEnterPressed: clicked()
                        Keys.onRightPressed: nextItemInFocusChain(true).forceActiveFocus()
                        Keys.onLeftPressed: nextItemInFocusChain(false).forceActiveFocus()
                        Keys.onPressed: (event) => {  // 1-9: the option of that number, as labelled
                            const chosen = event.key - Qt.Key_1
                            if (event.key >= Qt.Key_1 && event.key <= Qt.Key_9 && chosen < buttons.count) {
                                const option = root.permission.options[chosen]
                                root.objects.turn.answerPermission(root.permission.requestId, option.optionId)
                                event.accepted = true
                            }
                        }
                    }
                }
            }
            Text {  // the agent offered more than the main side shows (those cannot be chosen)
                textFormat: Text.PlainText
                objectName: "permissionHidden"
                visible: root.pending && root.permission.hiddenOptions > 0
                text: root.permission.hiddenOptions.toLocaleString(Qt.locale(), "f", 0)
                      + " more options not shown (the agent offered too many)"
                color: Theme.muted; font.pixelSize: Theme.fontCaption
            }
        }
    }
}

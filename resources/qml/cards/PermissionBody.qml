import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../rules"

// A permission request's words and decision: what it asks (its title when it stands alone; in a tool
// card's footer the card's title above says it), what exactly would run, and the agent's options as
// buttons with their number keys shown (Tab / arrows, Enter or Space, or the number); once answered, one
// quiet line with the choice. The box around it is its holder's: a card of its own or a tool card's footer.
ColumnLayout {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var permission
    property bool showTitle: true
    readonly property bool pending: permission.status === "pending"
    spacing: Theme.gap

    RowLayout {
        Layout.fillWidth: true
        spacing: Theme.gap
        // a refusal is not a success: only an allowing answer is drawn in green
        readonly property bool allowed: root.permission.selectedMeaning.indexOf("allowed") >= 0
        Icon { icon: root.pending ? "shield-alert" : root.permission.status === "cancelled" ? "circle-slash"
                     : parent.allowed ? "shield-check" : "shield-x"
               color: root.pending ? Theme.warning : parent.allowed ? Theme.success : Theme.muted
               size: root.pending ? Theme.iconSize : Theme.iconMedium
               Accessible.ignored: true }
        Text { textFormat: Text.PlainText
               visible: root.showTitle || root.pending
               text: root.showTitle ? root.permission.title : "The agent asks for your permission"
               color: root.pending ? Theme.text : Theme.text2
               font.weight: root.pending ? Font.DemiBold : Font.Normal
               wrapMode: root.pending ? Text.Wrap : Text.NoWrap; elide: Text.ElideRight
               Layout.fillWidth: root.pending
               Layout.maximumWidth: root.pending ? -1 : root.width / 2
               Accessible.name: (root.pending ? "The agent asks permission: " : "Permission: ") + root.permission.title }
        Text {
            textFormat: Text.PlainText
            visible: !root.pending
            objectName: "permissionAnswer"
            text: root.permission.status === "cancelled" ? "Cancelled"
                  : (root.permission.ruleId ? "Answered by your rule: " : "Answered: ") + root.permission.selectedName
                    + (root.permission.selectedMeaning ? " (" + root.permission.selectedMeaning + ")" : "")
            color: Theme.muted
            font.pixelSize: Theme.fontSmall
            elide: Text.ElideRight
            Layout.fillWidth: true
        }
        NeedsYouPill { objectName: "permissionWaiting"; visible: root.pending }
    }
    RowLayout {  // which of the user's rules answered, and the way to stop it
        visible: !root.pending && root.permission.ruleId !== ""
        Layout.fillWidth: true
        Layout.leftMargin: Theme.iconMedium + Theme.gap
        spacing: Theme.spaceSmall
        Text {
            objectName: "permissionRule"
            textFormat: Text.PlainText
            text: root.permission.ruleWords
            color: Theme.muted; font.pixelSize: Theme.fontSmall
            elide: Text.ElideMiddle
            Layout.fillWidth: true
        }
        Button {
            objectName: "permissionUndoRule"
            text: "Undo rule"
            flat: true
            onClicked: root.objects.rules.remove(root.permission.ruleId)
            Accessible.name: "Undo the rule: " + root.permission.ruleWords
        }
    }
    // what the request itself says it would run (the title is the agent's own summary)
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
                color: Theme.text; selectionColor: Theme.accent; selectedTextColor: Theme.textOnAccent
                Accessible.role: Accessible.StaticText
                Accessible.name: (root.permission.requestKind === "command" ? "Runs exactly: " : "Request: ") + text
            }
        }
    }
    Flow {  // wraps: the first options as buttons (permission_card.py picks them: a refusal among them)
        visible: root.pending
        Layout.fillWidth: true
        spacing: Theme.spaceSmall
        Repeater {
            id: buttons
            model: root.permission.options
            Button {
                id: option
                required property var modelData
                required property int index
                objectName: "permissionOption_" + modelData.optionId
                text: modelData.name
                readonly property string key: index < 9 ? String(index + 1) : ""
                contentItem: RowLayout {
                    spacing: Theme.spaceSmall
                    ButtonText { text: option.text; font: option.font; color: option.palette.buttonText; elide: Text.ElideNone }
                    KeyCap {  // the number that answers with it
                        objectName: "permissionOptionKey"
                        key: option.key
                        onAccent: option.highlighted
                        textColor: option.palette.buttonText
                    }
                }
                highlighted: modelData.optionKind.indexOf("allow") === 0
                focusPolicy: Qt.StrongFocus
                Accessible.name: modelData.name + (key ? ", key " + key : "")
                onClicked: root.objects.turn.answerPermission(root.permission.requestId, modelData.optionId)
                Keys.onReturnPressed: clicked()
                Keys.onEnterPressed: clicked()
                Keys.onRightPressed: nextItemInFocusChain(true).forceActiveFocus()
                Keys.onLeftPressed: nextItemInFocusChain(false).forceActiveFocus()
                Keys.onPressed: (event) => {  // 1-9: the option of that number, as its key cap shows
                    const chosen = event.key - Qt.Key_1
                    if (event.key >= Qt.Key_1 && event.key <= Qt.Key_9 && chosen < buttons.count) {
                        const picked = root.permission.options[chosen]
                        root.objects.turn.answerPermission(root.permission.requestId, picked.optionId)
                        event.accepted = true
                    }
                }
            }
        }
    }
    ColumnLayout {  // the options past the buttons, listed on request; rows are made as the list scrolls
        id: more
        objectName: "permissionMore"
        visible: root.pending && root.permission.moreOptions.length > 0
        Layout.fillWidth: true
        spacing: Theme.spaceHair
        property bool open: false
        Button {
            id: moreToggle
            objectName: "permissionMoreToggle"
            flat: true
            text: (more.open ? "Fewer options" : "More options")
                  + " (" + root.permission.moreOptions.length.toLocaleString(Qt.locale(), "f", 0) + ")"
            contentItem: IconLabel { icon: more.open ? "chevron-down" : "chevron-right"; label: moreToggle.text
                                     color: Theme.text2 }
            Accessible.name: moreToggle.text
            onClicked: { more.open = !more.open; if (more.open) moreList.forceActiveFocus() }
        }
        ListView {
            id: moreList
            objectName: "permissionMoreList"
            visible: more.open
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(count, 6) * (Theme.controlSmall + spacing)
            clip: true
            spacing: Theme.spaceHair
            model: more.open ? root.permission.moreOptions : []
            keyNavigationEnabled: true
            highlightMoveDuration: 0
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            Accessible.role: Accessible.List
            Accessible.name: "More options"
            Keys.onReturnPressed: if (currentItem) currentItem.clicked()
            Keys.onEnterPressed: if (currentItem) currentItem.clicked()
            Keys.onSpacePressed: if (currentItem) currentItem.clicked()
            delegate: ItemDelegate {
                id: moreOption
                required property var modelData
                objectName: "permissionOption_" + modelData.optionId
                width: moreList.width - Theme.spaceSmall
                height: Theme.controlSmall
                highlighted: ListView.isCurrentItem
                text: modelData.name
                contentItem: ButtonText { text: moreOption.text; color: Theme.text; elide: Text.ElideRight
                                          horizontalAlignment: Text.AlignLeft }
                background: Rectangle { radius: Theme.radiusSmall
                                        color: moreOption.highlighted ? Theme.selected : moreOption.hovered ? Theme.hover : "transparent" }
                Accessible.name: modelData.name
                onClicked: root.objects.turn.answerPermission(root.permission.requestId, modelData.optionId)
            }
        }
    }
    RuleButtons {
        visible: root.pending
        rules: root.objects.rules
        requestId: root.permission.requestId
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

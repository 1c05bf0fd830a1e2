import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"
import "../conversation"

// A terminal-action proposal: one card asking "Run a command in your terminal?", who proposed it and
// where it stands (amber while it waits, as a permission); its choices as rows under hairlines (the
// recommended one first), each action's command verbatim and the buttons that run it, the row the keys
// are in tinted with a blue edge. Keyboard: Up/Down between cards, Left/Right between buttons,
// Enter runs the focused one, Esc dismisses the whole proposal. Nothing reaches a terminal until the
// user confirms, and the main side claims the proposal first; a card that ended says why and its
// buttons are disabled.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    objectName: "proposalRow"
    required property var proposal
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + box.implicitHeight + Theme.pad
    readonly property string proposalId: proposal.proposalId
    readonly property bool canDispatch: proposal.awaiting
    readonly property bool refused: proposal.state === "refused"  // never ran: the card says why
                                        && root.objects.proposalCards.decided.indexOf(proposal.proposalId) < 0
    Accessible.role: Accessible.Grouping
    Accessible.name: proposal.name

    function focusAt(cardIndex, buttonIndex) {
        if (cardIndex < 0 || cardIndex >= cards.count) return
        var card = cards.itemAt(cardIndex)
        if (!card || card.buttonCount === 0) return
        var button = card.buttonItems[Math.max(0, Math.min(buttonIndex, card.buttonCount - 1))]
        if (button && button.enabled) button.forceActiveFocus()
    }
    function handleKey(event, cardIndex, buttonIndex, button) {
        switch (event.key) {
        case Qt.Key_Up: focusAt(cardIndex - 1, buttonIndex); break
        case Qt.Key_Down: focusAt(cardIndex + 1, buttonIndex); break
        case Qt.Key_Left: focusAt(cardIndex, buttonIndex - 1); break
        case Qt.Key_Right: focusAt(cardIndex, buttonIndex + 1); break
        case Qt.Key_Return:
        case Qt.Key_Enter: button.clicked(); break
        case Qt.Key_Escape: root.objects.proposalCards.cancel(root.proposalId); break
        default: return
        }
        event.accepted = true
    }
    // Tab into the row lands where the keyboard last was on it (the recommended card's first button)
    onActiveFocusChanged: if (activeFocus) {
        var at = root.objects.proposalCards.position(proposalId)
        focusAt(at[0], at[1])
    }

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    Rectangle {
        id: box
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        implicitHeight: content.implicitHeight + 2 * Theme.pad
        radius: Theme.radiusLarge
        color: Theme.surface
        // waiting for the user: the one "needs you" look (as a permission), not a second blue
        border.color: root.canDispatch ? Theme.warningBorder : Theme.border
        Shadow { visible: root.canDispatch; level: 1; radius: box.radius }
        ColumnLayout {
            id: content
            x: Theme.pad; y: Theme.pad
            width: parent.width - 2 * Theme.pad
            spacing: Theme.gap
            RowLayout {  // what it asks, who asks, and where it stands
                Layout.fillWidth: true
                spacing: Theme.gap
                Icon { icon: "square-terminal"; color: root.canDispatch ? Theme.warning : Theme.text2
                       Layout.alignment: Qt.AlignTop; Accessible.ignored: true }
                ColumnLayout {
                    Layout.fillWidth: true
                    spacing: 0
                    Text {
                        objectName: "proposalQuestion"
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: "Run a command in your terminal?"
                        color: Theme.text; font.pixelSize: Theme.fontTitle; font.weight: Font.DemiBold; wrapMode: Text.Wrap
                    }
                    Text {
                        textFormat: Text.PlainText
                        Layout.fillWidth: true
                        text: "proposed by " + root.objects.agent.label
                        color: Theme.muted; font.pixelSize: Theme.fontSmall; elide: Text.ElideRight
                    }
                }
                Rectangle {  // implicit sizes: a plain width is overridden in a layout
                    objectName: "proposalStatePill"
                    Layout.alignment: Qt.AlignTop
                    radius: height / 2
                    implicitHeight: pillText.implicitHeight + Theme.spaceTight
                    implicitWidth: pillText.implicitWidth + 2 * Theme.spaceSmall
                    color: root.canDispatch ? Theme.warningSubtle : "transparent"
                    border.color: root.canDispatch ? Theme.warningBorder : root.refused ? Theme.danger
                                  : root.proposal.state === "confirmed" ? Theme.success : Theme.border
                    Text {
                        textFormat: Text.PlainText
                        id: pillText
                        anchors.centerIn: parent
                        font.pixelSize: Theme.fontCaption; font.weight: Font.DemiBold
                        color: root.canDispatch ? Theme.warning : root.refused ? Theme.danger
                               : root.proposal.state === "confirmed" ? Theme.success : Theme.muted
                        text: root.proposal.pill
                    }
                }
            }
            Text {  // why the card can no longer run
                textFormat: Text.PlainText
                objectName: "proposalState"
                visible: text !== ""
                Layout.fillWidth: true
                text: root.proposal.stateText
                color: root.proposal.state === "confirmed" ? Theme.success : root.refused ? Theme.danger : Theme.muted
                font.bold: true
                wrapMode: Text.Wrap
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            Text {
                textFormat: Text.PlainText
                objectName: "proposalReason"
                visible: text !== ""
                Layout.fillWidth: true
                text: root.proposal.reason
                color: Theme.muted; wrapMode: Text.Wrap
                Accessible.name: text
            }
            Text {
                textFormat: Text.PlainText
                visible: text !== ""
                Layout.fillWidth: true
                text: root.proposal.shortened
                color: Theme.muted; font.italic: true; wrapMode: Text.Wrap
            }
            Repeater {
                id: cards
                model: root.proposal.cards
                Rectangle {  // a choice: a row under a hairline, tinted with a blue edge while the keys are in it
                    id: card
                    required property var modelData
                    required property int index
                    readonly property int buttonCount: modelData.buttonCount
                    property var buttonItems: []
                    property bool focused: false  // a button of it has the keyboard (set by the buttons)
                    objectName: "proposalChoice_" + modelData.choice
                    Layout.fillWidth: true
                    implicitHeight: choiceColumn.implicitHeight + 2 * Theme.gap
                    radius: Theme.radiusSmall
                    color: focused ? Theme.accentSubtle : "transparent"
                    Accessible.role: Accessible.Grouping
                    Accessible.name: modelData.name
                    Rectangle { width: parent.width; height: 1; color: Theme.border; y: -Theme.gap / 2 }  // the divider
                    Rectangle { visible: card.focused; width: 2; height: parent.height; color: Theme.accent }
                    ColumnLayout {
                        id: choiceColumn
                        x: Theme.pad; y: Theme.gap
                        width: parent.width - 2 * Theme.pad
                        spacing: Theme.spaceSmall
                        RowLayout {
                            Layout.fillWidth: true
                            Text {
                                objectName: "proposalTitle"
                                Layout.fillWidth: true
                                text: card.modelData.title
                                textFormat: Text.PlainText
                                color: Theme.text; font.weight: Font.DemiBold; wrapMode: Text.Wrap
                            }
                            Rectangle {
                                objectName: "proposalRecommended"
                                visible: card.modelData.recommended
                                radius: height / 2
                                implicitHeight: recommendedText.implicitHeight + Theme.spaceTight
                                implicitWidth: recommendedText.implicitWidth + 2 * Theme.spaceSmall
                                color: Theme.accentSubtle
                                Accessible.name: "Recommended"
                                Text { id: recommendedText; textFormat: Text.PlainText; anchors.centerIn: parent; text: "Recommended"
                                       font.pixelSize: Theme.fontCaption; font.weight: Font.DemiBold; color: Theme.accentText }
                            }
                        }
                        Text {
                            visible: text !== ""
                            Layout.fillWidth: true
                            text: card.modelData.rationale
                            textFormat: Text.PlainText
                            color: Theme.text2; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap
                        }
                        Repeater {
                            model: card.modelData.actions
                            ColumnLayout {
                                id: action
                                required property var modelData
                                Layout.fillWidth: true
                                spacing: Theme.spaceTight
                                Rectangle {  // the command exactly as it would be typed
                                    visible: action.modelData.command !== ""
                                    Layout.fillWidth: true
                                    implicitHeight: command.implicitHeight + Theme.pad
                                    radius: Theme.radiusSmall
                                    color: Theme.sunken
                                    TextEdit {
                                        id: command
                                        objectName: "proposalCommand"
                                        x: Theme.gap; y: Theme.spaceSmall
                                        width: parent.width - 2 * Theme.gap
                                        text: action.modelData.command
                                        textFormat: TextEdit.PlainText
                                        readOnly: true
                                        selectByMouse: true
                                        activeFocusOnTab: false
                                        wrapMode: TextEdit.WrapAnywhere
                                        font.family: Theme.mono; font.features: Theme.codeFeatures
                                        color: Theme.text
                                        selectionColor: Theme.accent
                                        Accessible.role: Accessible.StaticText
                                        Accessible.name: "Command: " + text
                                    }
                                }
                                Text {
                                    textFormat: Text.PlainText
                                    objectName: "proposalWhere"
                                    visible: text !== ""
                                    Layout.fillWidth: true
                                    text: action.modelData.where
                                    color: Theme.muted; font.pixelSize: Theme.fontCaption; wrapMode: Text.Wrap
                                }
                                Flow {
                                    Layout.fillWidth: true
                                    spacing: Theme.spaceSmall
                                    Repeater {
                                        model: action.modelData.buttons
                                        Button {
                                            id: button
                                            required property var modelData
                                            objectName: "proposalButton_" + card.modelData.choice + "_" + modelData.flat
                                            text: modelData.label
                                            contentItem: ButtonText {}
                                            enabled: root.canDispatch
                                            opacity: enabled ? 1 : 0.6  // the light palette alone barely shows it
                                            highlighted: card.modelData.recommended && modelData.run
                                            focusPolicy: Qt.StrongFocus
                                            Accessible.name: modelData.name
                                            Component.onCompleted: card.buttonItems[modelData.flat] = button
                                            onClicked: root.objects.proposalCards.confirm(root.proposalId, card.modelData.choice,
                                                                             modelData.action, modelData.run)
                                            onActiveFocusChanged: {
                                                card.focused = activeFocus
                                                if (activeFocus)
                                                    root.objects.proposalCards.setPosition(root.proposalId, card.index, modelData.flat)
                                            }
                                            // Esc here dismisses the proposal, not the running turn (its Shortcut)
                                            Keys.onShortcutOverride: (event) => {
                                                event.accepted = event.key === Qt.Key_Escape
                                            }
                                            Keys.onPressed: (event) => root.handleKey(event, card.index,
                                                                                       modelData.flat, button)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Text {  // the keys, said once under the cards while they can run
                textFormat: Text.PlainText
                visible: root.canDispatch
                Layout.fillWidth: true
                text: "\u2191\u2193 choice \u00b7 \u2190\u2192 action \u00b7 Enter runs \u00b7 Esc dismisses"
                color: Theme.muted; font.pixelSize: Theme.fontCaption; wrapMode: Text.Wrap
            }
        }
    }
}

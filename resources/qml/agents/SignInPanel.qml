import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import ClawQt.Terminal
import "../common"

// Shown instead of the conversation while the agent refuses chats until someone signs in: the agent's
// own ways to sign in, one action each (its own login, an API key kept in the keyring, its login command
// in a terminal you type into). Everything runs on the main side; this panel only asks and shows.
Rectangle {
    id: root
    objectName: "signInPanel"
    color: Theme.canvas
    property string openForm: ""  // the env_var method whose fields are shown

    Flickable {
        anchors.fill: parent
        contentHeight: card.implicitHeight + 2 * 32
        clip: true
        ScrollBar.vertical: ScrollBar {}

        Rectangle {
            id: card
            x: Math.max(Theme.spaceLarge, (root.width - width) / 2); y: 2 * Theme.spaceLarge
            width: Math.min(640, root.width - 2 * Theme.spaceLarge)
            implicitHeight: column.implicitHeight + 2 * Theme.spaceHuge
            radius: Theme.radius
            color: Theme.surface
            border.color: Theme.border

            ColumnLayout {
                id: column
                x: Theme.spaceHuge; y: Theme.spaceHuge
                width: card.width - 2 * Theme.spaceHuge
                spacing: Theme.pad

                RowLayout {
                    spacing: Theme.gap
                    Icon { icon: "user"; size: Theme.fontDisplay; color: Theme.accent }
                    Label {
                        textFormat: Text.PlainText
                        objectName: "signInTitle"
                        text: "Sign in to " + signIn.agentLabel
                        font.pixelSize: Theme.fontH1; font.bold: true; color: Theme.text
                        Layout.fillWidth: true; wrapMode: Text.Wrap
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "signInReason"
                    Layout.fillWidth: true; wrapMode: Text.Wrap
                    color: Theme.muted
                    text: signIn.agentLabel + " will not open a chat until you sign in"
                          + (signIn.reason ? " (it says: \u201c" + signIn.reason.replace(/\.$/, "") + "\u201d)." : ".")
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "signInError"
                    visible: signIn.error !== ""
                    Layout.fillWidth: true; wrapMode: Text.Wrap
                    text: signIn.error; color: Theme.danger
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "signInNotice"
                    visible: signIn.notice !== ""
                    Layout.fillWidth: true; wrapMode: Text.Wrap
                    text: signIn.notice; color: Theme.warning
                }
                RowLayout {
                    visible: signIn.phase === "working"
                    spacing: Theme.gap
                    Spinner { size: Theme.fontDisplay; Accessible.name: "Signing in" }
                    Label { textFormat: Text.PlainText; objectName: "signInWorking"; color: Theme.text
                            text: "Signing in\u2026 (restarting " + signIn.agentLabel + " when needed)" }
                }

                // the agent's methods, in its order
                Repeater {
                    model: signIn.methods
                    delegate: Rectangle {
                        id: methodCard
                        required property var modelData
                        required property int index
                        readonly property bool formOpen: root.openForm === modelData.id
                        objectName: "signInMethod_" + modelData.id
                        Layout.fillWidth: true
                        implicitHeight: methodColumn.implicitHeight + 2 * Theme.pad
                        radius: Theme.radius / 2
                        color: "transparent"
                        border.color: Theme.border
                        ColumnLayout {
                            id: methodColumn
                            x: Theme.pad; y: Theme.pad
                            width: parent.width - 2 * Theme.pad
                            spacing: Theme.spaceSmall
                            RowLayout {
                                Layout.fillWidth: true
                                spacing: Theme.gap
                                Icon {
                                    icon: methodCard.modelData.kind === "terminal" ? "terminal"
                                          : methodCard.modelData.kind === "env_var" ? "key" : "globe"
                                    size: Theme.iconLarge; color: Theme.muted
                                }
                                ColumnLayout {
                                    Layout.fillWidth: true
                                    spacing: 0
                                    Label { textFormat: Text.PlainText; text: methodCard.modelData.name; font.bold: true; color: Theme.text
                                            Layout.fillWidth: true; wrapMode: Text.Wrap }
                                    Label { textFormat: Text.PlainText; visible: text !== ""; text: methodCard.modelData.description
                                            color: Theme.muted; font.pixelSize: Theme.fontSmall; Layout.fillWidth: true; wrapMode: Text.Wrap }
                                }
                                Button {
                                    objectName: "signInAction_" + methodCard.modelData.id
                                    enabled: signIn.phase === "needed"
                                    highlighted: methodCard.index === 0
                                    text: methodCard.modelData.kind === "terminal" ? "Open terminal"
                                          : methodCard.modelData.kind === "env_var" ? (methodCard.formOpen ? "Hide" : "Enter\u2026")
                                          : "Sign in"
                                    Accessible.name: methodCard.modelData.name
                                    onClicked: {
                                        if (methodCard.modelData.kind === "terminal")
                                            signIn.openTerminal(methodCard.modelData.id)
                                        else if (methodCard.modelData.kind === "env_var")
                                            root.openForm = methodCard.formOpen ? "" : methodCard.modelData.id
                                        else
                                            signIn.choose(methodCard.modelData.id)
                                    }
                                }
                            }
                            // env_var: the values, masked when secret; kept in the system keyring
                            ColumnLayout {
                                visible: methodCard.formOpen
                                Layout.fillWidth: true
                                spacing: Theme.spaceSmall
                                Repeater {
                                    id: fields
                                    model: methodCard.modelData.vars
                                    // the agent's name for the value sits above its field, as written
                                    delegate: ColumnLayout {
                                        id: field
                                        required property var modelData
                                        property alias text: input.text
                                        Layout.fillWidth: true
                                        spacing: Theme.spaceHair
                                        Label {
                                            textFormat: Text.PlainText
                                            text: field.modelData.label + (field.modelData.optional ? " (optional)" : "")
                                            color: Theme.muted; font.pixelSize: Theme.fontSmall
                                            Layout.fillWidth: true; wrapMode: Text.Wrap
                                        }
                                        TextField {
                                            id: input
                                            objectName: "signInField_" + field.modelData.name
                                            Layout.fillWidth: true
                                            echoMode: field.modelData.secret ? TextInput.Password : TextInput.Normal
                                            Accessible.name: field.modelData.label
                                            onAccepted: saveButton.clicked()
                                        }
                                    }
                                }
                                RowLayout {
                                    Layout.fillWidth: true
                                    Label { textFormat: Text.PlainText; text: "Kept in your system keyring; " + signIn.agentLabel + " restarts with it."
                                            color: Theme.muted; font.pixelSize: Theme.fontCaption; Layout.fillWidth: true; wrapMode: Text.Wrap }
                                    Button {
                                        id: saveButton
                                        objectName: "signInSave_" + methodCard.modelData.id
                                        text: "Save and restart"
                                        highlighted: true
                                        enabled: signIn.phase === "needed"
                                        onClicked: {
                                            const values = {}
                                            for (let i = 0; i < fields.count; i++) {
                                                const field = fields.itemAt(i)
                                                values[field.modelData.name] = field.text
                                            }
                                            signIn.submitValues(methodCard.modelData.id, values)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }

                Label {
                    textFormat: Text.PlainText
                    objectName: "signInNoMethods"
                    visible: signIn.methods.length === 0
                    Layout.fillWidth: true; wrapMode: Text.Wrap
                    color: Theme.text
                    text: signIn.agentLabel + " offers no way to sign in from here. Sign in with its own tool "
                          + "(for example its login command in a terminal), then try again."
                }

                // the agent's login command, in a terminal that takes what you type
                Rectangle {
                    objectName: "signInTerminal"
                    visible: signIn.terminalId !== ""
                    Layout.fillWidth: true
                    implicitHeight: terminalColumn.implicitHeight + 2 * Theme.gap
                    radius: Theme.radius / 2
                    color: Theme.terminalBackground
                    border.color: loginScreen.activeFocus ? Theme.accent : "transparent"
                    ColumnLayout {
                        id: terminalColumn
                        x: Theme.gap; y: Theme.gap
                        width: parent.width - 2 * Theme.gap
                        RowLayout {
                            Layout.fillWidth: true
                            Text { textFormat: Text.PlainText; text: signIn.terminalRunning ? "Type here; Enter sends. Ctrl+Shift+V pastes."
                                                                : "The sign-in command ended."
                                   color: Theme.terminalMuted; font.pixelSize: Theme.fontCaption; Layout.fillWidth: true }
                            ToolButton { contentItem: IconLabel { icon: "copy"; label: "Copy"; color: Theme.terminalButton
                                                                  iconSize: Theme.iconSmall; labelFont.pixelSize: Theme.fontCaption }
                                         Accessible.name: "Copy the sign-in terminal's text"
                                         onClicked: signIn.copyTerminal() }
                            ToolButton { objectName: "signInStopTerminal"; visible: signIn.terminalRunning
                                         text: "Cancel"
                                         contentItem: IconLabel { icon: "square"; label: "Cancel"; color: Theme.terminalButton
                                                                  iconSize: Theme.iconSmall; labelFont.pixelSize: Theme.fontCaption }
                                         onClicked: signIn.stopTerminal() }
                        }
                        TerminalScreen {
                            id: loginScreen
                            fontPixelSize: Theme.fontSmall
                            objectName: "signInScreen"
                            Layout.fillWidth: true
                            Layout.preferredHeight: Math.max(4, shownLines + 1) * lineHeight
                            source: signIn
                            terminalId: signIn.terminalId
                            rows: 16
                            textColor: Theme.terminalText
                            darkPalette: Theme.dark
                            clip: true
                            focus: signIn.terminalRunning
                            Accessible.role: Accessible.EditableText
                            Accessible.name: "Sign-in terminal"
                            Keys.onPressed: (event) => {
                                if (!signIn.terminalRunning)
                                    return
                                if (event.key === Qt.Key_V && (event.modifiers & Qt.ControlModifier)
                                        && (event.modifiers & Qt.ShiftModifier))
                                    signIn.paste()
                                else
                                    signIn.pressKey(event.key, event.text, event.modifiers)
                                event.accepted = true
                            }
                            onVisibleChanged: if (visible && signIn.terminalRunning) forceActiveFocus()
                        }
                    }
                }

                RowLayout {
                    Layout.fillWidth: true
                    Item { Layout.fillWidth: true }
                    Button {
                        objectName: "signInRetry"
                        text: "I signed in another way: try again"
                        flat: true
                        enabled: signIn.phase === "needed"
                        onClicked: signIn.retry()
                    }
                }
            }
        }
    }
}

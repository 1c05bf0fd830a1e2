import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// One field of an agent's form, edited with the control its kind calls for: text (with the form the
// value takes as a placeholder), a number, a checkbox, one choice (buttons for a few, a list for many),
// several choices (checkboxes). What the user types is kept by the questions object, by question, so the
// card can be rebuilt without losing it; the main side's problem with the value shows under it.
ColumnLayout {
    id: root
    required property QtObject answers  // the window's `questions` (answers.py)
    required property string requestId
    required property var field
    signal submit()  // Enter in a text field sends the form
    signal dismiss()  // Esc cancels it
    spacing: Theme.spaceHair

    readonly property var typed: { answers.revision; return answers.value(requestId, field.name) }
    readonly property var current: typed !== undefined && typed !== null ? typed : field.default
    readonly property string problem: { answers.revision; return answers.problem(requestId, field.name) }
    readonly property bool few: field.choices.length <= 5
    function put(value) { answers.setValue(requestId, field.name, value) }
    function focusEditor() { editor.item.forceActiveFocus() }

    Label {
        visible: root.field.kind !== "boolean"
        textFormat: Text.PlainText
        text: root.field.label + (root.field.required ? " *" : "")
        font.weight: Font.DemiBold
        color: Theme.text
        Layout.fillWidth: true
        wrapMode: Text.Wrap
    }
    Label {
        visible: root.field.description !== ""
        textFormat: Text.PlainText
        text: root.field.description
        color: Theme.muted
        font.pixelSize: Theme.fontSmall
        Layout.fillWidth: true
        wrapMode: Text.Wrap
    }
    Loader {
        id: editor
        Layout.fillWidth: true
        sourceComponent: root.field.kind === "boolean" ? checkEditor
                         : root.field.kind === "choice" ? (root.few ? buttonsEditor : listEditor)
                         : root.field.kind === "choices" ? manyEditor : textEditor
    }
    Label {
        objectName: "questionProblem_" + root.field.name
        visible: root.problem !== ""
        textFormat: Text.PlainText
        text: root.problem
        color: Theme.danger
        font.pixelSize: Theme.fontSmall
        Layout.fillWidth: true
        wrapMode: Text.Wrap
    }

    Component {
        id: textEditor
        TextField {
            id: textField
            objectName: "questionField_" + root.field.name
            text: root.current === undefined || root.current === null ? "" : String(root.current)
            Text {  // the form the value takes, while the field is empty (drawn as written)
                x: textField.leftPadding; y: textField.topPadding
                height: textField.height - textField.topPadding - textField.bottomPadding
                textFormat: Text.PlainText; text: root.field.hint
                font: textField.font; color: textField.placeholderTextColor
                verticalAlignment: Text.AlignVCenter
                visible: !textField.length && !textField.preeditText
            }
            inputMethodHints: root.field.kind === "text" ? Qt.ImhNone : Qt.ImhFormattedNumbersOnly
            onTextEdited: root.put(text)
            Keys.onReturnPressed: root.submit()
            Keys.onEnterPressed: root.submit()
            Keys.onEscapePressed: root.dismiss()
            Accessible.name: root.field.label + (root.field.hint ? ", " + root.field.hint : "")
            Accessible.description: root.problem
        }
    }
    Component {
        id: checkEditor
        CheckBox {
            id: check
            objectName: "questionField_" + root.field.name
            text: root.field.label + (root.field.required ? " *" : "")
            contentItem: Text {  // the agent's words, drawn as written
                textFormat: Text.PlainText
                leftPadding: check.indicator.width + check.spacing
                text: check.text; font: check.font; color: Theme.text
                wrapMode: Text.Wrap; verticalAlignment: Text.AlignVCenter
            }
            checked: root.current === true
            onToggled: root.put(checked)
            Keys.onReturnPressed: root.submit()
            Keys.onEnterPressed: root.submit()
            Keys.onEscapePressed: root.dismiss()
        }
    }
    Component {
        id: buttonsEditor
        Flow {
            objectName: "questionField_" + root.field.name
            spacing: Theme.spaceSmall
            function forceActiveFocus() { if (choiceButtons.count > 0) choiceButtons.itemAt(0).forceActiveFocus() }
            Repeater {
                id: choiceButtons
                model: root.field.choices
                RadioButton {
                    id: radio
                    required property var modelData
                    objectName: "questionChoice_" + modelData.value
                    text: modelData.label
                    contentItem: Text {
                        textFormat: Text.PlainText
                        leftPadding: radio.indicator.width + radio.spacing
                        text: radio.text; font: radio.font; color: Theme.text
                        verticalAlignment: Text.AlignVCenter
                    }
                    checked: root.current === modelData.value
                    onToggled: if (checked) root.put(modelData.value)
                    Keys.onReturnPressed: root.submit()
                    Keys.onEnterPressed: root.submit()
                    Keys.onEscapePressed: root.dismiss()
                }
            }
        }
    }
    Component {
        id: listEditor
        ComboBox {
            id: box
            objectName: "questionField_" + root.field.name
            model: root.field.choices
            textRole: "label"
            valueRole: "value"
            displayText: currentIndex < 0 ? "Choose…" : currentText
            currentIndex: indexOfValue(root.current)
            delegate: PlainChoice { box: box }
            onActivated: root.put(currentValue)
            Keys.onEscapePressed: root.dismiss()
            Accessible.name: root.field.label
        }
    }
    Component {
        id: manyEditor
        ScrollView {  // up to a thousand choices: a list that scrolls past eight
            objectName: "questionField_" + root.field.name
            implicitHeight: Math.min(manyColumn.implicitHeight, 8 * Theme.controlHeight)
            clip: true
            function forceActiveFocus() { if (manyBoxes.count > 0) manyBoxes.itemAt(0).forceActiveFocus() }
            Column {
                id: manyColumn
                Repeater {
                    id: manyBoxes
                    model: root.field.choices
                    CheckBox {
                        id: pick
                        required property var modelData
                        objectName: "questionChoice_" + modelData.value
                        text: modelData.label
                        contentItem: Text {
                            textFormat: Text.PlainText
                            leftPadding: pick.indicator.width + pick.spacing
                            text: pick.text; font: pick.font; color: Theme.text
                            verticalAlignment: Text.AlignVCenter
                        }
                        checked: (root.current || []).indexOf(modelData.value) >= 0
                        onToggled: {  // in the form's order, whatever order they were ticked in
                            const was = root.current || []
                            root.put(root.field.choices.map(c => c.value).filter(
                                v => v === modelData.value ? checked : was.indexOf(v) >= 0))
                        }
                        Keys.onReturnPressed: root.submit()
                        Keys.onEnterPressed: root.submit()
                        Keys.onEscapePressed: root.dismiss()
                    }
                }
            }
        }
    }
}

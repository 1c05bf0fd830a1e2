import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// What the next message goes with, where the hand already is (in the composer's toolbar, as in Zed,
// ClawX and the Claude and ChatGPT apps): the session's mode, its model, its other options behind
// Options, and how full the agent's context is (the numbers in the meter's tooltip).
RowLayout {
    id: root
    property bool narrow: false  // a narrow composer drops words its icons and tooltips already say
    spacing: Theme.spaceTight
    ComboBox {
        id: modeSelect
        objectName: "modeSelect"
        visible: sessionHeader.modes.length > 0
        flat: true
        delegate: PlainChoice { box: modeSelect }
        model: sessionHeader.modes
        textRole: "name"
        valueRole: "id"
        currentIndex: sessionHeader.modes.findIndex(m => m.id === sessionHeader.currentMode)
        onActivated: (index) => sessionHeader.setMode(sessionHeader.modes[index].id)
        Accessible.name: "Session mode"
    }
    Repeater {  // the model picker stays in the header; other options live in the Options popup
        model: sessionHeader.configOptions.filter(o => o.category === "model")
        Loader {
            required property var modelData
            sourceComponent: modelData.type === "boolean" ? boolOption : selectOption
            property var option: modelData
            property bool labelled: false
        }
    }
    ToolButton {
        id: optionsButton
        objectName: "optionsButton"
        readonly property var others: sessionHeader.configOptions.filter(o => o.category !== "model")
        visible: others.length > 0
        text: "Options"
        contentItem: IconLabel { icon: "sliders-horizontal"; label: root.narrow ? "" : "Options"; color: Theme.text2 }
        Accessible.name: "Session options"
        onClicked: optionsPopup.open()
        Popup {
            id: optionsPopup
            y: -height - Theme.spaceTight  // above: the composer is at the window's bottom
            x: parent.width - width
            margins: Theme.gap  // kept inside the window, however long the agent's names are
            padding: Theme.pad
            ColumnLayout {
                Repeater {
                    model: optionsButton.others
                    RowLayout {
                        required property var modelData
                        Label { textFormat: Text.PlainText; text: modelData.name; color: Theme.text; elide: Text.ElideRight
                                Layout.preferredWidth: 160; Layout.maximumWidth: 160 }
                        Loader {
                            sourceComponent: modelData.type === "boolean" ? boolOption : selectOption
                            property var option: modelData
                            property bool labelled: true  // the row's label names it: the switch says nothing
                        }
                    }
                }
            }
        }
    }
    UsageRing {
        id: usageMeter
        objectName: "usageMeter"
        visible: sessionHeader.usage.text !== undefined
        Layout.alignment: Qt.AlignVCenter
        value: sessionHeader.usage.fraction || 0
        Accessible.role: Accessible.ProgressBar
        PlainToolTip { visible: usageMeter.hovered; text: "Context: " + (sessionHeader.usage.text || "") }
        Accessible.name: "Context used " + (sessionHeader.usage.text || "")
    }
    Label { textFormat: Text.PlainText; visible: sessionHeader.usage.text !== undefined && !root.narrow; text: sessionHeader.usage.short || ""
            color: Theme.muted; font.pixelSize: Theme.fontCaption }
    Component {
        id: selectOption
        ComboBox {
            id: optionSelect
            objectName: "config_" + option.id
            flat: true
            delegate: PlainChoice { box: optionSelect }
            model: option.choices
            textRole: "name"
            valueRole: "value"
            currentIndex: option.choices.findIndex(c => c.value === String(option.currentValue))
            onActivated: (index) => sessionHeader.setConfigOption(option.id, option.choices[index].value)
            Accessible.name: option.category === "model" ? "Model" : option.name
            PlainToolTip { visible: optionSelect.hovered; text: option.name }
        }
    }
    Component {
        id: boolOption
        Switch {
            id: optionSwitch
            objectName: "config_" + option.id
            text: labelled ? "" : option.name
            Accessible.name: option.name
            implicitWidth: Math.min(Theme.filterWidth, implicitContentWidth + leftPadding + rightPadding)
            contentItem: Text {
                textFormat: Text.PlainText
                leftPadding: optionSwitch.indicator.width + optionSwitch.spacing
                text: optionSwitch.text; font: optionSwitch.font; color: optionSwitch.palette.text
                elide: Text.ElideRight; verticalAlignment: Text.AlignVCenter
            }
            checked: option.currentValue === true
            onToggled: sessionHeader.setConfigOption(option.id, checked)
        }
    }
}

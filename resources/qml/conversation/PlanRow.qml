import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// The agent's plan with progress.
Item {
    id: root
    required property QtObject objects  // the window objects it uses (row_objects.py)
    required property var plan
    required property bool first
    width: ListView.view ? ListView.view.width : 400
    implicitHeight: turnHeader.extra + box.implicitHeight + Theme.gap

    TurnHeader { id: turnHeader; objects: root.objects; first: root.first }
    Rectangle {
        id: box
        x: Theme.columnX(root.width); y: Theme.spaceTight + turnHeader.extra
        width: Theme.columnWidth(root.width)
        implicitHeight: layout.implicitHeight + 2 * Theme.gap
        radius: Theme.radius; color: Theme.surface; border.color: Theme.border
        Shadow {}
        ColumnLayout {
            id: layout
            x: Theme.pad; y: Theme.gap
            width: parent.width - 2 * Theme.pad
            RowLayout {
                Text { textFormat: Text.PlainText; text: "Plan"; font.bold: true; color: Theme.text }
                Meter { Layout.fillWidth: true; from: 0; to: Math.max(1, root.plan.total); value: root.plan.done
                        fillColour: root.plan.done >= root.plan.total ? Theme.success : Theme.accent
                        Accessible.name: "Plan: " + root.plan.done + " of " + root.plan.total + " done" }
                Text { textFormat: Text.PlainText; text: root.plan.done + " / " + root.plan.total; color: Theme.muted }
            }
            Repeater {
                model: root.plan.entries
                RowLayout {
                    id: entry
                    required property var modelData
                    readonly property bool done: modelData.status === "completed"
                    readonly property bool current: modelData.status === "in_progress"
                    Layout.fillWidth: true
                    spacing: Theme.spaceSmall
                    Icon { icon: entry.done ? "circle-check" : entry.current ? "circle-dot" : "circle"; size: Theme.iconMedium
                           color: entry.done ? Theme.success : entry.current ? Theme.accent : Theme.muted
                           Layout.alignment: Qt.AlignTop; Layout.topMargin: Theme.spaceHair
                           Accessible.ignored: true }
                    Text {
                        textFormat: Text.PlainText
                        text: entry.modelData.content
                        color: entry.done ? Theme.muted : Theme.text
                        font.strikeout: entry.done
                        font.bold: entry.current
                        wrapMode: Text.Wrap
                        Layout.fillWidth: true
                        Accessible.name: (entry.done ? "Done: " : entry.current ? "Now: " : "To do: ") + text
                    }
                }
            }
        }
    }
}

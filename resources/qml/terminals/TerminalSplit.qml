import QtQuick
import QtQuick.Controls

// One node of the shown tab's panes: a terminal, or two nodes side by side ("row") or one above the
// other ("column") with a handle between them to drag. Nodes nest through a Loader of this file.
Item {
    id: node
    property var tree: ({})  // {"pane": id} or {"orientation", "first", "second"}
    property Item panel: null  // the TerminalPanel
    readonly property bool leaf: tree.pane !== undefined
    Loader {
        anchors.fill: parent
        active: node.panel !== null && (node.leaf || node.tree.orientation !== undefined)
        sourceComponent: node.leaf ? paneComponent : splitComponent
    }
    Component {
        id: paneComponent
        TerminalPane { terminalId: node.tree.pane; panel: node.panel }
    }
    Component {
        id: splitComponent
        SplitView {
            id: splitView
            readonly property bool row: node.tree.orientation === "row"
            orientation: row ? Qt.Horizontal : Qt.Vertical
            Loader {
                SplitView.preferredWidth: splitView.row ? splitView.width / 2 : -1
                SplitView.preferredHeight: splitView.row ? -1 : splitView.height / 2
                SplitView.minimumWidth: 120
                SplitView.minimumHeight: 60
                source: "TerminalSplit.qml"
                onLoaded: { item.panel = node.panel; item.tree = Qt.binding(() => node.tree.first || ({})) }
            }
            Loader {
                SplitView.fillWidth: true
                SplitView.fillHeight: true
                SplitView.minimumWidth: 120
                SplitView.minimumHeight: 60
                source: "TerminalSplit.qml"
                onLoaded: { item.panel = node.panel; item.tree = Qt.binding(() => node.tree.second || ({})) }
            }
        }
    }
}

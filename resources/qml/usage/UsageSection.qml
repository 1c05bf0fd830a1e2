import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import "../common"

// Settings' usage section: each day's tokens over the last two weeks, a bar a day in parts by agent
// (drawn on a Canvas: Qt Graphs is not in PySide6-Essentials), each agent's turns, tokens, time and cost,
// the chats that used most,
// and a day's token budget the window warns about. What turns used is what the agents reported.
ColumnLayout {
    id: root
    property Item next: null  // where Tab goes after the budget
    property alias first: budgetField  // where Tab comes in
    spacing: Theme.gap
    Component.onCompleted: usage.refresh()
    onVisibleChanged: if (visible) usage.refresh()

    Label {
        objectName: "settingsSection_Usage"
        textFormat: Text.PlainText
        text: "Usage"
        font.weight: Font.DemiBold; font.pixelSize: Theme.fontTitle
        color: Theme.text
        Accessible.role: Accessible.Heading
        Layout.topMargin: Theme.pad
    }
    Label {
        objectName: "usageSummary"
        textFormat: Text.PlainText
        text: usage.maxTokens ? "Tokens a day over the last two weeks, as the agents reported them. Today: "
                                + usage.today.toLocaleString(Qt.locale("en_US"), "f", 0) + "."
                              : "No agent has reported the tokens of a turn in the last two weeks."
        color: Theme.muted; font.pixelSize: Theme.fontSmall
        wrapMode: Text.Wrap; Layout.fillWidth: true
    }
    Canvas {
        id: chart
        objectName: "usageChart"
        visible: usage.maxTokens > 0
        Layout.fillWidth: true
        Layout.preferredHeight: 120
        readonly property var days: usage.days
        readonly property color grid: Theme.border
        readonly property color budgetColour: Theme.warning
        onDaysChanged: requestPaint()
        onWidthChanged: requestPaint()
        onGridChanged: requestPaint()
        Accessible.role: Accessible.Chart
        Accessible.name: "Tokens a day: " + days.filter(d => d.tokens > 0).map(d => d.label + " " + d.tokens).join(", ")
        onPaint: {
            const ctx = getContext("2d")
            ctx.reset()
            const top = Math.max(usage.maxTokens, usage.budget)
            if (!top || !days.length) return
            const slot = width / days.length, bar = Math.max(2, slot * 0.6), base = height - 1
            ctx.fillStyle = grid
            ctx.fillRect(0, base, width, 1)
            for (let i = 0; i < days.length; i++) {
                let y = base
                for (const part of days[i].parts) {
                    const h = Math.round(part.tokens / top * (height - 4))
                    if (!h) continue
                    ctx.fillStyle = Theme.avatarColour(part.index)
                    ctx.fillRect(i * slot + (slot - bar) / 2, y - h, bar, h)
                    y -= h
                }
            }
            if (usage.budget) {  // the day's budget as a line across
                const y = base - Math.round(usage.budget / top * (height - 4))
                ctx.fillStyle = budgetColour
                ctx.fillRect(0, y, width, 1)
            }
        }
    }
    RowLayout {  // the days under their bars: the first, the middle and today
        visible: chart.visible
        Layout.fillWidth: true
        Label { textFormat: Text.PlainText; text: usage.days.length ? usage.days[0].label : ""
                color: Theme.muted; font.pixelSize: Theme.fontCaption }
        Item { Layout.fillWidth: true }
        Label { textFormat: Text.PlainText; text: "Today"; color: Theme.muted; font.pixelSize: Theme.fontCaption }
    }
    Repeater {  // each agent: its colour, what it used
        model: usage.agents
        delegate: RowLayout {
            required property var modelData
            objectName: "usageAgent"
            Layout.fillWidth: true
            spacing: Theme.gap
            Rectangle { implicitWidth: Theme.spaceSmall * 2; implicitHeight: Theme.spaceSmall * 2; radius: Theme.radiusSmall
                        color: Theme.avatarColour(modelData.index) }
            Label { textFormat: Text.PlainText; text: modelData.agent; color: Theme.text; elide: Text.ElideRight
                    Layout.fillWidth: true }
            Label { textFormat: Text.PlainText; text: modelData.words + " \u00b7 " + modelData.time
                                                      + (modelData.costWords ? " \u00b7 " + modelData.costWords : "")
                    color: Theme.text2; font.pixelSize: Theme.fontSmall }
        }
    }
    Label {
        visible: usage.chats.length > 0
        textFormat: Text.PlainText
        text: "Chats that used most"
        font.weight: Font.DemiBold
        color: Theme.text
        Layout.topMargin: Theme.gap
        Accessible.role: Accessible.Heading
    }
    Repeater {  // the chats that used most over the two weeks: title, agent, what their turns used
        model: usage.chats
        delegate: ColumnLayout {
            required property var modelData
            objectName: "usageChat"
            Layout.fillWidth: true
            spacing: 0
            Accessible.role: Accessible.StaticText
            Accessible.name: modelData.title + ", " + modelData.agent + ": " + modelData.words
            Label { textFormat: Text.PlainText; text: modelData.title; color: Theme.text; elide: Text.ElideRight
                    Layout.fillWidth: true }
            Label { textFormat: Text.PlainText; text: modelData.agent + " \u00b7 " + modelData.words
                    color: Theme.text2; font.pixelSize: Theme.fontSmall; elide: Text.ElideRight; Layout.fillWidth: true }
        }
    }
    RowLayout {
        spacing: Theme.gap
        Layout.fillWidth: true
        Label { textFormat: Text.PlainText; text: "Warn me past"; color: Theme.text }
        TextField {
            id: budgetField
            objectName: "usageBudget"
            text: usage.budget ? String(usage.budget) : ""
            placeholderText: "no budget"
            inputMethodHints: Qt.ImhDigitsOnly
            validator: IntValidator { bottom: 0; top: 1000000000 }
            Layout.preferredWidth: 140
            onEditingFinished: usage.setBudget(text === "" ? 0 : parseInt(text))
            KeyNavigation.tab: root.next
            Accessible.name: "A day's token budget: " + (text || "none")
        }
        Label { textFormat: Text.PlainText; text: usage.budget ? "tokens a day (warned at 80% and past it)" : "tokens a day (empty: no budget)"
                color: Theme.muted; font.pixelSize: Theme.fontSmall; wrapMode: Text.Wrap; Layout.fillWidth: true }
    }
    Label {
        objectName: "usageProblem"
        visible: text !== ""
        textFormat: Text.PlainText
        text: usage.problem
        color: Theme.danger; wrapMode: Text.Wrap; Layout.fillWidth: true
    }
}

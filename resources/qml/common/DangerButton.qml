import QtQuick
import QtQuick.Controls

// A button that destroys something (Delete): the secondary button's shape with its words and edge in the
// danger colour, tinted under the pointer, so it never looks like the safe default beside Cancel.
Button {
    readonly property bool danger: true  // the style's ButtonLook and ButtonLabel draw it (any other style: a plain button)
}

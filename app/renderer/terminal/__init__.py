"""Terminal emulation without Qt: pyte screens for the cards and the user's terminals, the layout of a
screen's rows, and which keys go to a live terminal."""

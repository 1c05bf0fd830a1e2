"""The timeline core: pure reduction of routing envelopes into a flat item timeline, render-time
grouping into display rows with index-based change events, the question directory, the heartbeat
session filter and the MEDIA directive grammar. No Qt import and no I/O anywhere in this package."""

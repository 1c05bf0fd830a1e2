"""The presentation side: pure reduction and grouping, then Qt models and views."""

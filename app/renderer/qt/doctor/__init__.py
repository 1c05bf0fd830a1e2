"""The protocol doctor's window: an agent's report and its check, shown (the report is the main side's)."""

"""The user's permission rules: "Always allow" / "Always deny" remembered per agent and folder."""

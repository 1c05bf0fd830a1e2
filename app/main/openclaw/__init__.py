"""What ClawQt knows of OpenClaw beyond ACP: its Gateway (endpoint, read-only client, agents), its
transcript and the supplements read from it, and connecting it to the terminal tools."""

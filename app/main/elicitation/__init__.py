"""An agent's questions (ACP elicitation): its forms read and the user's answers checked."""

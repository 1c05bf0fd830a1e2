"""Building the main side: the host API object the renderer is given and its parts over the agent shown."""

"""Real processes on PTYs: the agent's client terminals (`terminal/*`) and the user's own terminals, with
the output an agent may see of them."""

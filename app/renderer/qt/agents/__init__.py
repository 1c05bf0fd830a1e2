"""Agents in the window: the picker, each agent's status, the agents part of Settings, the sign-in."""

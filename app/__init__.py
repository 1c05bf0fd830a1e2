"""ClawQt: a fast native desktop chat client for ACP agents."""

__version__ = "0.1.0"

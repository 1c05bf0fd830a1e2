"""The frozen executable's entry: every subcommand of `clawqt` (the window, demo-agent, smoke, replay,
self-test, propose-terminal-actions) from one program, so a bundle needs no Python on the machine."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())

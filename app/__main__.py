"""`python -m app` runs the same entry point as the `clawqt` console script."""

from app.cli import main

raise SystemExit(main())

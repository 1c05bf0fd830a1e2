"""`python -m app.packaging [--onefile] [--dist DIR] [--work DIR] [--tar]`: build ClawQt's bundle with
PyInstaller (packaging/clawqt.spec) and report how long it took, how big it is and what dominates.
`python -m app.packaging icons` makes the icon files from resources/icons/clawqt.svg;
`python -m app.packaging lucide` copies the Lucide icons the views use into resources/icons/lucide
(needs `pip install python-lucide`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.packaging.build import REPO, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.packaging", description=__doc__)
    parser.add_argument("what", nargs="?", choices=["bundle", "icons", "lucide"], default="bundle")
    parser.add_argument("--onefile", action="store_true", help="one self-extracting executable")
    parser.add_argument("--dist", type=Path, default=REPO / "dist", help="where the bundle goes (dist/)")
    parser.add_argument("--work", type=Path, default=REPO / "build", help="PyInstaller's work folder")
    parser.add_argument("--tar", action="store_true", help="also pack the onedir bundle as .tar.gz")
    args = parser.parse_args(argv)
    if args.what == "icons":
        from app.packaging.icons import write_icons

        for path in write_icons(REPO / "resources" / "icons"):
            print(path.relative_to(REPO))
        return 0
    if args.what == "lucide":
        from app.packaging.lucide import write_icons as write_lucide

        written = write_lucide(REPO / "resources" / "qml", REPO / "resources" / "icons" / "lucide")
        print(f"{len(written)} icons in resources/icons/lucide")
        return 0
    try:
        result = build(args.dist, args.work, onefile=args.onefile, tar=args.tar)
    except RuntimeError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    print(result.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`frozen_startup`: process launch to the first frame of ClawQt's window from the PyInstaller bundle vs
from the source install (`python -m app`, its modules already compiled to .pyc as an installed package
has them), both measured like `ui_startup` (the child prints after its first frameSwapped). Goal <= 1.2.
The bundle is the suite's cached build of the current sources (built first when missing)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from bench.common import Result, app_folders, median
from bench.ui_startup import _time_to_frame

GOAL = 1.2


def run(rounds: int = 7) -> Result:
    from app.packaging.cached import ensure_bundle

    bundle = ensure_bundle()
    with tempfile.TemporaryDirectory(prefix="frozen-startup-") as home:
        env = {
            key: value
            for key, value in os.environ.items()
            if key
            != "PYTHONDONTWRITEBYTECODE"  # an installed ClawQt has its .pyc; let the warm-up write them
        }
        env |= {
            "QT_QPA_PLATFORM": "offscreen",
            "CLAWQT_FIRST_FRAME_EXIT": "1",
            "CLAWQT_DEMO_DELAY_MS": "0",
            **app_folders(Path(home)),
        }
        source_argv = [sys.executable, "-m", "app"]
        frozen_argv = [str(bundle.executable)]
        _time_to_frame(source_argv, env)  # warm-up: .pyc written, files in the page cache
        _time_to_frame(frozen_argv, env)
        source, frozen = [], []
        for _ in range(rounds):
            source.append(_time_to_frame(source_argv, env))
            frozen.append(_time_to_frame(frozen_argv, env))
    ratio = median(frozen) / median(source)
    return Result(
        "frozen_startup",
        ratio,
        GOAL,
        {
            "rounds": rounds,
            "source_median_s": round(median(source), 3),
            "frozen_median_s": round(median(frozen), 3),
            "bundle_mb": round(bundle.size_bytes / 2**20, 1),
        },
        extra_line=(
            f"frozen_startup ratio={ratio:.3f} goal={GOAL} (first frame: bundle"
            f" {median(frozen) * 1000:.0f} ms, source with .pyc {median(source) * 1000:.0f} ms;"
            f" medians of {rounds})"
        ),
    )

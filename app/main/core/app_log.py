"""The app's own log: INFO and up to `<log dir>/clawqt.log` (rotated), warnings (or all, with -v) to
stderr. Every dropped line, refused action and agent state change leaves a line here."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

from app.main.core import paths

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(verbose: bool = False) -> Path:
    """Install the handlers once; returns the log file path."""
    log_file = paths.log_dir() / "clawqt.log"
    root = logging.getLogger()
    if any(getattr(h, "_clawqt", False) for h in root.handlers):
        return log_file
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    to_stderr = logging.StreamHandler()
    to_stderr.setLevel(logging.DEBUG if verbose else logging.WARNING)
    handlers: list[logging.Handler] = [to_stderr]
    try:
        handlers.append(
            logging.handlers.RotatingFileHandler(
                log_file, maxBytes=5 * 1024 * 1024, backupCount=2, encoding="utf-8"
            )
        )
    except OSError as exc:  # a file where the log folder belongs, no permission: the app still runs
        problem = f"cannot write the log file {log_file} ({exc.strerror}): logging to stderr only"
    else:
        problem = ""
    for handler in handlers:
        handler.setFormatter(logging.Formatter(FORMAT))
        handler._clawqt = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    if problem:
        logging.getLogger(__name__).warning(problem)
    return log_file

"""The bundle these tests run: built once per state of the sources into .cache/frozen/ (about 30 s on
two cores, reused afterwards) by the same code as `python -m app.packaging`."""

from __future__ import annotations

import sys

import pytest

from app.packaging.build import BuildResult


@pytest.fixture(scope="session")
def bundle() -> BuildResult:
    if not sys.platform.startswith("linux"):
        pytest.skip("the suite builds and checks the Linux bundle (other systems: packaging.md)")
    from app.packaging.cached import ensure_bundle

    try:
        return ensure_bundle()
    except RuntimeError as error:
        pytest.fail(f"the bundle could not be built: {error}", pytrace=False)

"""Shared test setup."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _keep_main_module() -> Iterator[None]:
    """Streamlit's AppTest leaves the page it ran installed as ``__main__``; a process pool
    started later with the spawn method would then re-run that page in every worker. Put the
    real ``__main__`` back after each test."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main

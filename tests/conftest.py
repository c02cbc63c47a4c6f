"""Shared test setup."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# The dashboard turns a page's exception into one line for the user (dashboard/app.py); the tests
# see the exception itself (AppTest's at.exception, a browser test's server log).
os.environ.setdefault("ISTAKA_RAISE_ERRORS", "1")



@pytest.fixture(autouse=True)
def _error_details() -> None:
    """.streamlit/config.toml hides error details from users; an AppTest's failure shows them whole."""
    import streamlit.config

    streamlit.config.set_option("client.showErrorDetails", "full")


@pytest.fixture(autouse=True)
def _keep_main_module() -> Iterator[None]:
    """Streamlit's AppTest leaves the page it ran installed as ``__main__``; a process pool
    started later with the spawn method would then re-run that page in every worker. Put the
    real ``__main__`` back after each test."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main

"""The server's memory bound: past a budget, its caches are emptied before the next page runs.

Every per-game cache (a replay with its steps, a stored review, the figures drawn from them) is
bounded by its number of entries, not by size: sixteen of the largest games the reader takes
held some 150 MB each, 1.9 GB in all (``python bench/memory.py --cache 16``). So each page run
first reads the process's resident memory; past ``ISTAKA_CACHE_MB`` (default 1,000) every
Streamlit cache is cleared (all of them recompute on demand: nothing is lost, the next pages
are slower) and the freed memory handed back to the system.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import os
import threading
from pathlib import Path

import streamlit as st

ENV = "ISTAKA_CACHE_MB"
DEFAULT_MB = 1_000
_LOCK = threading.Lock()


def budget_mb() -> int:
    try:
        return max(100, int(os.environ.get(ENV, DEFAULT_MB)))
    except ValueError:
        return DEFAULT_MB


def rss_mb() -> int:
    """This process's resident memory (0 where /proc does not say)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), None)
    return int(line.split()[1]) // 1024 if line else 0


def guard() -> bool:
    """Before a page runs: past the budget, clear every cache. Whether it did."""
    if rss_mb() <= budget_mb() or not _LOCK.acquire(blocking=False):
        return False
    try:
        before = rss_mb()
        st.cache_data.clear()
        st.cache_resource.clear()
        gc.collect()
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6").malloc_trim(0)  # glibc: give the freed arenas back
        logging.getLogger("istaka.dashboard").warning("memory %d MB past the %d MB budget: caches cleared, %d MB "
                                                      "now", before, budget_mb(), rss_mb())
        return True
    finally:
        _LOCK.release()


__all__ = ["DEFAULT_MB", "ENV", "budget_mb", "guard", "rss_mb"]

"""Worker processes that end with their parent.

Every ``--jobs J`` command (import, analyze, simulate, match) runs its work in a pool of spawned
processes (spawn, never fork: DuckDB's threads may be running). A killed parent (``kill``,
``kill -9``, a closed terminal) must not leave its workers, and with them multiprocessing's
resource tracker, running on: :func:`process_pool` starts each worker with :func:`watch_parent`.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any


def watch_parent(parent: int | None = None, interval: float = 0.2) -> None:
    """End this (worker) process as soon as its parent is gone.

    On Linux the kernel sends SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG), whatever
    the worker is doing; elsewhere a thread polls the parent's pid. ``parent``: the pid the
    parent gave (a worker still starting up when its parent died must not watch init instead)."""
    import signal
    import threading

    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:
        os._exit(1)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # it died before prctl took hold
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="istaka-watch-parent", daemon=True).start()


def _start(parent: int, init: Callable[..., Any] | None, args: tuple[Any, ...]) -> None:
    watch_parent(parent)
    if init is not None:
        init(*args)


def process_pool(jobs: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """``jobs`` spawned worker processes that die with this one (an executor, not a Pool: a worker
    that dies raises BrokenProcessPool instead of leaving a map waiting forever)."""
    import multiprocessing

    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start,
                               initargs=(os.getpid(), initializer, initargs))


def bounded_map(ex: ProcessPoolExecutor, fn: Callable[[Any], Any], items: Iterable[Any],
                window: int) -> Iterator[Any]:
    """``fn`` over ``items`` on ``ex``, results in input order, with at most ``window`` items out
    at once: ``items`` are read as the work goes (``Executor.map`` reads them all first, which for
    a large archive means every game in memory at once)."""
    out: deque[Future[Any]] = deque()
    for item in items:
        out.append(ex.submit(fn, item))
        if len(out) >= window:
            yield out.popleft().result()
    while out:
        yield out.popleft().result()


def alive(pid: int) -> bool:
    """Is process ``pid`` still running? (A temporary file named after a dead process is left
    from a killed write and may be swept; another user's process, or a number no process has,
    counts as alive: its file stays.)"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


__all__ = ["alive", "bounded_map", "process_pool", "watch_parent"]

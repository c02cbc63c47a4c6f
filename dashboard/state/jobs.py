"""One queue for the dashboard's long work, bounded for a served board: deep reviews and analyses
started from any session run one at a time, in the order asked, in one worker thread of the
server process, so one visitor cannot starve the others. A session sees its job's place in the
queue and its progress, and may cancel it, waiting or running; each session has at most one job
in the queue, and the queue holds at most :data:`MAX_WAITING`.

A job is a function ``run(job) -> (count, error or None)`` that calls ``job.tick(done, total)``
as it goes (a cancelled job stops there). It is made in the script thread, where the session's
right to write (:func:`dashboard.state.access.can_write`) is checked; the worker never reads session
state.
"""

from __future__ import annotations

from dashboard.words.locale import table
import itertools
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from dashboard.state import access

MAX_WAITING = 20
KEEP_DONE = 50  # finished jobs remembered (for their owners' pages)

STRINGS: dict[str, tuple[str, str]] = table("jobs")


def t(key: str, lang: str, **fields: object) -> str:
    tr, en = STRINGS[key]
    return (en if lang == "en" else tr).format(**fields)


class Cancelled(Exception):
    """Raised inside a job's tick once its owner cancelled it."""


@dataclass
class Job:
    id: int
    kind: str  # "deep", "analyze"
    label: str
    owner: str
    run: Callable[[Job], tuple[int, str | None]]
    state: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    result: int = 0
    error: str | None = None
    errors: list[str] = field(default_factory=list)  # per game, for an analysis
    created: float = field(default_factory=time.time)
    cancel: threading.Event = field(default_factory=threading.Event)

    def tick(self, done: int, total: int) -> None:
        if self.cancel.is_set():
            raise Cancelled
        self.done, self.total = done, total


class JobQueue:
    """The queue and its one worker thread (started on the first job)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._waiting: deque[Job] = deque()
        self._running: Job | None = None
        self._done: deque[Job] = deque(maxlen=KEEP_DONE)
        self._ids = itertools.count(1)
        self._worker: threading.Thread | None = None

    def submit(self, kind: str, label: str, owner: str, run: Callable[[Job], tuple[int, str | None]]) -> Job | str:
        """The job, queued; or why not ("full", "busy")."""
        with self._lock:
            if any(j.owner == owner for j in self._active()):
                return "busy"
            if len(self._waiting) >= MAX_WAITING:
                return "full"
            job = Job(next(self._ids), kind, label, owner, run)
            self._waiting.append(job)
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="istaka-jobs", daemon=True)
                self._worker.start()
            self._lock.notify_all()
            return job

    def _active(self) -> list[Job]:
        return ([self._running] if self._running is not None else []) + list(self._waiting)

    def position(self, job: Job) -> int:
        """0 while it runs, k when k-th in line, -1 once finished."""
        with self._lock:
            if job is self._running:
                return 0
            for k, j in enumerate(self._waiting, 1):
                if j is job:
                    return k
            return -1

    def running(self) -> Job | None:
        with self._lock:
            return self._running

    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    def of(self, owner: str) -> Job | None:
        """The owner's job in the queue, else the last one finished."""
        with self._lock:
            for j in self._active():
                if j.owner == owner:
                    return j
            for j in reversed(self._done):
                if j.owner == owner:
                    return j
            return None

    def cancel(self, job: Job) -> None:
        with self._lock:
            job.cancel.set()
            if job in self._waiting:
                self._waiting.remove(job)
                job.state = "cancelled"
                self._done.append(job)

    def forget(self, job: Job) -> None:
        with self._lock:
            if job in self._done:
                self._done.remove(job)

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._lock.wait_for(lambda: bool(self._waiting), timeout=60):
                    self._worker = None
                    return
                job = self._running = self._waiting.popleft()
                job.state = "running"
            try:
                job.result, job.error = job.run(job)
                job.state = "failed" if job.error else "done"
            except Cancelled:
                job.state = "cancelled"
            except Exception as e:  # noqa: BLE001  (reported on its owner's page; the queue goes on)
                job.state, job.error = "failed", f"{type(e).__name__}: {e}"
            with self._lock:
                self._running = None
                self._done.append(job)
                self._lock.notify_all()

    def wait_idle(self, timeout: float = 60) -> bool:
        """Until nothing waits or runs (tests, shutdown)."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._active(), timeout=timeout)


QUEUE = JobQueue()  # one per server process: every session's long work goes through it


def owner() -> str:
    """This browser session's id for the queue."""
    return str(st.session_state.setdefault("_job_owner", uuid.uuid4().hex))


def submit(kind: str, label: str, run: Callable[[Job], tuple[int, str | None]], lang: str) -> Job | None:
    """Queue ``run`` for this session; a refusal is shown. The job writes later with the right this
    session has now (``writing_db(authorized=True)``), so the write gate is asked here."""
    if not access.can_write():
        st.warning(access.refusal_text(lang), icon=":material/block:")
        return None
    got = QUEUE.submit(kind, label, owner(), run)
    if isinstance(got, str):
        j = QUEUE.of(owner())
        n = QUEUE.waiting()
        st.warning(t("jb_full_one" if n == 1 else "jb_full", lang, n=n) if got == "full"
                   else t("jb_busy", lang, label=j.label if j else kind))
        return None
    return got


def panel(kind: str, lang: str, on_done: Callable[[Job], None]) -> bool:
    """This session's job of ``kind``, if any: its place or progress and a cancel button, redrawn
    every second; once it has ended, ``on_done(job)`` (which may rerun the page). True while one
    is queued or running."""
    job = QUEUE.of(owner())
    if job is None or job.kind != kind:
        return False
    if job.state in ("done", "failed", "cancelled"):
        QUEUE.forget(job)
        on_done(job)
        return False

    @st.fragment(run_every=1.0)
    def _live() -> None:
        pos = QUEUE.position(job)
        if pos < 0:  # ended since the last redraw: the whole page shows the outcome
            st.rerun(scope="app")
        if pos == 0:
            frac = job.done / job.total if job.total else 0.0
            st.progress(min(1.0, frac), text=t("jb_running", lang, label=job.label, done=job.done,
                                                total=job.total or "…"))
        else:
            st.info(t("jb_waiting", lang, pos=pos, ahead=pos - 1 + (QUEUE.running() is not None)))
        st.button(t("jb_cancel", lang), key=f"jb_cancel_{kind}", on_click=QUEUE.cancel, args=(job,))
    _live()
    return True


__all__ = ["QUEUE", "Cancelled", "Job", "JobQueue", "STRINGS", "owner", "panel", "submit", "t"]

"""Run pure tasks of whole games on a Dask cluster; the caller stays the only DuckDB writer.

    with Cluster.open("local:2") as cl:                     # or "tcp://scheduler:8786"
        for rows in cl.map(prepare, inputs, progress=True):  # in input order, as they arrive
            write(con, rows)                                 # whole games per transaction

A task is a module-level function of its input that returns rows; it is pickled by reference,
so every worker needs the same project installed. :meth:`Cluster.open` compares a digest of the
project's source on every worker with the client's before any work, and each task checks it
again (a worker that joins later), so a worker with other code is refused with a message naming
it rather than producing other rows. Inputs travel with the task: workers need no shared
filesystem and no database. A worker killed mid-task costs only that task, which the scheduler
runs again elsewhere; results are yielded once per input, whatever happened to the workers.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import logging
import platform
import socket
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

from .db import StoreError

T = TypeVar("T")
R = TypeVar("R")

PROJECT = Path(__file__).resolve().parents[1]  # the analysis package, wherever it is installed
SOURCE_SUFFIXES = (".py", ".c", ".pyi")
NO_WORKERS_WAIT = 60.0  # seconds a run waits with no worker alive before giving up


class ClusterError(StoreError):
    """The cluster cannot do the work (bad address, no workers, a task that kills workers)."""


class VersionMismatch(ClusterError):
    """A worker runs other project code than the client."""


@functools.cache
@functools.lru_cache(maxsize=1)
def version_digest() -> str:
    """SHA-256 over the project's source files (path and bytes), the same on every machine
    that has the same version installed, whatever the install path. Read once per process: the
    code a process runs is the code it loaded, and a task need not hash every file again."""
    h = hashlib.sha256()
    for p in sorted(PROJECT.rglob("*")):
        if p.suffix in SOURCE_SUFFIXES and p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(PROJECT).as_posix().encode())
            h.update(b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def identity() -> dict[str, str]:
    """What a worker (or the client) runs: the digest and where it comes from."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("istaka")
    except PackageNotFoundError:  # run from a checkout without `pip install`: the digest still decides
        ver = "?"
    return {"digest": version_digest(), "istaka": ver, "python": platform.python_version(),
            "host": socket.gethostname(), "path": str(PROJECT)}


def _mismatch_message(worker: str, theirs: dict[str, str], ours: dict[str, str]) -> str:
    return (f"worker {worker} on {theirs['host']} runs other project code than this client "
            f"(digest {theirs['digest'][:12]}, istaka {theirs['istaka']}, Python {theirs['python']}, "
            f"from {theirs['path']}; this client: {ours['digest'][:12]}, istaka {ours['istaka']}, "
            f"Python {ours['python']}): install the same version of the project on every worker "
            f"and restart it")


def _run_task(digest: str, fn: Callable[..., R], items: Sequence[Any], *shared: Any) -> list[R]:
    """A task on a worker: refuse other code, then ``fn(item, *shared)`` for each item."""
    if version_digest() != digest:  # a worker that joined after the check at open
        from distributed import get_worker

        ours = identity()
        raise VersionMismatch(_mismatch_message(get_worker().address, ours, {**ours, "digest": digest}))
    return [fn(item, *shared) for item in items]


def _warm() -> None:
    """Load what the tasks use before the first one arrives (as the client has)."""
    import numpy  # noqa: F401
    import pyarrow  # noqa: F401


def parse_address(address: str) -> tuple[str, Any]:
    """``("local", n)`` for ``local:N``, ``("scheduler", address)`` for ``tcp://host:port``."""
    a = address.strip()
    if a.startswith("local:"):
        n = a.split(":", 1)[1]
        if not n.isdigit() or int(n) < 1:
            raise ClusterError(f"--cluster {address!r}: local:N takes a number of worker processes >= 1")
        return "local", int(n)
    if "://" in a and a.split("://", 1)[1]:
        return "scheduler", a
    raise ClusterError(f"--cluster {address!r}: give tcp://HOST:PORT (a running `dask scheduler`) "
                       f"or local:N (N worker processes on this machine for this run)")


class Cluster:
    """A client connected to a scheduler (started here for ``local:N``), checked for versions."""

    def __init__(self, address: str, *, timeout: float = 30.0) -> None:
        self.address = address
        self.kind, self.target = parse_address(address)
        self.timeout = timeout
        self._local: Any = None
        self.client: Any = None

    @classmethod
    def open(cls, address: str, *, timeout: float = 30.0) -> Cluster:
        c = cls(address, timeout=timeout)
        try:
            c.start()
        except BaseException:
            c.close()
            raise
        return c

    def start(self) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover
            raise ClusterError("--cluster needs Dask: pip install 'dask[distributed]'") from None
        if self.kind == "local":
            # one thread per worker process: the work is pure Python, the GIL would serialise threads
            try:
                self._local = LocalCluster(n_workers=self.target, threads_per_worker=1, processes=True,
                                           dashboard_address=":0", silence_logs=logging.ERROR)
            except Exception as e:  # Dask raises plain RuntimeErrors here
                raise ClusterError(f"could not start {self.target} local worker processes: {e} (a script that "
                                   f"opens local:N must guard its top level with `if __name__ == '__main__':`)") from e
            self.client = Client(self._local)
        else:
            try:
                self.client = Client(self.target, timeout=self.timeout)
            except (OSError, TimeoutError) as e:
                raise ClusterError(f"cannot reach the scheduler at {self.target}: {e}; start one with "
                                   f"`dask scheduler` and workers with `dask worker {self.target}`") from None
            try:
                self.client.wait_for_workers(1, timeout=self.timeout)
            except TimeoutError:
                raise ClusterError(f"no worker joined the scheduler at {self.target} within {self.timeout:g}s: "
                                   f"start some with `dask worker {self.target}`") from None
        self.check_versions()
        self.client.run(_warm)

    def check_versions(self) -> None:
        """Refuse the run when any worker's project digest differs from the client's."""
        version_digest.cache_clear()  # the source as it is now, as the workers just read it
        ours = identity()
        theirs: dict[str, dict[str, str]] = self.client.run(identity)
        bad = [_mismatch_message(w, i, ours) for w, i in sorted(theirs.items()) if i["digest"] != ours["digest"]]
        if bad:
            raise VersionMismatch("; ".join(bad))

    def workers(self) -> int:
        """Workers alive now."""
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def threads(self) -> int:
        """Worker threads alive now (at least 1: a run waits for workers rather than stalling)."""
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        return max(1, sum(w.get("nthreads", 1) for w in workers.values()))

    def share(self, obj: Any) -> Any:
        """Send ``obj`` once to every worker; pass the result to :meth:`map` as ``shared``."""
        [fut] = self.client.scatter([obj], broadcast=True, hash=False)
        return fut

    def map(self, fn: Callable[..., R], items: Iterable[T], *, shared: Sequence[Any] = (), chunk: int = 1,
            ordered: bool = True, progress: bool = False, desc: str = "tasks", total: int | None = None,
            window: int | None = None) -> Iterator[R]:
        """``fn(item, *shared)`` for every item, on the workers, ``chunk`` items per task.

        Results come back in input order (``ordered``) or as tasks finish. At most ``window``
        tasks are out at once (default: three per worker thread), so inputs are read lazily and
        results never pile up. A task that fails raises here, after the others are cancelled.
        """
        from distributed import wait

        digest = version_digest()
        run = uuid.uuid4().hex[:8]
        it = iter(items)
        chunks = iter(lambda: list(itertools.islice(it, chunk)), [])
        inflight: dict[Any, int] = {}
        ready: dict[int, list[R]] = {}
        n_total = None if total is None else -(-total // chunk)
        state = {"next_in": 0, "next_out": 0, "exhausted": False}
        bar = None
        if progress:
            from tqdm import tqdm  # type: ignore[import-untyped]

            bar = tqdm(total=n_total, unit="task", desc=desc, leave=False)
        alive = self.workers()
        polled = time.monotonic()
        none_since: float | None = None

        cap = [window or max(2, 3 * self.threads())]

        def fill() -> None:
            # results waiting for an earlier one (ordered) count too: a straggler never lets them pile up
            while not state["exhausted"] and len(inflight) < cap[0] and len(ready) < 2 * cap[0]:
                try:
                    batch = next(chunks)
                except StopIteration:
                    state["exhausted"] = True
                    return
                i = state["next_in"]
                state["next_in"] += 1
                fut = self.client.submit(_run_task, digest, fn, batch, *shared, key=f"istaka-{desc}-{run}-{i}",
                                         pure=False)
                inflight[fut] = i

        try:
            fill()
            while inflight or ready:
                if inflight:
                    try:
                        done, _ = wait(list(inflight), timeout=1.0, return_when="FIRST_COMPLETED")
                    except TimeoutError:
                        done = set()
                else:
                    done = set()
                for fut in done:
                    i = inflight.pop(fut)
                    try:
                        ready[i] = fut.result()
                    except VersionMismatch:
                        raise
                    except Exception as e:
                        if type(e).__name__ == "KilledWorker":
                            raise ClusterError(f"{desc}: task {i} was lost with every worker that ran it, "
                                               f"one after another ({e}); giving up") from None
                        raise
                    fut.release()
                now = time.monotonic()
                if now - polled >= 0.5:  # the scheduler is asked at most twice a second
                    polled = now
                    alive = self.workers()
                    cap[0] = window or max(2, 3 * self.threads())  # workers come and go
                    if alive == 0:
                        none_since = none_since or now
                        if now - none_since > NO_WORKERS_WAIT:
                            raise ClusterError(f"no worker alive for {NO_WORKERS_WAIT:g}s at {self.address}")
                    else:
                        none_since = None
                if ordered:
                    while state["next_out"] in ready:
                        yield from ready.pop(state["next_out"])
                        state["next_out"] += 1
                        if bar is not None:
                            bar.update(1)
                else:
                    for i in sorted(ready):
                        yield from ready.pop(i)
                        if bar is not None:
                            bar.update(1)
                if bar is not None:
                    bar.set_postfix_str(f"workers alive {alive}", refresh=True)
                fill()
        finally:
            if inflight:
                self.client.cancel(list(inflight))
            if bar is not None:
                bar.close()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self._local is not None:
            self._local.close()
            self._local = None

    def __enter__(self) -> Self:
        if self.client is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def mapper(cluster: Cluster | None, **opts: Any) -> Callable[..., Iterator[Any]] | None:
    """``cluster.map`` with options bound, for lower layers that take a plain mapper callable."""
    if cluster is None:
        return None
    return functools.partial(cluster.map, **opts)


__all__ = ["Cluster", "ClusterError", "VersionMismatch", "identity", "mapper", "parse_address", "version_digest"]

"""The Dask path: the same rows as the plain path, through worker kills, a killed
client and a worker with other code.

One LocalCluster of two worker processes (one thread each) serves the module; the CLI reaches
it by its tcp:// address, as a user reaches a scheduler started with `dask scheduler`.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import pytest

pytest.importorskip("distributed")

from analysis import store
from analysis.cli import main as cli
from analysis.store.cluster import Cluster, VersionMismatch

sys.path.insert(0, str(Path(__file__).parent))
from store_logs import make_game, write_log

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sample" / "games.jsonl.gz"
# columns that say when or under which import number, not what: they differ between any two runs
VOLATILE = {"games": {"import_id", "imported_at"}, "imports": {"import_id", "started_at", "finished_at"},
            "import_errors": {"import_id"}, "review_games": {"analyzed_at", "seconds"}}


def _sample_games(n: int) -> list[list[str]]:
    """The first ``n`` games of the committed self-play sample, as lists of lines."""
    games: list[list[str]] = []
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as fh:
        for line in fh:
            if json.loads(line)["type"] == "game":
                if len(games) == n:
                    break
                games.append([])
            games[-1].append(line)
    return games


def _seat_view(lines: list[str], seat: int) -> list[str]:
    """One game's lines cut to ``seat``'s view (``istaka view``)."""
    import io

    from analysis.game import write
    from analysis.game.cut import cut_view
    from analysis.game.log import read_lines

    (g,) = read_lines(lines, "x").games
    buf = io.StringIO()
    write([cut_view(g, seat)], buf)
    return buf.getvalue().splitlines(True)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Four files of three self-play games each, and one with a conflicting copy of a game and
    an unreadable line: what the store must report the same way on both paths."""
    d = tmp_path_factory.mktemp("cluster-logs")
    games = _sample_games(12)
    games[-1] = _seat_view(games[-1], 2)  # the cluster path takes seat-view logs too
    paths = []
    for k in range(4):
        p = d / f"part-{k}.jsonl"
        p.write_text("".join(line for g in games[3 * k:3 * k + 3] for line in g), encoding="utf-8")
        paths.append(str(p))
    first = [json.loads(x) for x in games[0]]
    first[0]["site"] = "elsewhere"  # same id, other content: a conflict
    conflict = d / "part-8.jsonl"
    conflict.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in first), encoding="utf-8")
    broken = d / "part-9.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    return paths + [str(conflict), str(broken)]


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in a stable order, without the columns that only say when."""
    out = {}
    with store.reading(db) as con:
        tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables WHERE "
                                            "table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'")
                  .fetchall()]
        for t in sorted(tables):
            cols = [r[0] for r in con.execute("SELECT column_name FROM information_schema.columns WHERE "
                                              "table_name = ? ORDER BY ordinal_position", [t]).fetchall()]
            keep = ", ".join(f'"{c}"' for c in cols if c not in VOLATILE.get(t, ()))
            out[t] = con.execute(f"SELECT {keep} FROM {t} ORDER BY ALL").fetchall()
    return out


def _fresh(path: Path) -> Any:
    return store.connect(path, seed=False)


@pytest.fixture(scope="module")
def plain(logs: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Any, ...]]]:
    """The plain single-process path: what every cluster run must give."""
    db = tmp_path_factory.mktemp("plain") / "plain.duckdb"
    con = _fresh(db)
    try:
        s = store.import_paths(con, logs, workers=1)
        assert s.stored == 12 and s.conflicts == 1 and s.failed == 1
        a = store.analyze(con, jobs=1)
        assert a.annotated == 12 and a.failed == 0
    finally:
        con.close()
    return dump(db)


def test_a_worker_with_other_code_is_refused_with_a_message(tmp_path: Path) -> None:
    """A `dask worker` started from a copy of the project with one line changed: the client
    refuses to run on it and names it (runs first, before the module's two workers exist)."""
    from distributed import LocalCluster

    other = tmp_path / "other"
    shutil.copytree(REPO / "analysis", other / "analysis", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "analysis" / "__init__.py", "a", encoding="utf-8") as fh:
        fh.write("# another version of the project\n")
    sched = LocalCluster(n_workers=0, processes=True, dashboard_address=":0")
    env = {**os.environ, "PYTHONPATH": str(other)}
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", sched.scheduler_address,
                               "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                              cwd=other, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with pytest.raises(VersionMismatch, match="runs other project code than this client") as err:
            Cluster.open(sched.scheduler_address, timeout=30).close()
        assert str(other / "analysis") in str(err.value)  # says which install it found
        rc = subprocess.run([sys.executable, "-m", "analysis.cli", "import", "--db", str(tmp_path / "x.duckdb"),
                             "--cluster", sched.scheduler_address, str(SAMPLE)], cwd=REPO,
                            capture_output=True, text=True, timeout=60, check=False)
        assert rc.returncode == 2 and "install the same version of the project on every worker" in rc.stderr
        assert not (tmp_path / "x.duckdb").exists()  # refused before the database was touched
    finally:
        worker.terminate()
        worker.wait(20)
        sched.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    c = Cluster.open("local:2")
    try:
        yield c
    finally:
        c.close()


def _address(c: Cluster) -> str:
    return c.client.scheduler.address


def test_import_and_analyze_on_the_cluster_give_the_plain_rows(
        cluster: Cluster, logs: list[str], plain: dict[str, Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.duckdb"
    _fresh(db).close()
    assert cli(["import", "--db", str(db), "--cluster", _address(cluster), "--json", *logs]) == 1  # conflict
    s = json.loads(capsys.readouterr().out)
    assert (s["stored"], s["conflicts"], s["failed"]) == (12, 1, 1)
    assert cli(["analyze", "--db", str(db), "--cluster", _address(cluster)]) == 0
    assert capsys.readouterr().out.startswith("12 games: 12 annotated")
    assert dump(db) == plain
    # again: every game is unchanged and annotated, nothing is written twice
    assert cli(["import", "--db", str(db), "--cluster", _address(cluster), "--json", *logs]) == 1
    assert json.loads(capsys.readouterr().out)["unchanged"] == 12
    assert dump(db)["events"] == plain["events"]


class Killer(threading.Thread):
    """Kills (SIGKILL) a worker process while the scheduler says it is running a task."""

    def __init__(self, c: Cluster) -> None:
        super().__init__(daemon=True)
        self.c = c
        self.pids: dict[str, int] = c.client.run(os.getpid)
        self.killed: int | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            busy = [w for w, tasks in self.c.client.processing().items() if tasks and w in self.pids]
            if busy:
                self.killed = self.pids[busy[0]]
                os.kill(self.killed, signal.SIGKILL)
                return
            time.sleep(0.005)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.join(5)
        self.c.client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker


def test_a_worker_killed_during_import_and_analyze_costs_nothing(
        cluster: Cluster, logs: list[str], plain: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "k.duckdb"
    con = _fresh(db)
    try:
        with Killer(cluster) as k:
            s = store.import_paths(con, logs, cluster=cluster)
        assert k.killed is not None and s.stored == 12
        with Killer(cluster) as k:
            a = store.analyze(con, cluster=cluster)
        assert k.killed is not None and a.annotated == 12
    finally:
        con.close()
    assert dump(db) == plain


def test_a_killed_client_leaves_whole_games_and_a_rerun_completes(cluster: Cluster, tmp_path: Path) -> None:
    files = [str(write_log(tmp_path / f"f{k:02}.jsonl", [make_game(f"g{k}-{i}", seed=100 * k + i, hands=2)
                                                          for i in range(3)])) for k in range(24)]
    ref = tmp_path / "ref.duckdb"
    con = _fresh(ref)
    store.import_paths(con, files, workers=1)
    con.close()
    want = dump(ref)
    db = tmp_path / "db.duckdb"
    _fresh(db).close()  # migrated and checkpointed: the write-ahead log grows by ~25 KB per stored game
    wal = Path(str(db) + ".wal")
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", "import", "--db", str(db), "--batch", "1",
                             "--cluster", _address(cluster), *files], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (wal.exists() and wal.stat().st_size > 100_000) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    got = dump(db)
    games = {r[0] for r in got["games"]}
    assert 0 < len(games) < 72, "the client was to be killed mid-import"
    for t in ("events", "hands", "hand_seats", "seats", "penalties", "openings"):  # whole games only
        assert got[t] == [r for r in want[t] if r[0] in games], t
    con = _fresh(db)
    try:
        s = store.import_paths(con, files, cluster=cluster)
    finally:
        con.close()
    assert s.unchanged == len(games) and s.stored == 72 - len(games)
    again = dump(db)
    for t in want:
        if t not in ("imports", "import_errors"):  # the killed run's record never committed
            assert again[t] == want[t], t


def test_cluster_addresses_are_checked_before_anything_runs(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["import", "--db", str(tmp_path / "x.duckdb"), "--cluster", "local:0", str(SAMPLE)]) == 2
    assert "local:N" in capsys.readouterr().err
    assert cli(["analyze", "--db", str(tmp_path / "x.duckdb"), "--cluster", "nowhere"]) == 2
    assert "tcp://HOST:PORT" in capsys.readouterr().err
    assert not (tmp_path / "x.duckdb").exists()


def test_simulate_and_match_on_the_cluster_give_the_plain_results(
        cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Self-play: one task per game, the same file byte for byte. A duplicate match: one task per
    deal, the same summary (seconds apart)."""
    sim = ["simulate", "--games", "4", "--hands", "1", "--seed", "5", "--quiet"]
    assert cli([*sim, "--out", str(tmp_path / "a.jsonl")]) == 0
    assert cli([*sim, "--out", str(tmp_path / "b.jsonl"), "--cluster", _address(cluster)]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    capsys.readouterr()
    runs = []
    for extra in ([], ["--cluster", _address(cluster)]):
        assert cli(["match", "--bots", "greedy,random", "--variant", "51", "--deals", "2", "--seed", "3", "--json",
                    *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds")
        runs.append(out)
    assert runs[0] == runs[1] and runs[0]["deals"] == 2

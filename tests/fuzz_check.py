"""Runs mutated logs and positions (tests/fuzz_gen.py) through the istaka command line and
checks the hardening promises (docs/limits.md); shared by tests/test_fuzz_cli.py and bench/fuzz.py.

Per run: every unit alone (one file each, one ``replay --json`` call) says which games replay
cleanly on their own; then the units together in a few files (plain, gzip, with a BOM, a gzip
missing its trailer, a gzip cut short) go through ``replay --json``, ``import``, ``errors`` and
``errors --json``, and the positions through ``solve --batch``. Findings are counted, never
raised, so a benchmark can print them; a test asserts they are all zero.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fuzz_gen
import fuzz_sheets

REPO = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "analysis.cli"]


@dataclass
class Findings:
    mutations: int = 0
    positions: int = 0
    calls: int = 0
    tracebacks: int = 0
    hangs: int = 0
    bad_exit: int = 0
    games_lost: int = 0
    lines_unanswered: int = 0
    clean_alone: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def note(self, msg: str) -> None:
        if len(self.notes) < 40:
            self.notes.append(msg[:600])

    @property
    def failures(self) -> int:
        return self.tracebacks + self.hangs + self.bad_exit + self.games_lost + self.lines_unanswered


def run(f: Findings, args: list[str], ok: tuple[int, ...], timeout: float = 300,
        stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes] | None:
    f.calls += 1
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        p = subprocess.run(CLI + args, cwd=REPO, capture_output=True, timeout=timeout, input=stdin, env=env,
                           check=False)
    except subprocess.TimeoutExpired:
        f.hangs += 1
        f.note(f"hang: {' '.join(args[:3])}")
        return None
    err = p.stderr.decode("utf-8", "replace")
    if "Traceback" in err:
        f.tracebacks += 1
        f.note(f"traceback in {' '.join(args[:2])}: {err[-500:]}")
    if p.returncode not in ok:
        f.bad_exit += 1
        f.note(f"exit {p.returncode} (expected {ok}) from {' '.join(args[:2])}: {err[-300:]}")
    return p


def _json(p: subprocess.CompletedProcess[bytes] | None) -> dict[str, Any]:
    if p is None:
        return {"games": [], "errors": []}
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"games": [], "errors": []}


def _clean(out: dict[str, Any]) -> dict[str, list[int]]:
    """Games that replayed valid, agreeing and without a read error naming them: id -> totals."""
    named = {e.get("game") for e in out.get("errors", [])}
    return {g["game"]: g["totals"] for g in out.get("games", []) if g["valid"] and g["agrees"] and g["game"] not in named}


def _complete_units(cut: bytes, units: list[tuple[str, fuzz_gen.Unit, str]]) -> set[str]:
    """Units wholly inside what a cut gzip still decompresses to, but the last of them (which the
    reader cannot know to be complete)."""
    d = zlib.decompressobj(31)
    try:
        got = len(d.decompress(cut))
    except zlib.error:
        return set()
    pos, done = 0, []
    for gid, lines, _ in units:
        pos += sum(len(b) + 1 for b in lines)
        if pos <= got:
            done.append(gid)
    return set(done[:-1])


def check_logs(work: Path, seed: int, mutations: int, clean: int, files: int = 4, f: Findings | None = None,
               timeout: float = 300, max_events: int | None = None, damaged: int = 600,
               sheets: int = 0, classes: Sequence[str] | None = None) -> Findings:
    """``damaged``: how many of the units also go into the two damaged gzip files; ``sheets``:
    mutated score sheets (tests/fuzz_sheets.py) among them, with a clean one per five."""
    f = f or Findings()
    t0 = time.perf_counter()
    us = fuzz_gen.units(seed, mutations, clean, max_events=max_events, classes=classes)
    us += fuzz_sheets.units(seed, sheets, sheets // 5)
    f.mutations += mutations + sheets
    alone = work / f"alone-{seed}"
    alone.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, (_gid, lines, _kind) in enumerate(us):
        p = alone / f"u{k:05d}.jsonl"
        p.write_bytes(b"".join(b + b"\n" for b in lines))
        paths.append(str(p))
    solo: dict[str, list[int]] = {}
    for i in range(0, len(paths), 1500):  # one process replays every unit in a file of its own
        solo.update(_clean(_json(run(f, ["replay", "--json", *paths[i:i + 1500]], (0, 1), timeout))))
    kinds = {gid: kind for gid, _, kind in us}
    f.clean_alone += len(solo)

    # the units together: plain files, one gzip, one with a BOM; every clean unit must survive
    n = max(1, files)
    groups = [us[i::n] for i in range(n)]
    together = work / f"together-{seed}"
    together.mkdir(exist_ok=True)
    expect: dict[str, set[str]] = {}
    for i, grp in enumerate(groups):
        data = fuzz_gen.file_bytes(grp, bom=(i == 1))
        if i == 0:
            p = together / f"f{i}.jsonl.gz"
            p.write_bytes(gzip.compress(data, mtime=0))
        else:
            p = together / f"f{i}.jsonl"
            p.write_bytes(data)
        expect[str(p)] = {gid for gid, _, _ in grp if gid in solo}
    # damaged compression, over the last group's games under other ids: a gzip without its
    # 8-byte trailer keeps every game; one cut short keeps the games wholly before the cut
    for suffix, name in (("~t", "trailer.jsonl.gz"), ("~c", "cut.jsonl.gz")):
        renamed = [(gid + suffix, [_rename(b, gid, gid + suffix) for b in lines], kind)
                   for gid, lines, kind in groups[-1][:damaged]]
        raw = fuzz_gen.file_bytes(renamed)
        gz = gzip.compress(raw, mtime=0)
        data = gz[:-8] if suffix == "~t" else gz[: len(gz) * 2 // 3]
        p = together / name
        p.write_bytes(data)
        keep = {g for g, _, _ in renamed} if suffix == "~t" else _complete_units(data, renamed)
        expect[str(p)] = {g for g in keep if g[: -len(suffix)] in solo}
    want = {gid for s in expect.values() for gid in s}
    sol_tot = dict(solo)
    sol_tot.update({g + s: solo[g] for g in solo for s in ("~t", "~c")})

    files_ = sorted(expect)
    out = _json(run(f, ["replay", "--json", *files_], (1,), timeout))
    got = _clean(out)
    for gid in sorted(want):
        if got.get(gid) != sol_tot[gid]:
            f.games_lost += 1
            f.note(f"replay lost {gid} ({kinds.get(gid.split('~')[0])}): clean alone, together "
                   f"{'missing' if gid not in got else got[gid]}")
    db = work / f"fuzz-{seed}.duckdb"
    for x in (db, Path(str(db) + ".wal")):
        x.unlink(missing_ok=True)
    run(f, ["import", "--db", str(db), "--no-progress", "--wait", "30", *files_], (1,), timeout)
    stored, refused = _stored(db)
    for gid in sorted(want):
        if gid not in stored and gid not in refused:
            f.games_lost += 1
            f.note(f"import lost {gid} ({kinds.get(gid.split('~')[0])})")
    run(f, ["errors", "--db", str(db)], (0, 1), timeout)
    p = run(f, ["errors", "--db", str(db), "--json"], (0, 1), timeout)
    if p is not None:
        for ln in p.stdout.decode("utf-8", "replace").splitlines():
            try:
                json.loads(ln)
            except ValueError:
                f.bad_exit += 1
                f.note(f"errors --json printed a line that is not JSON: {ln[:200]}")
                break
    _views(f, work, files_, want, out, kinds, timeout)
    f.seconds += time.perf_counter() - t0
    return f


def _views(f: Findings, work: Path, files_: list[str], want: set[str], out: Any, kinds: dict[str, str],
           timeout: float) -> None:
    """``istaka view`` of every file: no traceback, and every full game that replays
    cleanly comes out as its seat-0 view, which replays cleanly too."""
    views = {g["game"] for g in (out or {}).get("games", []) if g.get("view") is not None}
    made = []
    for i, src in enumerate(files_):
        dest = work / f"view-{i}.jsonl"
        if run(f, ["view", src, "--seat", "0", "--out", str(dest)], (0, 1), timeout) is not None and dest.exists():
            made.append(str(dest))
    if not made:
        return
    res = _json(run(f, ["replay", "--json", *made], (0, 1), timeout))
    got = _clean(res) if res else {}
    for gid in sorted(want - views):
        if got.get(gid + ".s0") is None:
            f.games_lost += 1
            f.note(f"view lost {gid} ({kinds.get(gid.split('~')[0])}): clean, no clean seat-0 view")


def _rename(b: bytes, old: str, new: str) -> bytes:
    o = json.dumps(old, ensure_ascii=False).encode()
    return b.replace(o, json.dumps(new, ensure_ascii=False).encode())


def _stored(db: Path) -> tuple[set[str], set[str]]:
    """Games stored valid and agreeing, and games refused for a value past the store's range
    (docs/limits.md: refused on their own as a ``store`` error)."""
    if not db.exists():
        return set(), set()
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        ok = {r[0] for r in con.execute("SELECT game FROM games WHERE valid AND agrees").fetchall()}
        refused = {r[0] for r in con.execute("SELECT game FROM import_errors WHERE kind = 'store' AND "
                                             "message LIKE '%past the store''s range%'").fetchall()}
        return ok, refused
    finally:
        con.close()


def check_solve(work: Path, seed: int, n: int, f: Findings | None = None, timeout: float = 300) -> Findings:
    """``solve --batch`` answers every line, in order: one JSON line out per line in."""
    f = f or Findings()
    t0 = time.perf_counter()
    lines = fuzz_gen.positions(seed, n)
    f.positions += n
    p = work / f"batch-{seed}.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    proc = run(f, ["solve", "--batch", str(p)], (0, 1), timeout)
    outs = proc.stdout.decode("utf-8", "replace").splitlines() if proc is not None else []
    want = [k for k, b in enumerate(lines, 1) if b.strip(b" \t\r\n")]
    if len(outs) != len(want):
        f.lines_unanswered += abs(len(want) - len(outs))
        f.note(f"solve --batch: {len(want)} lines in, {len(outs)} out")
    for k, o in zip(want, outs):
        try:
            res = json.loads(o)
        except ValueError:
            f.lines_unanswered += 1
            f.note(f"solve --batch line {k}: answer is not JSON")
            continue
        if "error" in res and res.get("line") != k:
            f.lines_unanswered += 1
            f.note(f"solve --batch line {k}: answered as line {res.get('line')}")
        from analysis.game import parse_line

        pos = parse_line(lines[k - 1])[0]  # None: a line the reader cannot parse names no id
        ident = pos.get("id") if isinstance(pos, dict) else None
        if isinstance(ident, str) or (type(ident) is int and -2**63 <= ident < 2**64):  # what the reader reads
            if res.get("id") != pos["id"]:
                f.lines_unanswered += 1
                f.note(f"solve --batch line {k}: id {pos['id']!r} answered as {res.get('id')!r}")
    f.seconds += time.perf_counter() - t0
    return f


MAX_RSS_MB = 400  # what one command may hold on a hostile file (a gzip bomb once took 8 GB)


# Runs the command and writes its peak resident memory (KB) to the file named first. The
# command is forked from this small process, not from pytest: Linux gives a forked child's
# ru_maxrss at least its parent's resident size at the fork, several hundred MB for a pytest
# process that has run the browser tests.
_RSS_WRAPPER = """import resource, subprocess, sys
code = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)"""


def run_rss(f: Findings, args: list[str], ok: tuple[int, ...], timeout: float = 120) -> tuple[bytes, int] | None:
    """:func:`run` that also measures the command's peak resident memory (MB); past MAX_RSS_MB
    counts as a finding. None on a hang."""
    import signal
    import tempfile

    f.calls += 1
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        with subprocess.Popen([sys.executable, "-c", _RSS_WRAPPER, rss.name, *CLI, *args], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                              env=dict(os.environ, PYTHONUNBUFFERED="1")) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                f.hangs += 1
                f.note(f"hang: {' '.join(a[:60] for a in args[:3])}")
                return None
        kb = rss.read().strip()
    mb = int(kb) // 1024 if kb.isdigit() else 0
    text = err.decode("utf-8", "replace")
    if "Traceback" in text:
        f.tracebacks += 1
        f.note(f"traceback in {' '.join(args[:2])}: {text[-500:]}")
    if proc.returncode not in ok:
        f.bad_exit += 1
        f.note(f"exit {proc.returncode} (expected {ok}) from {' '.join(a[:60] for a in args[:2])}: {text[-300:]}")
    return out, mb


def check_files(work: Path, seed: int, n: int, f: Findings | None = None, timeout: float = 120,
                special: bool = True) -> Findings:
    """Hostile files (fuzz_gen.FILE_CLASSES) through ``replay --json`` and ``import``:
    no traceback or hang, peak memory under MAX_RSS_MB, and every good game before the attack
    read and stored. ``special``: also a FIFO and the devices of fuzz_gen.SPECIAL_PATHS."""
    f = f or Findings()
    t0 = time.perf_counter()
    items: list[tuple[str, Path, set[str]]] = []
    for i, (kind, name, data, keep) in enumerate(fuzz_gen.hostile_files(seed, n)):
        d = work / f"hostile-{seed}" / f"{i:04d}"
        d.mkdir(parents=True, exist_ok=True)
        p = d / name
        p.write_bytes(data)
        items.append((kind, p, keep))
    if special:
        fifo = work / f"hostile-{seed}" / "pipe.jsonl"
        if not fifo.exists():
            os.mkfifo(fifo)
        items += [("fifo", fifo, set())] + [(x, Path(x), set()) for x in fuzz_gen.SPECIAL_PATHS if x != "fifo"]
    f.mutations += len(items)
    # the regular files together, one command each (memory is bounded per file, so also for all);
    # the special paths one by one (an import refuses a whole command line holding a FIFO)
    groups = [[x for x in items if x[0] not in fuzz_gen.SPECIAL_PATHS]] + \
        [[x] for x in items if x[0] in fuzz_gen.SPECIAL_PATHS]
    for g, group in enumerate(groups):
        if not group:
            continue
        kinds = ",".join(sorted({k for k, _, _ in group}))
        r = run_rss(f, ["replay", "--json", *(str(p) for _, p, _ in group)], (0, 1, 2), timeout)
        if r is None:
            continue
        out, mb = r
        if mb > MAX_RSS_MB:
            f.bad_exit += 1
            f.note(f"{kinds}: replay held {mb} MB")
        got = _clean(_json(subprocess.CompletedProcess([], 0, out, b"")))
        keep = {gid for _, _, k in group for gid in k}
        for gid in sorted(keep - set(got)):
            f.games_lost += 1
            f.note(f"{kinds}: replay lost {gid}")
        db = work / f"hostile-{seed}" / f"h{g}.duckdb"
        for x in (db, Path(str(db) + ".wal")):
            x.unlink(missing_ok=True)
        run(f, ["import", "--db", str(db), "--no-progress", "--wait", "30", *(str(p) for _, p, _ in group)],
            (0, 1, 2), timeout)
        stored, _ = _stored(db)
        for gid in sorted(keep - stored):
            f.games_lost += 1
            f.note(f"{kinds}: import lost {gid}")
    f.seconds += time.perf_counter() - t0
    return f


if __name__ == "__main__":  # pragma: no cover
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        fi = check_logs(Path(d), 1, int(sys.argv[1]) if len(sys.argv) > 1 else 200, 50)
        check_solve(Path(d), 1, 100, fi)
        print(fi)

"""Hostile entries of the two new kinds a person types or sends, at scale.

    python bench/fuzz_entries.py                      # 10,000 recorder entries, 10,000 study files
    python bench/fuzz_entries.py --entries 2000 --studies 500

Recorder (``analysis.game.record.Recording``, what the Record page calls on every tap): the hands
of the sample games are recorded again in "all racks" mode, event by event; before each true
event one hostile entry is tried (a wrong tile, seat or type, a field of the wrong type, a huge
or negative number, deep nesting, unknown fields, a copy of the true event out of turn). Every
hostile entry must be refused with a ``RecordError`` (one line, never another exception) and
leave the recording as it was; every true event must then be accepted, so the hand ends as the
log's. Also: hostile recording files (``Recording.from_dict`` of mangled JSON) must load or be
refused with ValueError, KeyError, TypeError or RecordError, as ``dashboard/state/recordings.py``
catches.

Studies (``analysis.store.studies``): a real study file of the sample is exported once, then
mutated (a line dropped, doubled, cut or swapped, a field changed to a wrong type, a huge value,
bytes of another file) and imported into a fresh in-memory store. Every import must either
store the study whole or refuse it with one line in its result (``import_study`` never raises
for what a file holds); the good games of a refused file may be kept, a partial study never.

Prints the counts and exits 1 on any finding.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from analysis.game.log import read_file  # noqa: E402
from analysis.game.record import RecordError, Recording  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "games.jsonl.gz"
JUNK: list[Any] = [None, "", "R1", "J", "X9", "R٣", "K13>R1", -1, 4, 2**63, 1e308, float("nan"), [], {}, [[["R1"]]],
                   {"a": {"b": {"c": 1}}}, "\x00", "ı" * 5000, True]
TYPES = ["draw", "take", "discard", "open", "meld", "layoff", "swap", "show", "declare", "return", "end", "hand",
         "game", "result", "", None, 7]


def hostile(ev: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """One entry the recorder must refuse or accept by the rules, made from the true event."""
    e = copy.deepcopy(ev)
    c = rnd.randrange(8)
    if c == 0:
        e["type"] = rnd.choice(TYPES)
    elif c == 1:
        e["seat"] = rnd.choice([(e.get("seat", 0) + rnd.randrange(1, 4)) % 4, -1, 4, "0", None, 2**40])
    elif c == 2:
        e["tile"] = rnd.choice(JUNK + ["R1", "Y7", "B13", "K2"])
    elif c == 3 and e:
        k = rnd.choice(sorted(e))
        e[k] = rnd.choice(JUNK)
    elif c == 4:
        e[rnd.choice(["x", "melds", "meld", "tiles", "what", "scores"])] = rnd.choice(JUNK)
    elif c == 5 and "melds" in e:
        e["melds"] = rnd.choice([[["R1", "R2"]], [["R1"] * 14], [[]], "R1 R2 R3", [[1, 2, 3]]])
    elif c == 6:
        e.pop(rnd.choice(sorted(e)), None)
    else:
        e = rnd.choice([{}, {"type": "discard"}, {"type": "draw", "seat": e.get("seat"), "tile": "J", "deep": JUNK[12]}])
    return e


def fingerprint(rec: Recording) -> str:
    return json.dumps(rec.to_dict(), sort_keys=True, default=str)


def fuzz_recorder(n: int, seed: int) -> tuple[int, int, list[str]]:
    rnd = random.Random(seed)
    games = [g for g in read_file(SAMPLE).games if g.error is None and "view" not in g.header]
    tried = accepted = 0
    notes: list[str] = []
    while tried < n:
        g = rnd.choice(games)
        hands = [e for _, e in g.events if e["type"] == "hand"]
        h = rnd.choice(hands)
        evs = [e for _, e in g.events if e.get("hand") == h["hand"] and e["type"] not in ("hand", "end")]
        rec = Recording(f"fz-{tried}", variant=g.header["variant"], rules=g.header.get("rules"),
                        players=list(g.header["players"]), view=None, starter=h["starter"],
                        indicator=h["indicator"], racks=[list(r) for r in h["racks"]])
        try:
            rec.deal()
        except RecordError as e:
            notes.append(f"{g.id} hand {h['hand']}: the log's deal refused: {e}")
            continue
        for ev in evs:
            true = {k: v for k, v in ev.items() if k not in ("game", "hand", "t")}
            bad = hostile(true, rnd)
            before = fingerprint(rec)
            tried += 1
            try:
                rec.add(bad)
                accepted += 1  # a legal move after all (e.g. another tile to discard): the hand goes its own way
                break
            except RecordError as e:
                if "\n" in str(e):
                    notes.append(f"two-line refusal: {str(e)[:120]!r}")
            except Exception as e:  # noqa: BLE001 - what this bench looks for
                notes.append(f"{type(e).__name__} on {json.dumps(bad, default=str)[:160]}: "
                             f"{traceback.format_exc(limit=2)[-300:]}")
            if fingerprint(rec) != before:
                notes.append(f"a refused entry changed the recording: {json.dumps(bad, default=str)[:160]}")
                break
            try:
                rec.add(true)
            except Exception as e:  # noqa: BLE001
                notes.append(f"{g.id} hand {h['hand']}: the log's own event refused after a hostile one: {e}")
                break
            if tried >= n:
                break
        # a mangled recording file
        d = rec.to_dict()
        k = rnd.choice(sorted(d))
        if k == "events" and d["events"] and rnd.random() < 0.7:  # one entry of the file edited
            e = rnd.choice(d["events"])
            f = rnd.choice(sorted(e))
            e[f] = rnd.choice(JUNK)
            k = f"events[].{f}"
        else:
            d[k] = rnd.choice(JUNK)
        try:
            r2 = Recording.from_dict(json.loads(json.dumps(d, default=str)))
            if r2.dealt:
                r2.states()
        except (ValueError, KeyError, TypeError, RecordError):
            pass
        except Exception as e:  # noqa: BLE001
            notes.append(f"recording file with {k} edited: {type(e).__name__}: {e}"[:300])
    return tried, accepted, notes


def fuzz_studies(n: int, seed: int) -> tuple[int, int, list[str]]:
    import duckdb

    from analysis import store
    from analysis.store import studies as S

    rnd = random.Random(seed)
    notes: list[str] = []
    stored = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src.duckdb"
        con = store.connect(src)
        store.import_paths(con, [str(SAMPLE)], progress=False)
        games = [r[0] for r in con.execute("SELECT game FROM games ORDER BY gid LIMIT 3").fetchall()]
        sid = S.create(con, "fuzz lesson", [S.Item(gid, 1, 3 + i, i % 4, f"note {i}") for i, gid in enumerate(games)])
        good = Path(tmp) / "good.istaka-study"
        S.export_study(con, sid, good)
        con.close()
        lines = good.read_bytes().splitlines(keepends=True)
        # each file meets an empty store of its own: one migrated once and copied (migrating a store
        # for each file took nine tenths of the run)
        empty = Path(tmp) / "empty.duckdb"
        db = duckdb.connect(str(empty))
        store.migrate(db)
        db.close()
        for i in range(n):
            ls = list(lines)
            c = rnd.randrange(7)
            j = rnd.randrange(len(ls))
            if c == 0:
                del ls[j]
            elif c == 1:
                ls.insert(j, ls[j])
            elif c == 2:
                ls[j] = ls[j][: rnd.randrange(len(ls[j]) + 1)]
            elif c == 3:
                k = rnd.randrange(len(ls))
                ls[j], ls[k] = ls[k], ls[j]
            elif c == 4:
                try:
                    obj = json.loads(ls[j])
                    key = rnd.choice(sorted(obj)) if isinstance(obj, dict) and obj else None
                    if key is not None:
                        obj[key] = rnd.choice(JUNK)
                    ls[j] = (json.dumps(obj, default=str) + "\n").encode()
                except ValueError:
                    ls[j] = b"{\n"
            elif c == 5:
                ls[j] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))) + b"\n"
            else:
                ls = ls[: rnd.randrange(1, len(ls) + 1)]
            f = Path(tmp) / f"m{i}.istaka-study"
            f.write_bytes(b"".join(ls))
            fresh = Path(tmp) / "fresh.duckdb"
            shutil.copyfile(empty, fresh)
            db = duckdb.connect(str(fresh))
            try:
                res = S.import_study(db, f)
                rows = db.execute("SELECT count(*) FROM study_items").fetchall()[0][0]
                if res.status == "stored":
                    stored += 1
                    if rows != res.items:
                        notes.append(f"mutation {c} at line {j}: stored with {res.items} items, {rows} in the store")
                else:
                    if res.error is None or "\n" in res.error.strip():
                        notes.append(f"mutation {c} at line {j}: refused without one line: {res.error!r:.120}")
                    if rows or db.execute("SELECT count(*) FROM studies").fetchall()[0][0]:
                        notes.append(f"mutation {c} at line {j}: refused ({res.error}) but part of the study stored")
            except Exception as e:  # noqa: BLE001 - import_study never raises for what a file holds
                notes.append(f"mutation {c} at line {j}: {type(e).__name__}: {e}"[:300])
            finally:
                db.close()
                f.unlink()
                fresh.unlink()
    return n, stored, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=10_000, help="hostile recorder entries")
    ap.add_argument("--studies", type=int, default=10_000, help="mutated study files")
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args()
    t0 = time.perf_counter()
    tried, accepted, rnotes = fuzz_recorder(args.entries, args.seed)
    t1 = time.perf_counter()
    print(f"recorder  {tried} hostile entries, {tried - accepted} refused with one line, {accepted} legal after all; "
          f"{len(rnotes)} findings; {t1 - t0:.1f}s")
    files, stored, snotes = fuzz_studies(args.studies, args.seed)
    print(f"studies   {files} mutated study files, {stored} stored whole, {files - stored} refused; "
          f"{len(snotes)} findings; {time.perf_counter() - t1:.1f}s")
    for n in (rnotes + snotes)[:20]:
        print("  " + n.replace("\n", " | "))
    return 1 if rnotes or snotes else 0


if __name__ == "__main__":
    sys.exit(main())

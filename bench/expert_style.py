"""The expert's style reference: expert self-play per preset, stored and measured by the same
queries as a player's style (analysis/store/style.py), written to analysis/store/expert_style.json.

    python bench/expert_style.py                          # 10 games of 11 hands a preset, four expert seats
    python bench/expert_style.py --games 1 --hands 1      # a quick look (not written unless --write)

The player's page shows a player's style beside the expert's on the same preset; where the store
holds too little expert self-play of its own, it reads this file. The file is never typed by
hand: run this script again to regenerate it (the seed fixes the games).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from analysis import store  # noqa: E402
from analysis.selfplay import run, specs, write_records  # noqa: E402
from analysis.store import style  # noqa: E402

VARIANTS = ("101", "101-classic", "51")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="games a preset")
    ap.add_argument("--hands", type=int, default=None, help="hands a game (default: the preset's)")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--seed", default="expert-style")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=str(style.REFERENCE))
    ap.add_argument("--write", action="store_true", help="write the file even for a run smaller than the default")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "istaka-expert-style"),
                    help="the games played are kept here and reused by a run with the same seed, games and hands")
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    rows: list[dict] = []
    meta: dict[str, dict] = {}
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        cache = Path(args.cache)
        cache.mkdir(parents=True, exist_ok=True)
        for v in variants:
            t0 = time.perf_counter()
            p = cache / f"{args.seed}-{v}-{args.games}-{args.hands or 'preset'}.jsonl"
            reused = p.exists()
            if not reused:  # a whole file or none: written aside, then renamed
                sp = specs(args.games, variant=v, bots=["expert"] * 4, seed=f"{args.seed}-{v}", hands=args.hands)
                part = p.with_suffix(".part")
                write_records(run(sp, jobs=args.jobs), str(part))
                os.replace(part, p)
            paths.append(p)
            meta[v] = {"games": args.games, "seconds": round(time.perf_counter() - t0, 1), "played_before": reused}
            print(f"{v}: {args.games} games of four expert seats in {meta[v]['seconds']:.0f}s "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
        con = store.connect(Path(tmp) / "expert.duckdb")
        store.import_paths(con, [str(p) for p in paths], workers=1)
        df = style.style(con, expert=True)
        con.close()
    for r in df.to_dict("records"):
        r.pop("source", None)
        rows.append({k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()})
        if r["metric"] == "opening_rate":
            meta[r["variant"]]["hand_seats"] = r["n"]
    for r in rows:
        if r["metric"] in dict(style.METRICS) or r["metric"].startswith("penalty:"):
            lo, hi = r["low"], r["high"]
            print(f"  {r['variant']:<12} {r['metric']:<14} {r['value']:8.3f}  [{lo:8.3f}, {hi:8.3f}]  n={r['n']}")
    cmd = "python bench/expert_style.py " + " ".join(sys.argv[1:])
    out = {"what": "the expert bot's style in its own self-play (four expert seats), per preset",
           "command": cmd.strip(), "seed": args.seed, "date": datetime.now(UTC).date().isoformat(),
           "hands_a_game": args.hands, "presets": meta, "rows": rows}
    small = args.games < 10
    if small and not args.write:
        print(f"a small run ({args.games} games a preset): not written (add --write)")
    else:
        Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"written {args.out}")
    print(f"total {time.perf_counter() - t_all:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

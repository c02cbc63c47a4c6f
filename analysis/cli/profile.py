"""``istaka profile``: a player's profile from the stored games — the skill line: points per hand
with the luck taken out (the deal, every draw and the other seats' play, each split from the
player's own seat), with its 95% interval, beside the raw points per hand.

    istaka profile PLAYER [--variant V] [--json] [--db FILE] [--games N] [--worlds W] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .common import UsageError, busy


def register(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    p = sub.add_parser("profile", help="a player's skill line: luck-adjusted points per hand with a 95%% interval",
                       description="Every hand the player sat in, split from the player's own seat into the deal, "
                       "the luck of each draw and of the other seats' play, the cost of each decision and the "
                       "estimation noise (docs/luck.md); the luck-adjusted points per hand, with a 95% interval, "
                       "beside the raw points per hand. Lower is better. Splits are cached beside the database.")
    p.add_argument("player", metavar="PLAYER", help="the player's name as the logs write it")
    p.add_argument("--variant", metavar="V", help="only games of this preset (101, 51, 101-classic, ...)")
    p.add_argument("--json", action="store_true", help="the profile as JSON (every hand's split included)")
    p.add_argument("--db", help="database file (default: $ISTAKA_DB, else data/istaka.duckdb)")
    p.add_argument("--games", type=int, metavar="N", help="only the player's latest N games")
    p.add_argument("--worlds", type=int, default=None, metavar="W",
                   help="fixed worlds each value and decision is priced on (default 16)")
    p.add_argument("--quick", action="store_true",
                   help="the rack-points value function instead of the evaluator: instant, far noisier")
    p.add_argument("--no-progress", action="store_true", help="no progress line per game on stderr")
    return {"profile": busy(cmd_profile)}


def cmd_profile(args: argparse.Namespace) -> int:
    from analysis import store
    from analysis.store.profile import PROFILE_WORLDS, known_player, profile

    worlds = PROFILE_WORLDS if args.worlds is None else args.worlds
    if not 1 <= worlds <= 10_000:
        raise UsageError("--worlds must be between 1 and 10000")
    if args.games is not None and args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.variant is not None:
        from analysis.game import PRESETS

        if args.variant not in PRESETS:
            raise UsageError(f"--variant: unknown preset {args.variant!r}; presets are {', '.join(PRESETS)}")
    show = not args.no_progress and not args.json

    def tick(done: int, total: int, game: str) -> None:
        if show:
            print(f"profile: {done}/{total} {game}", file=sys.stderr, flush=True)

    try:
        con_cm = store.reading(args.db)
    except store.StoreError as err:
        if isinstance(err, store.DatabaseBusy):
            raise
        raise UsageError(str(err)) from None
    with con_cm as con:
        if not known_player(con, args.player):
            raise UsageError(f"no player {args.player!r} in the store")
        prof = profile(con, args.player, variant=args.variant, worlds=worlds, games=args.games,
                       values="quick" if args.quick else "rollout", progress=tick)
    if args.json:
        print(json.dumps(prof, ensure_ascii=False))
        return 0
    print(render_text(prof))
    return 0


def render_text(prof: dict[str, Any]) -> str:
    """The profile as the command line prints it (English)."""
    sk = prof["skill"]
    what = f" in {prof['variant']}" if prof.get("variant") else ""
    st = prof["setting"]
    how = f"the evaluator, {st['worlds']} worlds a value" if st["values"] == "rollout" else "rack-points values"
    lines = [f"{prof['player']}{what}: {sk['hands']} hands counted in {sk['games']} games "
             f"(split from the player's own seat; {how}; lower is better)"]
    if not sk["hands"]:
        lines.append("  no ended hand to split")
        return "\n".join(lines)

    def row(name: str, x: dict[str, Any]) -> str:
        return f"  {name:<34}{x['mean']:>8.1f}   95% [{x['low']:.1f}, {x['high']:.1f}]"

    lines.append(row("luck-adjusted points per hand", sk["adjusted"]))
    lines.append(row("raw points per hand", sk["raw"]))
    lines.append(row("decisions' cost per hand", sk["cost"]))
    lines.append(row("luck per hand", sk["luck"]))
    lines.append(row("estimation noise per hand", sk["noise"]))
    line = sk.get("line") or []
    if len(line) > 1:
        lines.append("  the skill line, game by game (running luck-adjusted points per hand):")
        for p in line:
            lines.append(f"    {p['game']:<28} {p['hands']:>3} hands  {p['adjusted']:>8.1f}  running "
                         f"{p['mean']:.1f} [{p['low']:.1f}, {p['high']:.1f}]")
    return "\n".join(lines + coach_lines(prof))


def coach_lines(prof: dict[str, Any]) -> list[str]:
    """The mistakes by kind and the style beside the expert, as the command line prints them."""
    out: list[str] = []
    mk = prof.get("mistakes_by_kind") or {}
    if mk.get("hands"):
        out.append(f"  mistakes by kind over {mk['hands']} reviewed hands ({mk['cost_per_hand']:.1f} points lost a hand):")
        for k in mk["kinds"]:
            rules = f" ({', '.join(k['rules'])})" if k["rules"] else ""
            out.append(f"    {k['name'] + rules:<52}{k['mistakes']:>5}  {k['per_hand']:>7.1f} a hand  "
                       f"{100 * k['share']:>4.0f}%")
    st = prof.get("style") or {}
    if st.get("rows"):
        out.append(f"  style beside the expert in {st['variant']} (95% intervals; rates in %):")
        for r in st["rows"]:
            def cell(x: dict[str, Any] | None, rate: bool) -> str:
                if x is None or x["value"] is None:
                    return "-"
                k = 100 if rate else 1
                lo = "" if x["low"] is None else f" [{k * x['low']:.2f}, {k * x['high']:.2f}]"
                return f"{k * x['value']:.2f}{lo}"
            rate = r["kind"] == "rate"
            out.append(f"    {r['metric']:<16}{cell(r['player'], rate):>26}   expert {cell(r['expert'], rate)}")
    return out

"""A player's style from the stored games' events, beside the expert's on the same preset.

Per player (or the ``expert`` bot's seats in self-play) and preset, over the hands that count
(finished or exhausted: not void, invalid or unfinished), one hand-seat at a time:

- ``opening_rate``: share of hands the seat opened (O1); ``opening_turn``: the seat's own turn
  of the opening (1: its first turn), over the hands it opened;
- ``pairs_share``: share of its openings made with pairs (O3);
- ``take_rate``: share of its turns begun by taking the previous discard and keeping it (P1, P2;
  a take given back, P2, counts as the draw that follows it);
- ``layoffs``: tiles laid off per hand (L1); ``x5``: discards that fed the next seat's opening
  per hand (the X5 penalties charged to it); ``penalty:RULE``: penalty points per hand by rule
  (X2-X7, the siler O8 negative);
- ``finish_rate``: share of hands it finished (E1).

Rates come with a 95% Wilson interval (the take rate counts turns, which are not independent
within a hand: its interval is narrower than the truth); per-hand means with a 95% Student t
interval over hand-seats. A game's **source** is ``sheet`` (a score sheet), ``played`` (the Play
page: the header names its ``people``), ``selfplay`` (every seat a bot, none a person) or
``recorded`` (anything else: recorded at a table, imported from a site).

The expert's figures come from the store's own self-play games where the ``expert`` bot holds a
seat in that preset (at least :data:`EXPERT_MIN_HANDS` hand-seats), else from
:data:`REFERENCE`, written by ``bench/expert_style.py`` from expert self-play through these same
queries (never by hand).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, date, datetime, timedelta
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from analysis.game.stats import sums_interval, wilson

Con = duckdb.DuckDBPyConnection

SOURCES = ("played", "recorded", "sheet", "selfplay")
EXPERT = "expert"  # the bot whose self-play seats are the reference
EXPERT_MIN_HANDS = 200  # hand-seats of stored expert self-play needed to prefer them to the reference file
REFERENCE = Path(__file__).with_name("expert_style.json")

# (metric, how it is measured): rate (Wilson) or mean (t); the order the tables list them in
METRICS: tuple[tuple[str, str], ...] = (
    ("opening_rate", "rate"), ("opening_turn", "mean"), ("pairs_share", "rate"), ("take_rate", "rate"),
    ("layoffs", "mean"), ("x5", "mean"), ("finish_rate", "rate"))

# the game's source, from games g (SOURCES)
SOURCE_SQL = """CASE WHEN coalesce(g.sheet, false) THEN 'sheet'
     WHEN coalesce(json_array_length(json_extract(g.header_extra, '$.people')), 0) > 0 THEN 'played'
     WHEN json_array_length(json_extract(g.header_extra, '$.bots')) = 4
          AND len(list_filter(json_extract_string(g.header_extra, '$.bots[*]'), lambda x: x IS NOT NULL)) = 4
          THEN 'selfplay'
     ELSE 'recorded' END"""


def games_filter(variant: str | None, sources: Sequence[str] | None, date_from: Any, date_to: Any) -> tuple[str, list[Any]]:
    """The games CTE: gid, game, variant, started, source, bots, filtered (None: no filter; days
    inclusive, as dates or ISO text)."""
    src = list(sources) if sources is not None else None
    sql = f"""SELECT g.gid, g.game, g.variant, g.started, {SOURCE_SQL} AS source,
                     json_extract_string(g.header_extra, '$.bots[*]') AS bots
              FROM games g
              WHERE (?::VARCHAR IS NULL OR g.variant = ?)
                AND (?::TIMESTAMP IS NULL OR g.started >= ?) AND (?::TIMESTAMP IS NULL OR g.started < ?)"""
    lo, hi = _day(date_from), _day(date_to, end=True)
    params: list[Any] = [variant, variant, lo, lo, hi, hi]
    if src is not None:
        sql = f"SELECT * FROM ({sql}) WHERE list_contains(?::VARCHAR[], source)"
        params.append(src)
    return sql, params


def _day(x: Any, end: bool = False) -> datetime | None:
    """A bound of a range of days: a day (date or "YYYY-MM-DD") as ``end`` means its end."""
    if x is None or x == "":
        return None
    if isinstance(x, str):
        x = date.fromisoformat(x[:10]) if len(x) <= 10 else datetime.fromisoformat(x)
    if isinstance(x, datetime):
        return x.replace(tzinfo=None) if x.tzinfo is None else x.astimezone(UTC).replace(tzinfo=None)
    d = datetime(x.year, x.month, x.day)
    return d + timedelta(days=1) if end else d


def _who(players: Sequence[str] | None, expert: bool) -> tuple[str, list[Any]]:
    """Which hand-seats: the named players' (the ``who`` column is the name), or the expert bot's
    seats in self-play (``who`` is :data:`EXPERT`)."""
    if expert:
        return f"(g.source = 'selfplay' AND g.bots[hs.seat + 1] = '{EXPERT}')", []
    return "list_contains(?::VARCHAR[], hs.player)", [list(players or [])]


def hand_seats_sql(players: Sequence[str] | None, expert: bool, variant: str | None,
                   sources: Sequence[str] | None, date_from: Any, date_to: Any) -> tuple[str, list[Any]]:
    """One row per counted hand-seat: who, variant, game, started, ord, seat, opened, finished,
    moves (the log has the hand's moves: not a score sheet), open_kind, open_turn, takes, draws,
    layoffs, x5, pens (its penalties: rule and points) — the CTE ``rows``, after ``g`` and ``hs``.
    One pass over the events."""
    gsql, gparams = games_filter(variant, sources, date_from, date_to)
    who, wparams = _who(players, expert)
    label = f"'{EXPERT}'" if expert else "hs.player"
    sql = f"""
        WITH g AS ({gsql}),
        hs AS (
            SELECT {label} AS who, g.variant, g.game, g.gid, g.started, hs.ord, hs.seat, hs.opened, hs.finished
            FROM hand_seats hs JOIN g ON g.gid = hs.gid
                 JOIN hands h ON h.gid = hs.gid AND h.ord = hs.ord
            WHERE h.result IN ('finish', 'exhausted') AND {who}),
        ev AS (
            SELECT e.gid, e.ord, e.seat,
                   min(e.seq) FILTER (WHERE e.type = 'open') AS open_seq,
                   list(e.seq) FILTER (WHERE e.type = 'discard') AS discards,
                   count(*) FILTER (WHERE e.type = 'take') - count(*) FILTER (WHERE e.type = 'return') AS takes,
                   count(*) FILTER (WHERE e.type = 'draw') AS draws,
                   coalesce(sum(CASE WHEN e.type = 'layoff' THEN greatest(len(e.tiles), 1) END), 0) AS layoffs
            FROM events e
            WHERE e.gid IN (SELECT gid FROM hs) AND e.type IN ('open', 'take', 'return', 'draw', 'layoff', 'discard')
            GROUP BY ALL),
        op AS (SELECT o.game, o.ord, o.seat, min(o.kind) AS open_kind FROM openings o
               WHERE o.game IN (SELECT game FROM hs) GROUP BY ALL),
        pen AS (SELECT p.game, p.ord, p.seat, count(*) FILTER (WHERE p.rule = 'X5') AS x5,
                       list({{'rule': p.rule, 'points': p.points}}) AS pens
                FROM penalties p WHERE p.game IN (SELECT game FROM hs) GROUP BY ALL),
        rows AS (
            SELECT hs.who, hs.variant, hs.game, hs.started, hs.ord, hs.seat, hs.opened, hs.finished,
                   ev.gid IS NOT NULL AS moves, op.open_kind,
                   CASE WHEN hs.opened AND ev.open_seq IS NOT NULL
                        THEN len(list_filter(coalesce(ev.discards, []), lambda x: x < ev.open_seq)) + 1 END AS open_turn,
                   coalesce(ev.takes, 0) AS takes, coalesce(ev.draws, 0) AS draws,
                   coalesce(ev.layoffs, 0) AS layoffs, coalesce(pen.x5, 0) AS x5, pen.pens
            FROM hs LEFT JOIN ev ON ev.gid = hs.gid AND ev.ord = hs.ord AND ev.seat = hs.seat
                 LEFT JOIN op ON op.game = hs.game AND op.ord = hs.ord AND op.seat = hs.seat
                 LEFT JOIN pen ON pen.game = hs.game AND pen.ord = hs.ord AND pen.seat = hs.seat)"""
    return sql, gparams + wparams


def t_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """(mean, low, high): the mean of n values from their sum and sum of squares, with its 95%
    Student t interval (infinite below two values)."""
    return sums_interval(total, squares, n)


def _row(who: str, variant: str, metric: str, kind: str, n: int, value: float, lo: float, hi: float,
         source: str = "store") -> dict[str, Any]:
    return {"who": who, "variant": variant, "metric": metric, "kind": kind, "n": int(n), "value": value,
            "low": lo, "high": hi, "source": source}


def style(con: Con, players: Sequence[str] | None = None, *, expert: bool = False, variant: str | None = None,
          sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """The style table, long: who, variant, metric (:data:`METRICS`, then ``penalty:RULE``), kind
    (rate or mean), n (hand-seats, openings or turns it is over), value, low, high (the 95%
    interval), source (``store``). ``expert``: the expert bot's self-play seats instead of
    ``players``. Rates are fractions (0-1)."""
    base, params = hand_seats_sql(players, expert, variant, sources, date_from, date_to)
    cur = con.execute(base + """
        SELECT who, variant, opened, finished, moves, open_kind, open_turn, takes, draws, layoffs, x5, pens
        FROM rows ORDER BY who, variant""", params)
    groups: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    for r in cur.fetchall():
        groups.setdefault((r[0], r[1]), []).append(r)
    out: list[dict[str, Any]] = []
    for (who, var), rs in groups.items():
        n = len(rs)
        opened = sum(1 for r in rs if r[2])
        finished = sum(1 for r in rs if r[3])
        kinds = [r[5] for r in rs if r[5] is not None]
        takes = sum(int(r[7]) for r in rs)
        turns = takes + sum(int(r[8]) for r in rs)
        for metric, k, trials in (("opening_rate", opened, n), ("pairs_share", kinds.count("pairs"), len(kinds)),
                                  ("take_rate", takes, turns), ("finish_rate", finished, n)):
            lo, hi = wilson(float(k), float(trials))
            out.append(_row(who, var, metric, "rate", int(trials), k / trials if trials else math.nan, lo, hi))
        turn = [float(r[6]) for r in rs if r[6] is not None]
        lay = [float(r[9]) for r in rs if r[4]]  # tiles laid off: hands with moves only (a sheet has none)
        x5 = [float(r[10]) for r in rs]
        for metric, xs in (("opening_turn", turn), ("layoffs", lay), ("x5", x5)):
            mean, lo, hi = t_interval(sum(xs), sum(x * x for x in xs), len(xs))
            out.append(_row(who, var, metric, "mean", len(xs), mean, lo, hi))
        per_rule: dict[str, list[float]] = {}
        for r in rs:
            mine: dict[str, float] = {}
            for p in r[11] or []:
                mine[p["rule"]] = mine.get(p["rule"], 0.0) + float(p["points"])
            for rule, pts in mine.items():
                per_rule.setdefault(rule, []).append(pts)
        for rule in sorted(per_rule):
            xs = per_rule[rule]  # the hands without it add 0 to the sums
            mean, lo, hi = t_interval(sum(xs), sum(x * x for x in xs), n)
            out.append(_row(who, var, f"penalty:{rule}", "mean", n, mean, lo, hi))
    cols = ["who", "variant", "metric", "kind", "n", "value", "low", "high", "source"]
    return pd.DataFrame(out, columns=cols)


def hand_rows(con: Con, players: Sequence[str] | None = None, *, expert: bool = False, variant: str | None = None,
              sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """The counted hand-seats themselves (:func:`hand_seats_sql`'s rows), for checks and exports."""
    base, params = hand_seats_sql(players, expert, variant, sources, date_from, date_to)
    cur = con.execute(base + " SELECT * FROM rows ORDER BY who, started NULLS FIRST, game, ord", params)
    return pd.DataFrame.from_records(cur.fetchall(), columns=[d[0] for d in cur.description])


def reference(path: Path | None = None) -> dict[str, Any]:
    """The committed expert reference ({} when the file is missing or unreadable)."""
    try:
        return json.loads((path or REFERENCE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def expert_style(con: Con, variant: str | None = None, *, path: Path | None = None) -> pd.DataFrame:
    """The expert's style per preset: from the store's expert self-play where a preset holds at
    least :data:`EXPERT_MIN_HANDS` of its hand-seats (source ``store``), else from the reference
    file (source ``reference``)."""
    mine = style(con, expert=True, variant=variant)
    enough = {v for v, n in mine[mine.metric == "opening_rate"][["variant", "n"]].itertuples(index=False)
              if n >= EXPERT_MIN_HANDS}
    parts = [mine[mine.variant.isin(enough)]]
    ref = reference(path)
    rows = [r for r in ref.get("rows", []) if (variant is None or r["variant"] == variant)
            and r["variant"] not in enough]
    if rows:
        parts.append(pd.DataFrame([{**r, "source": "reference"} for r in rows], columns=mine.columns))
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else mine.iloc[0:0]


def beside_expert(con: Con, players: Sequence[str], *, variant: str, sources: Sequence[str] | None = None,
                  date_from: Any = None, date_to: Any = None, path: Path | None = None) -> pd.DataFrame:
    """The players' style (filtered) and the expert's (:func:`expert_style`, same preset, never
    filtered by source or days) in one long frame; a penalty rule charged to one of them and not
    to another reads 0 there (its interval [0, 0] over that one's hands)."""
    mine = style(con, players, variant=variant, sources=sources, date_from=date_from, date_to=date_to)
    exp = expert_style(con, variant, path=path)
    frame = pd.concat([x for x in (mine, exp) if len(x)], ignore_index=True) if len(mine) or len(exp) else mine
    if not len(frame):
        return frame
    rules = sorted({m for m in frame.metric if m.startswith("penalty:")})
    hands = {w: int(n) for w, n in frame[frame.metric == "opening_rate"][["who", "n"]].itertuples(index=False)}
    src = dict(frame[["who", "source"]].drop_duplicates("who").itertuples(index=False))
    have = set(zip(frame.who, frame.metric))
    extra = [_row(w, variant, r, "mean", n, 0.0, 0.0, 0.0, src.get(w, "store"))
             for w, n in hands.items() for r in rules if (w, r) not in have and n > 0]
    if extra:
        frame = pd.concat([frame, pd.DataFrame(extra, columns=frame.columns)], ignore_index=True)
    return frame


def sources_of(con: Con) -> dict[str, int]:
    """Games stored per source (:data:`SOURCES`)."""
    rows = con.execute(f"SELECT {SOURCE_SQL} AS s, count(*) FROM games g GROUP BY 1").fetchall()
    return {s: int(n) for s, n in rows}


def reference_meta(path: Path | None = None) -> dict[str, Any]:
    """How the reference file was made (its command, date, hands per preset)."""
    ref = reference(path)
    return {k: v for k, v in ref.items() if k != "rows"}


__all__ = ["EXPERT", "EXPERT_MIN_HANDS", "METRICS", "REFERENCE", "SOURCES", "SOURCE_SQL", "beside_expert", "expert_style", "games_filter",
           "hand_rows", "hand_seats_sql", "reference", "reference_meta", "sources_of", "style", "t_interval",
           "wilson"]

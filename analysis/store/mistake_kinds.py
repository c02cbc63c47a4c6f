"""Mistakes by kind in the store: the review's costs per player, gathered by
:mod:`analysis.review.taxonomy` (each category in exactly one kind), with their counts, points
lost per hand, the trend over weeks or games, and the positions to practise on of one kind.

A cost is what the stored review charged: a deep review's graded decisions
(``review_choices.cost``, forced ones not graded), a quick one's mistakes
(``review_mistakes.cost``). Only annotations of the games' current content count. Hands are the
hands of the player's that the review graded (a seat-view log grades its viewing seat only).
Filters as in :mod:`.style` (preset, sources, days).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pandas as pd

from analysis.review.model import CATEGORY_KIND
from analysis.review.taxonomy import BY_KEY, KINDS, kind_sql

from .style import _games_filter

Con = duckdb.DuckDBPyConnection

# hindsight findings point at the position after the discard (what happened); a retry needs the
# position before it
AFTER_THE_DISCARD = ("fed_opening", "fed_finish")


def _decision_sql() -> str:
    return "CASE " + " ".join(f"WHEN m.category = '{c}' THEN '{k}'" for c, k in CATEGORY_KIND.items()) + " END"


def costs_sql(players: Sequence[str] | None, variant: str | None, sources: Sequence[str] | None,
              date_from: Any, date_to: Any) -> tuple[str, list[Any]]:
    """CTEs ``g`` (the games), ``rg`` (their current annotations), ``costs`` (one row per charged
    cost: player, game, started, ord, seat, turn, step, decision, category, kind, cost) and
    ``hands`` (player, game, started, ord: the graded hands)."""
    gsql, params = _games_filter(variant, sources, date_from, date_to)
    who = "(?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], x.player))"
    names = list(players) if players is not None else None
    sql = f"""
        WITH g AS ({gsql}),
        rg AS (SELECT r.game, coalesce(r.depth, 'quick') AS depth, g.started, g.gid FROM review_games r
               JOIN games gm ON gm.game = r.game AND gm.checksum = r.checksum JOIN g ON g.game = r.game),
        raw AS (
            SELECT c.player, c.game, rg.started, rg.gid, c.ord, c.seat, c.turn, c.step, c.kind AS decision,
                   c.category, c.cost
            FROM review_choices c JOIN rg USING (game)
            WHERE rg.depth = 'deep' AND c.forced IS NULL AND c.cost > 0
            UNION ALL
            SELECT m.player, m.game, rg.started, rg.gid, m.ord, m.seat, m.turn, m.step, {_decision_sql()},
                   m.category, m.cost::DOUBLE
            FROM review_mistakes m JOIN rg USING (game)
            WHERE rg.depth <> 'deep' AND m.cost > 0),
        costs AS (SELECT x.*, {kind_sql('x.category', 'x.decision')} AS kind FROM raw x WHERE {who}),
        hands AS (SELECT DISTINCT x.player, x.game, rg.started, rg.gid, x.ord
                  FROM review_decisions x JOIN rg USING (game) WHERE {who})"""
    return sql, params + [names, names, names, names]


def _frame(cur: Any) -> pd.DataFrame:
    return pd.DataFrame.from_records(cur.fetchall(), columns=[d[0] for d in cur.description])


def kinds_summary(con: Con, players: Sequence[str] | None = None, *, variant: str | None = None,
                  sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """Per player and kind (every kind listed, in :data:`~analysis.review.taxonomy.KINDS` order):
    player, kind, mistakes (charged decisions), cost (points), hands (graded hands of the player),
    per_hand (points lost per hand), share (of the player's total cost, 0-1)."""
    base, params = costs_sql(players, variant, sources, date_from, date_to)
    h = con.execute(base + " SELECT player, count(*) FROM hands GROUP BY 1", params).fetchall()
    c = con.execute(base + " SELECT player, kind, count(*), sum(cost) FROM costs GROUP BY 1, 2", params).fetchall()
    hands = {p: int(n) for p, n in h}
    got = {(p, k): (int(n), float(s)) for p, k, n, s in c}
    total = {p: sum(s for (q, _), (_, s) in got.items() if q == p) for p in hands}
    rows = []
    for p in sorted(hands):
        for k in KINDS:
            n, s = got.get((p, k.key), (0, 0.0))
            rows.append({"player": p, "kind": k.key, "mistakes": n, "cost": s, "hands": hands[p],
                         "per_hand": s / hands[p] if hands[p] else float("nan"),
                         "share": s / total[p] if total[p] else 0.0})
    return pd.DataFrame(rows, columns=["player", "kind", "mistakes", "cost", "hands", "per_hand", "share"])


def kinds_trend(con: Con, players: Sequence[str] | None = None, *, by: str = "week", variant: str | None = None,
                sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """Points lost per hand by kind over time: player, period (a week's Monday, or the game's
    start and id with ``by="game"``), n (the period's order, 1, 2 …), kind, cost, hands,
    per_hand. Every kind appears in every period of a player (0 where it cost nothing). Games
    without a start date fall in no week (``by="game"`` keeps them, in import order)."""
    if by not in ("week", "game"):
        raise ValueError(f"by must be 'week' or 'game', got {by!r}")
    base, params = costs_sql(players, variant, sources, date_from, date_to)
    if by == "week":
        per = "strftime(date_trunc('week', started), '%Y-%m-%d')"
        order = "min(started)"
        where = "started IS NOT NULL"
    else:
        per = "game"
        order = "min(gid)"
        where = "true"
    h = con.execute(base + f"""
        SELECT player, {per} AS period, count(*) AS hands, {order} AS o FROM hands WHERE {where}
        GROUP BY 1, 2 ORDER BY 1, o, 2""", params).fetchall()
    c = con.execute(base + f"""
        SELECT player, {per} AS period, kind, sum(cost) FROM costs WHERE {where} GROUP BY 1, 2, 3""",
                    params).fetchall()
    got = {(p, per_, k): float(s) for p, per_, k, s in c}
    rows = []
    seen: dict[str, int] = {}
    for p, per_, n, _ in h:
        seen[p] = seen.get(p, 0) + 1
        for k in KINDS:
            s = got.get((p, per_, k.key), 0.0)
            rows.append({"player": p, "period": str(per_), "n": seen[p], "kind": k.key, "cost": s,
                         "hands": int(n), "per_hand": s / n if n else float("nan")})
    return pd.DataFrame(rows, columns=["player", "period", "n", "kind", "cost", "hands", "per_hand"])


def total_cost(con: Con, players: Sequence[str] | None = None, *, variant: str | None = None,
               sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> dict[str, float]:
    """Per player, the review's whole cost as its decisions store it (``review_decisions``: a
    deep decision's expected points, a quick one's exposure cost): what the kinds add up to."""
    base, params = costs_sql(players, variant, sources, date_from, date_to)
    rows = con.execute(base + """
        SELECT x.player, sum(coalesce(x.cost_points, x.cost)) FROM review_decisions x JOIN rg USING (game)
        WHERE (?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], x.player)) GROUP BY 1""",
                       params + [list(players) if players is not None else None] * 2).fetchall()
    return {p: float(s or 0.0) for p, s in rows}


def kind_positions(con: Con, player: str, kind: str, *, variant: str | None = None,
                   sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None,
                   min_cost: int = 1) -> pd.DataFrame:
    """A player's positions of one kind to practise on, costliest first: game, ord, hand, seat,
    step (the position before the decision), line, category, cost, detail (the stored mistakes,
    deep or quick)."""
    if kind not in BY_KEY:
        raise ValueError(f"no such kind of mistake: {kind!r}")
    gsql, params = _games_filter(variant, sources, date_from, date_to)
    back = ", ".join(f"'{c}'" for c in AFTER_THE_DISCARD)
    cur = con.execute(f"""
        WITH g AS ({gsql}),
        m AS (SELECT m.*, {kind_sql('m.category', _decision_sql())} AS kind,
                     gm.started
              FROM review_mistakes m JOIN review_games r ON r.game = m.game
                   JOIN games gm ON gm.game = r.game AND gm.checksum = r.checksum JOIN g ON g.game = m.game)
        SELECT game, ord, hand, seat, CASE WHEN category IN ({back}) THEN step - 1 ELSE step END AS step, line,
               category, cost, detail
        FROM m WHERE player = ? AND cost >= ? AND kind = ?
        ORDER BY cost DESC, started DESC NULLS LAST, game, ord, step""", params + [player, min_cost, kind])
    return _frame(cur)


__all__ = ["AFTER_THE_DISCARD", "costs_sql", "kind_positions", "kinds_summary", "kinds_trend", "total_cost"]

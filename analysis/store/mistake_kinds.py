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

from .style import games_filter

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
    gsql, params = games_filter(variant, sources, date_from, date_to)
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


def kinds_by_game(con: Con, players: Sequence[str] | None = None, *, variant: str | None = None,
                  sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """One row per player and graded game: player, game, started, gid, hands (graded hands of the
    player in it), and per kind its ``mistakes`` and ``cost`` (lists in KINDS order): what the
    summary and the trend are both made of, in one read."""
    base, params = costs_sql(players, variant, sources, date_from, date_to)
    cur = con.execute(base + f""",
        h AS (SELECT player, game, any_value(started) AS started, any_value(gid) AS gid, count(*) AS hands
              FROM hands GROUP BY 1, 2),
        c AS (SELECT player, game, kind, count(*) AS n, sum(cost) AS s FROM costs GROUP BY 1, 2, 3)
        SELECT h.player, h.game, h.started, h.gid, h.hands,
               list(c.kind) FILTER (WHERE c.kind IS NOT NULL) AS kinds, list(c.n) FILTER (WHERE c.kind IS NOT NULL) AS ns,
               list(c.s) FILTER (WHERE c.kind IS NOT NULL) AS ss
        FROM h LEFT JOIN c ON c.player = h.player AND c.game = h.game
        GROUP BY ALL ORDER BY h.player, h.gid""", params)
    rows = []
    order = [k.key for k in KINDS]
    for player, game, started, gid, hands, kinds, ns, ss in cur.fetchall():
        got = {k: (int(n), float(x)) for k, n, x in zip(kinds or [], ns or [], ss or [])}
        rows.append({"player": player, "game": game, "started": started, "gid": gid, "hands": int(hands),
                     "mistakes": [got.get(k, (0, 0.0))[0] for k in order],
                     "cost": [got.get(k, (0, 0.0))[1] for k in order]})
    return pd.DataFrame(rows, columns=["player", "game", "started", "gid", "hands", "mistakes", "cost"])


def summary_of(games: pd.DataFrame) -> pd.DataFrame:
    """Per player and kind (every kind listed, in KINDS order): player, kind, mistakes (charged
    decisions), cost (points), hands (graded hands of the player), per_hand (points lost per
    hand), share (of the player's total cost, 0-1)."""
    rows = []
    for p, df in sorted(games.groupby("player"), key=lambda x: x[0]):
        hands = int(df.hands.sum())
        n = [sum(x) for x in zip(*df.mistakes)]
        c = [sum(x) for x in zip(*df.cost)]
        total = sum(c)
        for i, k in enumerate(KINDS):
            rows.append({"player": p, "kind": k.key, "mistakes": int(n[i]), "cost": float(c[i]), "hands": hands,
                         "per_hand": c[i] / hands if hands else float("nan"), "share": c[i] / total if total else 0.0})
    return pd.DataFrame(rows, columns=["player", "kind", "mistakes", "cost", "hands", "per_hand", "share"])


def trend_of(games: pd.DataFrame, by: str = "week") -> pd.DataFrame:
    """Points lost per hand by kind over time: player, period (a week's Monday, or the game with
    ``by="game"``), n (the period's order, 1, 2 …), kind, cost, hands, per_hand. Every kind appears
    in every period of a player (0 where it cost nothing). Games without a start date fall in no
    week (``by="game"`` keeps them, in import order)."""
    if by not in ("week", "game"):
        raise ValueError(f"by must be 'week' or 'game', got {by!r}")
    rows = []
    for p, df in sorted(games.groupby("player"), key=lambda x: x[0]):
        if by == "week":
            df = df[df.started.notna()].copy()
            df["period"] = [(s - pd.Timedelta(days=s.weekday())).strftime("%Y-%m-%d") for s in pd.to_datetime(df.started)]
            df = df.sort_values(["started", "gid"])
        else:
            df = df.sort_values("gid").assign(period=df.sort_values("gid").game.values)
        for n, (period, part) in enumerate(df.groupby("period", sort=False), 1):
            hands = int(part.hands.sum())
            c = [sum(x) for x in zip(*part.cost)]
            for i, k in enumerate(KINDS):
                rows.append({"player": p, "period": str(period), "n": n, "kind": k.key, "cost": float(c[i]),
                             "hands": hands, "per_hand": c[i] / hands if hands else float("nan")})
    return pd.DataFrame(rows, columns=["player", "period", "n", "kind", "cost", "hands", "per_hand"])


def kinds_summary(con: Con, players: Sequence[str] | None = None, *, variant: str | None = None,
                  sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """:func:`summary_of` the players' graded games (the filters as in :mod:`.style`)."""
    return summary_of(kinds_by_game(con, players, variant=variant, sources=sources, date_from=date_from,
                                    date_to=date_to))


def kinds_trend(con: Con, players: Sequence[str] | None = None, *, by: str = "week", variant: str | None = None,
                sources: Sequence[str] | None = None, date_from: Any = None, date_to: Any = None) -> pd.DataFrame:
    """:func:`trend_of` the players' graded games."""
    if by not in ("week", "game"):
        raise ValueError(f"by must be 'week' or 'game', got {by!r}")
    return trend_of(kinds_by_game(con, players, variant=variant, sources=sources, date_from=date_from,
                                  date_to=date_to), by)


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
    gsql, params = games_filter(variant, sources, date_from, date_to)
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


__all__ = ["AFTER_THE_DISCARD", "costs_sql", "kind_positions", "kinds_by_game", "kinds_summary", "kinds_trend",
           "summary_of", "total_cost", "trend_of"]

"""Bad-move rates from the review annotations: per player and annotated game, the share
of graded decisions costing more than 10 / 30 / 100 points. A deep review counts its decisions
in expected points, forced ones left out; a quick one counts each turn's exposure cost."""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd

RATE_OVER = (10, 30, 100)  # analysis.review.RATE_OVER (the store does not import the review)


def player_rates(con: duckdb.DuckDBPyConnection, player: str | None = None,
                 variant: str | None = None) -> pd.DataFrame:
    """player, game, variant, started, depth, decisions and ``over_10``, ``over_30``, ``over_100``
    (how many graded decisions cost more than that), oldest first."""
    over = ", ".join(f"count(*) FILTER (WHERE cost > {n}) AS over_{n}" for n in RATE_OVER)  # constants
    cur = con.execute(f"""
        WITH g AS (SELECT r.game, r.depth, gm.variant, gm.started FROM review_games r
                   JOIN games gm ON gm.game = r.game AND gm.checksum = r.checksum
                   WHERE ?::VARCHAR IS NULL OR gm.variant = ?),
        costs AS (
            SELECT c.player, c.game, c.cost FROM review_choices c JOIN g USING (game)
            WHERE g.depth = 'deep' AND c.forced IS NULL
            UNION ALL
            SELECT d.player, d.game, coalesce(d.cost_points, d.cost) FROM review_decisions d JOIN g USING (game)
            WHERE g.depth IS DISTINCT FROM 'deep')
        SELECT c.player, c.game, any_value(g.variant) AS variant, any_value(g.started) AS started,
               any_value(coalesce(g.depth, 'quick')) AS depth, count(*) AS decisions, {over}
        FROM costs c JOIN g USING (game)
        WHERE ?::VARCHAR IS NULL OR c.player = ?
        GROUP BY c.player, c.game ORDER BY c.player, started NULLS FIRST, c.game""",
                      [variant, variant, player, player])
    cols = [d[0] for d in cur.description]
    return pd.DataFrame.from_records(cur.fetchall(), columns=cols)


def overall(frame: pd.DataFrame) -> dict[str, dict[int, Any]]:
    """Per player, the % of all its graded decisions over each threshold (decision-weighted)."""
    out: dict[str, dict[int, Any]] = {}
    for name, df in frame.groupby("player", sort=True):
        n = int(df["decisions"].sum())
        out[str(name)] = {k: (100.0 * float(df[f"over_{k}"].sum()) / n if n else None) for k in RATE_OVER}
    return out


__all__ = ["RATE_OVER", "overall", "player_rates"]

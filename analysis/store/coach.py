"""A coach's sections of a player's profile: the mistakes by kind (:mod:`.mistake_kinds`) and the
style beside the expert (:mod:`.style`), as plain dicts for ``istaka profile --json``
(:func:`analysis.store.profile.profile` adds :func:`sections` to its dict).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import duckdb

from analysis.review.taxonomy import BY_KEY

from . import mistake_kinds, style

Con = duckdb.DuckDBPyConnection


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else round(float(x), 4)


def mistakes_section(con: Con, player: str, *, variant: str | None = None, sources: Sequence[str] | None = None,
                     date_from: Any = None, date_to: Any = None) -> dict[str, Any]:
    """``{"hands", "cost_per_hand", "kinds": [{kind, name, rules, mistakes, cost, per_hand, share}]}``,
    costliest kind first, kinds with no cost left out (English names)."""
    df = mistake_kinds.kinds_summary(con, [player], variant=variant, sources=sources, date_from=date_from,
                                     date_to=date_to)
    if not len(df):
        return {"hands": 0, "cost_per_hand": None, "kinds": []}
    hands = int(df.hands.iloc[0])
    kinds = [{"kind": r.kind, "name": BY_KEY[r.kind].en, "rules": list(BY_KEY[r.kind].rules),
              "mistakes": int(r.mistakes), "cost": _num(r.cost), "per_hand": _num(r.per_hand), "share": _num(r.share)}
             for r in df.sort_values("cost", ascending=False).itertuples() if r.mistakes]
    return {"hands": hands, "cost_per_hand": _num(df.cost.sum() / hands) if hands else None, "kinds": kinds}


def style_section(con: Con, player: str, *, variant: str, sources: Sequence[str] | None = None,
                  date_from: Any = None, date_to: Any = None) -> list[dict[str, Any]]:
    """One row per measure: ``metric``, ``kind`` (rate or mean), the player's ``value``, ``low``,
    ``high``, ``n`` and the expert's (``expert``: the same and its ``source``; None without figures)."""
    df = style.beside_expert(con, [player], variant=variant, sources=sources, date_from=date_from, date_to=date_to)
    rows = {(r["who"], r["metric"]): r for r in df.to_dict("records")}
    metrics = [m for m, _ in style.METRICS] + sorted({m for m in df.metric if m.startswith("penalty:")}) \
        if len(df) else []
    out = []
    for m in metrics:
        mine, exp = rows.get((player, m)), rows.get((style.EXPERT, m))

        def part(r: dict[str, Any] | None) -> dict[str, Any] | None:
            if r is None:
                return None
            return {"value": _num(r["value"]), "low": _num(r["low"]), "high": _num(r["high"]), "n": int(r["n"]),
                    "source": r["source"]}

        out.append({"metric": m, "kind": (mine or exp or {}).get("kind"), "player": part(mine), "expert": part(exp)})
    return out


def sections(con: Con, player: str, *, variant: str | None = None) -> dict[str, Any]:
    """The coach's sections for ``istaka profile``'s dict: ``mistakes_by_kind`` and, for a preset,
    ``style`` (the style is per preset: without one, the player's most played preset)."""
    v = variant
    if v is None:
        got = con.execute("""SELECT g.variant FROM hand_seats hs JOIN games g USING (game) WHERE hs.player = ?
                             GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1""", [player]).fetchall()
        v = got[0][0] if got else None
    return {"mistakes_by_kind": mistakes_section(con, player, variant=variant),
            "style": {"variant": v, "rows": style_section(con, player, variant=v) if v else []}}


__all__ = ["mistakes_section", "sections", "style_section"]

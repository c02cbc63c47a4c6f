"""The opening lab's reading of a typed rack and its (cached) call into the solver."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from analysis.game import PRESETS
from analysis.game import NotationError, Tile, full_set, okey_of

try:
    from analysis import solver as _solver
except ImportError:
    _solver = None  # type: ignore[assignment]


MAX_RACK = max(r.dealt_starter for r in PRESETS.values())  # the starter's dealt rack is the largest
BUDGET = 5.0  # seconds the page waits for the solver (with MAX_RACK tiles it takes milliseconds)


class LabTimeout(RuntimeError):
    """The solver did not answer within :data:`BUDGET`."""


@dataclass
class ParsedRack:
    tiles: list[Tile] = field(default_factory=list)
    error: tuple[str, dict[str, Any]] | None = None  # an i18n key and its fields


def parse_rack(text: str, indicator: Tile, most: int = MAX_RACK) -> ParsedRack:
    """Tiles from notation; no more tiles than a dealt rack holds (``most``: the preset's, D1), no
    tile more often than the set holds, the gösterge's copy counted (T1, T2). Errors are i18n
    keys with their fields."""
    words = text.replace(",", " ").split()
    if len(words) > most:
        return ParsedRack([], ("lab_too_long", {"n": len(words), "max": most}))
    tiles, bad = [], []
    for w in words:
        try:
            tiles.append(Tile.parse(w))
        except NotationError:
            bad.append(w)
    if bad:
        return ParsedRack([], ("lab_bad_tile", {"tiles": " ".join(bad)}))
    have = Counter(tiles)
    have[indicator] += 1
    full = full_set()
    over = sorted(str(x) for x, n in have.items() if n > full[x])
    if over:
        return ParsedRack(tiles, ("lab_too_many", {"tiles": ", ".join(over), "ind": str(indicator)}))
    return ParsedRack(tiles)


def siler(result: dict[str, Any], variant: str) -> list[tuple[str, dict[str, Any]]]:
    """Notes (i18n key, fields) for best openings big enough for siler (O8) in this preset."""
    r = PRESETS[variant]
    if not r.siler:
        return []
    out = []
    pts, prs = result.get("points") or {}, result.get("pairs") or {}
    if pts.get("reaches") and (pts.get("value") or 0) >= r.siler_points:
        out.append(("lab_siler_points", {"v": pts["value"], "s": r.siler_points, "u": r.penalty_unit}))
    n = prs.get("count", prs.get("value")) or 0
    if prs.get("reaches") and n >= r.siler_pairs:
        out.append(("lab_siler_pairs", {"v": n, "s": r.siler_pairs, "u": r.penalty_unit}))
    return out


def _plain(x: Any) -> Any:
    """A solver result as plain data (dicts, lists, strings) for caching and drawing."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "to_dict"):
        return _plain(x.to_dict())
    if hasattr(x, "__dataclass_fields__"):
        import dataclasses
        return {f.name: _plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


@st.cache_data(show_spinner=False, max_entries=512)
def _best(rack: tuple[str, ...], indicator: str, variant: str, threshold: int | None,
          take: str | None) -> dict[str, Any]:
    """The solver's answer within :data:`BUDGET` seconds (a timeout raises and is not cached)."""
    import concurrent.futures

    fut = _POOL.submit(_solve, rack, indicator, variant, threshold, take)
    try:
        return fut.result(timeout=BUDGET)
    except concurrent.futures.TimeoutError:
        raise LabTimeout(f"no answer within {BUDGET:g} s") from None


def _pool() -> Any:
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="istaka-lab")


_POOL = _pool()


def _solve(rack: tuple[str, ...], indicator: str, variant: str, threshold: int | None,
           take: str | None) -> dict[str, Any]:
    assert _solver is not None
    rules = PRESETS[variant]
    tiles = [Tile.parse(x) for x in rack]
    okey = okey_of(Tile.parse(indicator))
    tk = Tile.parse(take) if take else None
    pts = _solver.best_points_opening(tiles, okey, rules=rules, threshold=threshold, take=tk)
    prs = _solver.best_pairs_opening(tiles, okey, rules=rules, threshold=None, take=tk)
    return {"points": _plain(pts), "pairs": _plain(prs)}


def best_openings(rack: list[Tile], indicator: Tile, variant: str, *, threshold: int | None = None,
                  take: Tile | None = None) -> dict[str, Any] | None:
    """The best points and pairs openings for a bare rack; None when the solver is missing.
    :class:`LabTimeout` when the solver takes longer than :data:`BUDGET` (a link is any input)."""
    if _solver is None:
        return None
    return _best(tuple(str(x) for x in rack), str(indicator), variant, threshold, str(take) if take else None)

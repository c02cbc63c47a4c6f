"""The HTML report's statistics table: one column per player, one row per figure, then one row per
mistake category with each player's count. Four narrow number columns fit a 390 px phone, where
one row per player with a dozen figures and a sentence of categories did not (760 px wide)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from .model import RATE_OVER
from .words import category_name, word


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0f}%"


def stats_html(rows: Sequence[dict[str, Any]], lang: str, deep: bool) -> str:
    """``rows``: :meth:`GameReview.summary`, one per seat. A plain ``<table>`` in a box that
    scrolls sideways on its own should a player's name be too long for the screen."""
    head = "".join(f'<th>{esc(r["player"])}</th>' for r in rows)
    figures: list[tuple[str, list[str]]] = [
        (word("seat", lang), [str(r["seat"]) for r in rows]),
        (word("decisions", lang), [str(r["decisions"]) for r in rows]),
        (word("graded", lang), [str(r["graded"]) for r in rows]),
        (word("accuracy", lang), [_pct(r["accuracy"]) for r in rows]),
        (word("cost", lang), [f'{r["cost"]:.0f}' for r in rows]),
        (word("cost_hand", lang), [f'{r["cost_per_hand"]:.1f}' for r in rows]),
    ]
    figures += [(word("rate", lang, x=n), [_pct(r["rates"].get(str(n))) for r in rows])
                for n in RATE_OVER]
    if deep:
        figures.append((word("forced", lang), [str(r["forced"]) for r in rows]))
    cats = sorted({k for r in rows for k in r["by_category"]}, key=lambda k: category_name(k, lang))
    body = [f'<tr><th>{esc(name)}</th>{"".join(f"<td>{esc(v)}</td>" for v in vals)}</tr>' for name, vals in figures]
    if cats:
        body.append(f'<tr class="sub"><th colspan="{len(rows) + 1}">{esc(word("by_category", lang))}</th></tr>')
        body += [f'<tr><th>{esc(category_name(k, lang))}</th>'
                 + "".join(f'<td>{r["by_category"].get(k) or "—"}</td>' for r in rows) + "</tr>" for k in cats]
    return f'<div class="wide"><table>\n<tr><th></th>{head}</tr>{"".join(body)}</table></div>'


__all__ = ["stats_html"]

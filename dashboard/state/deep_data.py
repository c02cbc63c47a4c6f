"""The deep review in the dashboard: a game's stored deep review read once per database version,
the deep pass run from a page (a progress callback per turn, then one write burst like
``istaka analyze --deep``), and, where nothing is stored, the review's own verdict on a replay
step's decisions (:func:`verdict_at`).

No drawing here (:mod:`dashboard.board.deep_view` draws). Rows are plain dicts so that Streamlit can
cache them; texts a user reads come from :mod:`analysis.review.lesson` in the page's language.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import streamlit as st

from analysis import store
from analysis.evaluate import PRICE_WORLDS
from analysis.review import DEEP_BUDGET, DEEP_VERSION, Choice, GameReview
from analysis.review.deep import judge_spot
from analysis.review.lesson import cost_split, describe, parts_line, sentence, shown, to_json
from analysis.review.spots import KIND_ORDER, seed_game, spots_at

from dashboard.state import data

# A replay step with no stored deep review is judged as the deep review would judge it (its worlds
# and seed: the same verdict on every machine and every surface), cached per (game, hand, step).
DEEP_WORLDS = PRICE_WORLDS  # the deep pass's fixed pricing worlds per decision
TOP = 3


def _read(fn: Callable[..., Any], *args: Any) -> Any:
    with data.reading_db() as con:
        return fn(con, *args)


@st.cache_data(show_spinner=False, max_entries=16)
def _review(v: int, path: str, game: str) -> GameReview | None:
    return _read(store.load_review, game)


def review(game: str) -> GameReview | None:
    """The game's stored deep review (for its current content), or None (none, or only quick)."""
    gr = _review(data.version(), data.db_file(), game)
    return gr if gr is not None and gr.depth == "deep" else None


def current(gr: GameReview) -> bool:
    """Made by this version of the evaluator and the deep pass (else a rerun may differ)."""
    return gr.version == DEEP_VERSION


@st.cache_data(show_spinner=False, max_entries=16)
def _summary(v: int, path: str, game: str) -> dict[str, Any] | None:
    gr = review(game)
    rp = data.replay(game)
    if gr is None:
        return None
    return to_json(gr, rp.result if rp is not None else None)


def summary(game: str) -> dict[str, Any] | None:
    """``istaka report GAME --json`` of the stored deep review: seats (graded, cost, accuracy) and
    per hand the actual scores next to the evaluator's expectation."""
    return _summary(data.version(), data.db_file(), game)


def choice_row(c: Choice, lang: str) -> dict[str, Any]:
    """One graded decision as the page shows it: moves in words, the top three, the lesson, the
    cost's parts."""
    cands = []
    for x in shown(c):
        cands.append({"move": describe(x.get("events") or [], str(x.get("move")), lang), "label": x.get("move"),
                      "expected": None if x.get("expected") is None else float(x["expected"]),
                      "se": float(x.get("se") or 0.0), "n": int(x.get("n") or 0),
                      "played": bool(x.get("played")), "events": list(x.get("events") or []),
                      "tie": bool(x.get("tie"))})
    return {"kind": c.kind, "step": c.step, "played": describe(c.played_events, c.played, lang),
            "best": describe(c.best_events, c.best, lang), "expected_played": float(c.expected_played),
            "expected_best": float(c.expected_best), "se": float(c.se), "cost": float(c.cost),
            "ci": None if c.ci is None else float(c.ci), "worlds": int(c.worlds), "forced": c.forced,
            "category": c.category, "lesson": sentence(c, lang), "candidates": cands,
            "parts": parts_line(c, lang), "cost_parts": cost_split(c),
            "best_events": c.best_events, "played_events": list(c.played_events)}


def hand_choices(gr: GameReview, ord: int, lang: str) -> list[dict[str, Any]]:
    """Every graded decision of hand ``ord`` (1-based, as stored) in turn order."""
    out = []
    for h in gr.hands:
        if h.ord != ord:
            continue
        for d in sorted(h.decisions, key=lambda d: d.turn):
            for c in sorted(d.choices, key=lambda c: (c.step, KIND_ORDER.get(c.kind, 9))):
                out.append({"ord": h.ord, "hand": h.hand, "seat": d.seat, "turn": d.turn, **choice_row(c, lang)})
    return out


def stored_at(game: str, ord: int, step: int, lang: str) -> list[dict[str, Any]] | None:
    """The stored deep review's decisions taken in the position of this step (None: the game has
    no deep review; [] it has one and no decision was graded at this step)."""
    gr = review(game)
    if gr is None:
        return None
    return [r for r in hand_choices(gr, ord, lang) if r["step"] == step]


def run_deep(game: str, progress: Callable[[int, int], None] | None = None,
             budget: float = DEEP_BUDGET, rp: data.Replay | None = None,
             authorized: bool = False, worlds: int | None = None) -> tuple[int, str | None]:
    """The deep pass of one game in this process (``progress(done, total)`` per turn), written in
    one transaction; (decisions graded, error or None). ``rp``, ``authorized``: a queued job's
    replay and its session's right to write, both taken when it was queued (:func:`deep_job`).
    ``worlds``: the fixed pricing worlds (default :data:`DEEP_WORLDS`, the evaluator's PRICE_WORLDS)."""
    from analysis.review.deep import deep_review_game
    from analysis.store.reviews import Annotated, choice_rows, pending, rows, write

    from dashboard.state.jobs import Cancelled

    rp = data.replay(game) if rp is None else rp
    if rp is None or rp.result.error is not None:
        return 0, str(rp.result.error.get("message")) if rp is not None and rp.result.error else game
    t0 = time.perf_counter()
    try:
        gr = deep_review_game(rp.result, budget=budget, progress=progress, worlds=worlds or DEEP_WORLDS)
    except Cancelled:
        raise
    except Exception as e:  # noqa: BLE001  (shown to the user; the page stays up)
        return 0, f"{type(e).__name__}: {e}"
    dec, mis = rows(gr)
    choices = choice_rows(gr)
    with data.writing_db(authorized) as con:
        todo = dict(pending(con, force=True, depth="deep"))
        if game not in todo:
            return 0, game
        write(con, [Annotated(game, todo[game], time.perf_counter() - t0, dec, mis, choices=choices, depth="deep",
                              version=DEEP_VERSION)])
    st.cache_data.clear()
    return sum(1 for c in choices if c[20] is None), None


def deep_job(game: str) -> Callable[[Any], tuple[int, str | None]]:
    """The deep pass of ``game`` as a job for the queue (dashboard/state/jobs.py): the replay is taken
    now, in the script thread; the job writes as the session that queued it may."""
    rp = data.replay(game)
    return lambda job: run_deep(game, job.tick, rp=rp, authorized=True)


@st.cache_data(show_spinner=False, max_entries=512)
def _verdicts(game: str, ord: int, step: int, v: int) -> list[tuple[int, Choice]]:
    rp = data.replay(game)
    if rp is None or not 1 <= ord <= len(rp.result.hands):
        return []
    hr = rp.result.hands[ord - 1]
    if not hr.steps:
        return []
    seats = frozenset({rp.result.view}) if rp.result.view is not None else None
    out = []
    for spot in spots_at(hr, step, seats):
        c = judge_spot(seed_game(rp.result), hr, spot, worlds=DEEP_WORLDS)
        if c is not None:
            out.append((spot.seat, c))
    return out


_JUDGED: OrderedDict[tuple[str, int, int, int], None] = OrderedDict()  # steps judged in this process
_JUDGED_MAX = 4096
_JUDGED_LOCK = threading.Lock()


def verdict_at(game: str, ord: int, step: int, lang: str) -> list[dict[str, Any]]:
    """The decisions taken at this step judged now exactly as the deep review judges them (the
    same spots, candidates, worlds and seed: analysis.review.deep.judge_spot), for a game with no stored
    deep review; rows as :func:`hand_choices` gives them."""
    v = data.version()
    rows = [{"ord": ord, "seat": seat, **choice_row(c, lang)} for seat, c in _verdicts(game, ord, step, v)]
    with _JUDGED_LOCK:
        _JUDGED[(game, ord, step, v)] = None
        _JUDGED.move_to_end((game, ord, step, v))
        while len(_JUDGED) > _JUDGED_MAX:
            _JUDGED.popitem(last=False)
    return rows


def verdict_known(game: str, ord: int, step: int) -> bool:
    """Whether this step was judged in this server process since the database last changed (its
    verdict is then at hand, and a served board shows it without being asked)."""
    with _JUDGED_LOCK:
        return (game, ord, step, data.version()) in _JUDGED


__all__ = ["TOP", "choice_row", "current", "hand_choices", "review", "run_deep", "stored_at", "summary", "verdict_at",
           "verdict_known"]

"""The move review in the dashboard: cached reads of the annotations (``istaka analyze``), the
chance to open, the practice grading, and the Review/Practice strings (Turkish and English).

Reads go through :mod:`analysis.queries` with a connection held for one burst, keyed by the
database file's modification time like :mod:`dashboard.state.data`.
"""

from __future__ import annotations

from dashboard.words.locale import table
from typing import Any

import pandas as pd
import streamlit as st

from analysis.store import queries

from analysis import store
from analysis.game import HandState
from analysis.review import SOLVER_VERSION
from analysis.review.words import CATEGORY_NAME, DEFINITION

from dashboard.state import access, data, jobs
from dashboard.words.i18n import lookup
from dashboard.words.text import md_text

# marks any font draws (DejaVu has them; no emoji font needed): more dots, worse
SEV_ICON = {"blunder": "●●●", "mistake": "●●", "inaccuracy": "●", "note": "○"}
SEV_COLOUR = {"blunder": "#c62828", "mistake": "#ef6c00", "inaccuracy": "#f9a825", "note": "#607d8b"}

STRINGS: dict[str, tuple[str, str]] = table("review_data")

CATEGORY = CATEGORY_NAME  # the review's mistake kinds as a player reads them (analysis.review.words)



def _tr(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pair = table.get(key)
    if pair is None:
        return key.replace("_", " ")
    return pair[1] if lang == "en" else pair[0]


def t(key: str, lang: str, **fields: object) -> str:
    """A Review/Practice string; with ``n=1`` a ``<key>_one`` form is used where there is one."""
    return lookup(STRINGS, key, lang, **fields)


def category(cat: str, lang: str) -> str:
    return _tr(CATEGORY, cat, lang)


def definition(cat: str, lang: str) -> str:
    return _tr(DEFINITION, cat, lang)


REASON: dict[str, str] = {  # the practice grader's reasons (analysis.review_practice) -> string keys
    "nothing placed": "why_nothing",
    "keep a tile to discard (P5)": "why_p5",
    "under the threshold (O1)": "why_o1",
    "too few pairs (O3)": "why_o3",
    "these tiles do not all form melds or pairs (M1-M4)": "why_m",
    "these tiles cannot all be placed (L1-L3, O4, O5)": "why_l",
}


def reason(text: str, lang: str) -> str:
    """The practice grader's reason in the page's language (empty stays empty)."""
    return t(REASON[text], lang) if text in REASON else text


def severity(sev: str, lang: str) -> str:
    return t(f"sev_{sev}", lang)


def _read(fn: Any, *args: Any, **kw: Any) -> Any:
    with data.reading_db() as con:
        return fn(con, *args, **kw)


@st.cache_data(show_spinner=False, max_entries=64)
def _game(v: int, path: str, game: str) -> dict[str, Any]:
    def run(con: Any) -> dict[str, Any]:
        return {"seats": queries.game_review(con, game), "mistakes": queries.game_mistakes(con, game),
                "status": queries.review_status(con), "depth": queries.review_depth(con, game)}
    return _read(run)


def game(game_id: str) -> dict[str, Any]:
    """The annotations of one game: seats (per-seat measures) and mistakes (worst first)."""
    return _game(data.version(), data.db_file(), game_id)


def screened(game_id: str) -> bool:
    """The game's stored findings come from the quick review alone: a screen, which gives way to
    the deep review's verdict wherever that is shown."""
    return game(game_id).get("depth") == "quick"


def analyzed(game_id: str) -> bool:
    return len(game(game_id)["seats"]) > 0


@st.cache_data(show_spinner=False, max_entries=8)
def _pending(v: int, path: str) -> list[str]:
    from analysis.store.reviews import pending

    return [str(g) for g, _ in _read(pending)]


def pending_games() -> list[str]:
    """The stored games not analysed by the current solver version."""
    return _pending(data.version(), data.db_file())


def analyze_now(game_ids: list[str], progress: Any = None, lang: str = "tr", job: Any = None) -> tuple[int, list[str]]:
    """Annotate these games in this process (write bursts, like an upload's import), a few at a
    time so that ``progress`` (an ``st.progress`` bar) moves; the number annotated and the errors.
    ``job``: a queued job (dashboard/state/jobs.py), ticked between bursts, which may cancel it."""
    from analysis.store import analyze

    done, errors = 0, []
    step = 4
    for i in range(0, len(game_ids), step):
        if job is not None:
            job.tick(i, len(game_ids))
        with data.writing_db(job is not None) as con:
            s = analyze(con, games=game_ids[i: i + step])
        done += s.annotated
        errors += list(s.errors or [])
        if progress is not None:
            n = min(i + step, len(game_ids))
            progress.progress(n / len(game_ids), text=t("analyzing", lang, i=n, n=len(game_ids)))
    if job is not None:
        job.done = job.total = len(game_ids)
    st.cache_data.clear()
    return done, errors


def read_only_archive() -> bool:
    """Is the store a Parquet lake (ISTAKA_DB=DIR), where nothing can be written?"""
    from pathlib import Path

    return store.is_lake(Path(data.db_file()))


def analyze_buttons(lang: str, game: str | None = None, key: str = "rv") -> None:
    """Offer to analyse this game (when given) and every waiting game, with a progress bar."""
    if read_only_archive():
        st.info(t("lake_read_only", lang))
        return
    if not access.can_write():  # read-only mode or a club reader
        access.read_only_note(lang)
        return
    if jobs.panel("analyze", lang, lambda job: _analyzed(job, lang)):  # queued or running
        return
    waiting = pending_games()
    row = st.container(horizontal=True)
    one = game is not None and game in waiting and row.button(t("analyze_now", lang), key=f"{key}_analyze",
                                                               type="primary")
    every = bool(waiting) and row.button(t("analyze_all", lang, n=len(waiting)), key=f"{key}_analyze_all")
    if not (one or every):
        return
    todo = [game] if one and game is not None else waiting
    label = jobs.t("jb_analyze_one" if len(todo) == 1 else "jb_analyze", lang, n=len(todo))
    if jobs.submit("analyze", label, lambda job: _analyze_job(job, todo), lang) is not None:
        st.rerun()


def _analyze_job(job: Any, todo: list[str]) -> tuple[int, str | None]:
    n, errors = analyze_now(todo, None, job=job)
    job.errors = errors
    return n, None


def _analyzed(job: Any, lang: str, rerun: bool = True) -> None:
    errors = job.errors or ([job.error] if job.error else [])
    if job.state == "cancelled":
        st.session_state["_rv_analyze_msg"] = ("info", jobs.t("jb_cancelled", lang, label=job.label))
    elif errors:
        st.session_state["_rv_analyze_msg"] = ("error", t("analyze_failed", lang, n=len(errors),
                                                                first=md_text(errors[0])))
    else:
        st.session_state["_rv_analyze_msg"] = ("success", t("analyzed", lang, n=job.result))
    if rerun:
        st.rerun()


def analyze_message() -> None:
    """The outcome of the last analysis run from a page (shown once)."""
    job = jobs.QUEUE.of(jobs.owner())  # a queued analysis that ended, on a page without its buttons now
    if job is not None and job.kind == "analyze" and job.state in ("done", "failed", "cancelled"):
        jobs.QUEUE.forget(job)
        _analyzed(job, data.lang(), rerun=False)
    msg = st.session_state.pop("_rv_analyze_msg", None)
    if msg:
        getattr(st, msg[0])(msg[1])


def hand_mistakes(game_id: str, hand: int) -> pd.DataFrame:
    ms = game(game_id)["mistakes"]
    return ms[ms["hand"] == hand] if len(ms) else ms


def marks(game_id: str, hand: int, lo: int, n: int) -> list[str]:
    """A severity icon per move-list row lo..lo+n-1 (the worst mistake at that step)."""
    ms = hand_mistakes(game_id, hand)
    worst: dict[int, tuple[int, str]] = {}
    for step, cost, sev in zip(ms["step"], ms["cost"], ms["severity"]) if len(ms) else ():
        if int(step) not in worst or worst[int(step)][0] < cost:
            worst[int(step)] = (int(cost), str(sev))
    return [SEV_ICON[worst[i][1]] if i in worst else "" for i in range(lo, lo + n)]


def mistake_steps(game_id: str, hand: int) -> list[int]:
    ms = hand_mistakes(game_id, hand)
    return sorted({int(s) for s in ms["step"]}) if len(ms) else []


@st.cache_data(show_spinner=False, max_entries=256)
def _chance(game_id: str, hand: int, step: int, seat: int, v: int, _state: HandState) -> dict[str, Any] | None:
    from analysis.review import chance_to_open, opens_with

    if opens_with(_state, seat, ()):  # it can open now: no chance to estimate
        return {"now": True}
    c = chance_to_open(_state, seat, samples=120, seed=step)
    return None if c is None else {"rows": c.rows(), "samples": c.samples, "unseen": c.unseen, "exact": c.exact}


def chance(game_id: str, hand: int, step: int, state: HandState, seat: int) -> dict[str, Any] | None:
    """The chance the seat opens within 1, 3, 5 draws (None once opened)."""
    if state.opened[seat] is not None or state.over:
        return None
    return _chance(game_id, hand, step, seat, data.version(), state)


def chance_lines(c: dict[str, Any], lang: str) -> list[str]:
    out = [t("chance_row_one" if r["draws"] == 1 else "chance_row", lang, k=r["draws"], p=100 * r["p"],
             se=100 * r["se"]) for r in c["rows"]]
    out.append(t("chance_note", lang, n=c["samples"], u=c["unseen"], exact=t("exact", lang) if c["exact"] else ""))
    return out


@st.cache_data(show_spinner=False, max_entries=16)
def _player_frames(v: int, path: str, variant: str | None) -> dict[str, pd.DataFrame]:
    def run(con: Any) -> dict[str, pd.DataFrame]:
        from analysis.store.review_rates import player_rates

        return {"trend": queries.player_review(con, variant=variant),
                "categories": queries.player_mistakes(con, variant=variant),
                "rates": player_rates(con, variant=variant)}
    return _read(run)


def player_frames(variant: str | None) -> dict[str, pd.DataFrame]:
    return _player_frames(data.version(), data.db_file(), variant)


@st.cache_data(show_spinner=False, max_entries=32)
def _practice(v: int, path: str, player: str) -> pd.DataFrame:
    from analysis.review import PRACTICE_CATEGORIES

    return _read(queries.practice_positions, player, list(PRACTICE_CATEGORIES))


def practice_positions(player: str) -> pd.DataFrame:
    return _practice(data.version(), data.db_file(), player)


@st.cache_data(show_spinner=False, max_entries=16)
def _report(v: int, path: str, game_id: str, lang: str, min_cost: float) -> str:
    from analysis.review import render
    from analysis.review import review_game

    rp = data.replay(game_id)
    if rp is None:
        return ""
    stored = _read(store.load_review, game_id)  # the stored review, deep or quick, as `istaka report` gives it
    notes = _read(store.list_notes, game_id)  # the coach's notes, under their hands
    return render(rp.result, stored if stored is not None else review_game(rp.result), lang=lang, min_cost=min_cost,
                  notes=notes)


def report_html(game_id: str, lang: str = "tr", min_cost: float = 0) -> str:
    """The game's HTML report as ``istaka report GAME`` writes it: the stored review (the deep one
    when the game has one), in the page's language, decisions over ``min_cost`` in full."""
    return _report(data.version(), data.db_file(), game_id, lang, float(min_cost))


__all__ = ["SEV_COLOUR", "SEV_ICON", "SOLVER_VERSION", "t"]

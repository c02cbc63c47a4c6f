"""The move review in the dashboard: cached reads of the annotations (``istaka analyze``), the
chance to open, the practice grading, and the Review/Practice strings (Turkish and English).

Reads go through :mod:`analysis.queries` with a connection held for one burst, keyed by the
database file's modification time like :mod:`dashboard.data`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analysis.store import queries

from analysis import store
from analysis.game import HandState
from analysis.review import CATEGORIES, SOLVER_VERSION

from . import data

SEV_ICON = {"blunder": "🔴", "mistake": "🟠", "inaccuracy": "🟡", "note": "⚪"}
SEV_COLOUR = {"blunder": "#c62828", "mistake": "#ef6c00", "inaccuracy": "#f9a825", "note": "#607d8b"}

STRINGS: dict[str, tuple[str, str]] = {
    "page_review": ("İnceleme", "Review"),
    "page_practice": ("Alıştırma", "Practice"),
    "review_title": ("Hamle incelemesi", "Move review"),
    "not_analyzed": ("Bu oyun henüz incelenmedi (çözücü {v}). `istaka analyze` çalıştırın ya da:",
                     "This game is not analysed yet (solver {v}). Run `istaka analyze`, or:"),
    "analyze_now": ("Bu oyunu şimdi incele", "Analyse this game now"),
    "analyzed": ("{n} oyun incelendi.", "{n} games analysed."),
    "seats": ("Oyuncular: en iyi hamleye uyum ve maliyet", "Players: agreement with the best move and cost"),
    "col_agreement": ("Uyum %", "Agreement %"),
    "col_cost": ("Maliyet", "Cost"),
    "col_cost_hand": ("Maliyet / el", "Cost / hand"),
    "col_mistakes": ("Hata", "Mistakes"),
    "col_decisions": ("Karar", "Decisions"),
    "col_category": ("Tür", "Category"),
    "col_severity": ("Ağırlık", "Severity"),
    "col_step": ("Adım", "Step"),
    "mistakes": ("Hatalar (en kötüsü önce) — satıra tıkla: o adıma git",
                 "Mistakes (worst first) — click a row to open that step"),
    "no_mistakes": ("Hata bulunmadı.", "No mistakes found."),
    "all_hands": ("Bütün eller", "All hands"),
    "report": ("İnceleme raporunu indir (HTML)", "Download the review report (HTML)"),
    "legend": ("🔴 ≥100 puan · 🟠 ≥30 · 🟡 >0 · ⚪ not", "🔴 ≥100 points · 🟠 ≥30 · 🟡 >0 · ⚪ note"),
    "next_mistake": ("Sonraki hata ⚠ (M)", "Next mistake ⚠ (M)"),
    "chance": ("Açma şansı ({name}, kendi gördüğüyle)", "Chance to open ({name}, from his own view)"),
    "chance_row": ("{k} çekişte: %{p:.0f} ± {se:.0f}", "within {k} draws: {p:.0f}% ± {se:.0f}"),
    "chance_note": ("{n} örnek, {u} görünmeyen taş{exact}", "{n} samples, {u} unseen tiles{exact}"),
    "exact": (" (tam sayım)", " (exact count)"),
    "trends": ("Uyum ve hata eğilimi (istaka analyze)", "Accuracy and mistake trends (istaka analyze)"),
    "no_review": ("İnceleme yok: `istaka analyze` çalıştırın.", "No review yet: run `istaka analyze`."),
    "chart_agreement": ("En iyi hamleye uyum (%)", "Agreement with the best move (%)"),
    "chart_cost": ("El başına maliyet", "Cost per hand"),
    "chart_categories": ("Türe göre hatalar", "Mistakes by category"),
    "practice_title": ("Kendi hatalarından alıştırma", "Practice on your own mistakes"),
    "practice_player": ("Oyuncu", "Player"),
    "practice_none": ("Bu oyuncunun alıştırılacak hatası yok (önce `istaka analyze`).",
                      "No positions to practise for this player (run `istaka analyze` first)."),
    "practice_task_open": ("Sıra sende ({name}), henüz açmadın: açılışının taşlarını seç.",
                           "Your move ({name}), not opened yet: pick the tiles of your opening."),
    "practice_task_turn": ("Sıra sende ({name}), açtın: işleyeceğin / yeni per yapacağın taşları seç.",
                           "Your move ({name}), opened: pick the tiles to lay off or place as new melds."),
    "practice_pick": ("Taşlara tıkla (seç / bırak)", "Click the tiles (pick / unpick)"),
    "practice_check": ("Kontrol et", "Check"),
    "practice_reveal": ("Cevabı göster", "Show the answer"),
    "practice_next": ("Sonraki pozisyon", "Next position"),
    "practice_clear": ("Seçimi temizle", "Clear the pick"),
    "practice_score": ("Oturum skoru: {right} / {tried} doğru, toplam maliyet {cost}",
                       "Session score: {right} / {tried} right, total cost {cost}"),
    "practice_right": ("Doğru! Maruz kalma {e} (en iyisi {b}).", "Right! Exposure {e} (best {b})."),
    "practice_wrong": ("Maliyet {c}: senin maruz kalman {e}, en iyisi {b}. {why}",
                       "Cost {c}: your exposure {e}, the best {b}. {why}"),
    "practice_best": ("En iyisi", "The best"),
    "practice_played": ("Oyunda oynanan: maliyet {c} ({cat})", "Played in the game: cost {c} ({cat})"),
    "practice_of": ("Pozisyon {i} / {n} · {game} el {hand} adım {step}",
                    "Position {i} / {n} · {game} hand {hand} step {step}"),
}

CATEGORY_TR = {
    "missed_opening": "kaçan açılış", "weaker_opening": "zayıf açılış", "missed_take": "alınmayan taş",
    "missed_layoff": "işlenmeyen taş", "missed_swap": "alınmayan okey", "missed_finish": "kaçan bitiş",
    "okey_discard": "okey atma (X3)", "layoff_discard": "işler taş atma (X4)",
    "fed_opening": "açtıran taş (X5)", "okey_kept": "elde kalan okey (E5)", "pairs_over_melds": "per yerine çift",
    "melds_over_pairs": "çift yerine per", "failed_opening": "geri alınan açılış (X2, X7)",
}


def t(key: str, lang: str, **fields: object) -> str:
    pair = STRINGS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    return text.format(**fields) if fields else text


def category(cat: str, lang: str) -> str:
    return CATEGORY_TR.get(cat, cat) if lang != "en" else cat.replace("_", " ")


def definition(cat: str) -> str:
    return CATEGORIES.get(cat, "")


def _read(fn: Any, *args: Any, **kw: Any) -> Any:
    with store.reading(data.db_file()) as con:
        return fn(con, *args, **kw)


@st.cache_data(show_spinner=False, max_entries=64)
def _game(v: int, path: str, game: str) -> dict[str, Any]:
    def run(con: Any) -> dict[str, Any]:
        return {"seats": queries.game_review(con, game), "mistakes": queries.game_mistakes(con, game),
                "status": queries.review_status(con)}
    return _read(run)


def game(game_id: str) -> dict[str, Any]:
    """The annotations of one game: seats (per-seat measures) and mistakes (worst first)."""
    return _game(data.version(), data.db_file(), game_id)


def analyzed(game_id: str) -> bool:
    return len(game(game_id)["seats"]) > 0


def analyze_now(game_ids: list[str]) -> int:
    """Annotate these games in this process (a write burst, like an upload's import)."""
    from analysis.store import analyze

    con = store.connect(data.db_file())
    try:
        s = analyze(con, games=game_ids)
    finally:
        con.close()
    st.cache_data.clear()
    return s.annotated


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
    from analysis.review import chance_to_open

    c = chance_to_open(_state, seat, samples=120, seed=step)
    return None if c is None else {"rows": c.rows(), "samples": c.samples, "unseen": c.unseen, "exact": c.exact}


def chance(game_id: str, hand: int, step: int, state: HandState, seat: int) -> dict[str, Any] | None:
    """The chance the seat opens within 1, 3, 5 draws (None once opened)."""
    if state.opened[seat] is not None or state.over:
        return None
    return _chance(game_id, hand, step, seat, data.version(), state)


def chance_lines(c: dict[str, Any], lang: str) -> list[str]:
    out = [t("chance_row", lang, k=r["draws"], p=100 * r["p"], se=100 * r["se"]) for r in c["rows"]]
    out.append(t("chance_note", lang, n=c["samples"], u=c["unseen"], exact=t("exact", lang) if c["exact"] else ""))
    return out


@st.cache_data(show_spinner=False, max_entries=16)
def _player_frames(v: int, path: str, variant: str | None) -> dict[str, pd.DataFrame]:
    def run(con: Any) -> dict[str, pd.DataFrame]:
        return {"trend": queries.player_review(con, variant=variant),
                "categories": queries.player_mistakes(con, variant=variant)}
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
def _report(v: int, path: str, game_id: str) -> str:
    from analysis.review import render
    from analysis.review import review_game

    rp = data.replay(game_id)
    if rp is None:
        return ""
    return render(rp.result, review_game(rp.result))


def report_html(game_id: str) -> str:
    return _report(data.version(), data.db_file(), game_id)


__all__ = ["SEV_COLOUR", "SEV_ICON", "SOLVER_VERSION", "t"]

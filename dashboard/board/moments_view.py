"""The Review page's key moments: per player, the 3–5 costliest decisions of
the game (:func:`analysis.review.key_moments`, the same the HTML report starts with), each with
its one-line lesson and a button that opens the Replay at that step."""

from __future__ import annotations

import streamlit as st

from analysis import store
from analysis.review import Moment, key_moments

from dashboard.state import data, url_state
from dashboard.state import review_data as rv
from dashboard.words.graph_words import t
from dashboard.board.tiles_view import md_text


@st.cache_data(show_spinner=False, max_entries=32)
def _moments(v: int, path: str, game: str, lang: str) -> list[list[Moment]] | None:
    with data.reading_db() as con:
        gr = store.load_review(con, game)
    return None if gr is None else key_moments(gr, lang)


def moments(game: str, lang: str) -> list[list[Moment]] | None:
    """Per seat, the key moments of the game's stored review (None: not reviewed)."""
    return _moments(data.version(), data.db_file(), game, lang)


def section(game: str, players: list[str], lang: str) -> None:
    """Per player a box: the key moments, costliest first, each a line and a button to its step."""
    per_seat = moments(game, lang)
    if per_seat is None:
        return
    st.subheader(t("kmv_title", lang))
    cols = st.columns(2)
    for seat, ms in enumerate(per_seat):
        box = cols[seat % 2].container(border=True, key=f"km_seat_{seat}")
        box.markdown(f"**{md_text(players[seat] if seat < len(players) else f'#{seat}')}**")
        if not ms:
            box.caption(t("kmv_none", lang))
        for i, m in enumerate(ms):
            label = t("kmv_open", lang, hand=m.hand, step=m.step, cost=f"{m.cost:.0f}")
            if box.button(f"{rv.SEV_ICON[m.severity]} {label}", key=f"km_{seat}_{i}", icon=":material/play_arrow:",
                          help=t("kmv_help", lang), type="tertiary"):
                url_state.goto("replay", game=game, hand=m.hand, step=m.step, seat=m.seat)
            box.caption(md_text(m.lesson))


__all__ = ["moments", "section"]

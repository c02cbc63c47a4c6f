"""Oyna / Play: a person plays 101 against the bots, every hand kept and judged at once.

The table (preset, hands, your name and seat, each other seat's bot and the expert's strength, a
seed or a random deal), then hand after hand: your turn by taps (draw or take, open, lay off,
swap, show, declare, discard), every move checked by the engine (:mod:`analysis.selfplay.table`;
a refusal says what and which rule, nothing changes), the bots' turns shown one by one (a pause
one can turn off). At a hand's end: the engine's scores, the running totals, the hand imported
into the store and reviewed, one click to its review; then the next hand (D2), to the game's
ranks (G2, G3). The game is written at every move (``?play=ID`` picks it up after a reload).
With training on, a move is judged before it is applied (a spinner) and a large mistake is held
with a warning until the person plays it anyway or takes it back.

Everything below the setup is one ``st.fragment``: a tap reruns only the board.
"""

from __future__ import annotations

import math
import random
import time
from datetime import UTC, datetime

import streamlit as st
from streamlit.errors import StreamlitAPIException

from analysis.game.record import RecordError
from analysis.game.rules import MAX_OPTION
from analysis.selfplay import LEVELS, PLAY_BOTS, VARIANTS, PlayGame, new_game, sets
from dashboard.board.picker import picker_style
from dashboard.board.play_board import hand_over, turn_view
from dashboard.board.tiles_view import md_text
from dashboard.state import access, data, play_games, url_state
from dashboard.state.play_state import MSG, PAUSE_KEY, judge_pending, pending_judge, play_said, say
from dashboard.words.play_words import t

lang = data.lang()
DB = data.db_file()
st.title(t("pl_title", lang))
st.caption(t("pl_intro", lang))
picker_style()
PAUSE_S = 0.8  # seconds a bot's turn stays on screen before the next


def _gid() -> str | None:
    gid = st.query_params.get("play")
    return gid or None


def _start() -> None:
    s = st.session_state
    me = int(s.get("pl_seat_in") or 0)
    seats = [str(s.get(f"pl_bot_{k}") or "expert") for k in range(4)]
    seats[me] = "person"
    levels: list[str | None] = [str(s.get(f"pl_level_{k}") or "strong") if seats[k] == "expert" else None
                                for k in range(4)]
    names = [str(s.get(f"pl_name_{k}") or "") for k in range(4)]
    names[me] = str(s.get("pl_me_in") or "").strip() or names[me]
    seed = str(s.get("pl_seed_in") or "").strip() or str(random.SystemRandom().randrange(10**9))
    gid = play_games.new_id(DB)
    chosen = s.get("pl_set_in")
    try:
        if chosen:  # a duplicate set fixes the deals, the seats and the bots
            g = sets.load(DB, str(chosen)).game(gid, names[me] or "?",
                                                 started=datetime.now(UTC).replace(microsecond=0).isoformat())
        else:
            g = new_game(gid, variant=str(s.get("pl_variant_in") or "101"), hands=int(s.get("pl_hands_in") or 11),
                         seats=seats, levels=levels, names=names, seed=seed,
                         starter=random.Random(f"istaka-play:{seed}").randrange(4),
                         started=datetime.now(UTC).replace(microsecond=0).isoformat())
    except (RecordError, sets.SetError) as e:
        say("error", t("pl_refused", lang, msg=md_text(str(e))))
        return
    play_games.save(DB, g)
    st.query_params["play"] = gid


def _set_picker() -> None:
    """A duplicate set instead of the table above (``istaka set create``): its deals, seats and bots,
    and how the people who played it stand against the expert."""
    known = sets.names(DB)
    if not known:
        return
    chosen = st.selectbox(t("pl_set", lang), [None, *known], key="pl_set_in",
                          format_func=lambda x: t("pl_set_none", lang) if x is None else x)
    if not chosen:
        return
    try:
        ds = sets.load(DB, chosen)
        res = sets.results(DB, ds)
    except sets.SetError as e:
        st.warning(t("pl_refused", lang, msg=md_text(str(e))))
        return
    st.caption(t("pl_set_about", lang, variant=ds.variant, n=ds.hands, seat=ds.seat, expert=sum(ds.expert)))
    if res["people"]:
        st.dataframe({t("pl_set_rank", lang): [r["rank"] for r in res["people"]],
                      t("pl_set_person", lang): [r["person"] for r in res["people"]],
                      t("pl_set_deals", lang): [r["deals"] for r in res["people"]],
                      t("pl_set_diff", lang): [round(r["mean_diff"], 1) for r in res["people"]],
                      t("pl_set_ci", lang): [f"[{r['low']:+.1f}, {r['high']:+.1f}]" if math.isfinite(r["low"])
                                             else "—" for r in res["people"]]},
                     hide_index=True, key="pl_set_results")


def _setup() -> None:
    asked = st.query_params.get("play")
    if asked:
        st.warning(t("pl_no_game", lang, id=md_text(asked)))
    said = play_said()
    if said is not None:
        getattr(st, said[0])(said[1])
    c = st.columns([2, 1, 2])
    c[0].selectbox(t("pl_variant", lang), list(VARIANTS), key="pl_variant_in",
                   format_func=lambda v: t("pl_partners", lang) if v == "partners" else v)
    top = MAX_OPTION["hands"][0]
    c[1].number_input(t("pl_hands", lang, lo=1, hi=top), min_value=1, max_value=top, value=11, step=1,
                      key="pl_hands_in")
    c[2].text_input(t("pl_seed", lang), key="pl_seed_in", placeholder=t("pl_seed_ph", lang))
    m = st.columns([2, 2])
    m[0].text_input(t("pl_me", lang), key="pl_me_in", value=t("pl_me_default", lang))
    me = m[1].segmented_control(t("pl_my_seat", lang), [0, 1, 2, 3], key="pl_seat_in", default=0, required=True)
    st.markdown(f"**{t('pl_bots', lang)}**")
    for k in range(4):
        if k == me:
            continue
        b = st.columns([2, 2, 2])
        b[0].text_input(t("pl_seat_name", lang, seat=k), key=f"pl_name_{k}", value=t(f"pl_bot_name_{k}", lang))
        kind = b[1].selectbox(t("pl_bot_of", lang, seat=k), list(PLAY_BOTS), index=PLAY_BOTS.index("expert"),
                              key=f"pl_bot_{k}", format_func=lambda x: t(f"pl_kind_{x}", lang))
        if kind == "expert":
            b[2].selectbox(t("pl_level", lang), list(LEVELS), index=1, key=f"pl_level_{k}",
                           format_func=lambda x: t(f"pl_level_{x}", lang))
    _set_picker()
    st.button(t("pl_start", lang), key="pl_start", on_click=_start, type="primary")
    open_ = play_games.in_progress(DB)
    if open_:
        st.subheader(t("pl_open", lang))
        for gid in open_[:10]:
            st.page_link(data.PAGE_REF.get("play", "views/play.py"), label=t("pl_resume", lang, id=gid),
                         query_params={"play": gid, "lang": lang})


if not access.can_write():  # a game is written at every move: only where this session may write
    access.read_only_note(lang)
    st.stop()

game = play_games.load(DB, _gid()) if _gid() else None
if game is None:
    _setup()
    st.stop()
url_state.keep(play=game.id)


@st.fragment
def _board() -> None:
    """The game as it stands: a tap reruns only this. With the pause, the table is drawn first
    (the bot to move named), then that bot plays its turn and the board is drawn again; without
    it, every bot turn up to yours is played before the table is drawn."""
    gid = _gid()
    g = play_games.load(DB, gid) if gid else None
    if g is None:
        st.warning(t("pl_no_game", lang, id=md_text(gid or "")))
        return
    if pending_judge(g.id):  # training: the move just tapped is judged before it is applied
        with st.spinner(t("pl_judging", lang)):
            judge_pending(DB, g.id)
        g = play_games.load(DB, g.id) or g
    pause = bool(st.session_state.get(PAUSE_KEY, True))
    if not pause and g.bot_to_move() is not None:
        play_games.change(DB, g.id, PlayGame.bots_until_person)
        g = play_games.load(DB, g.id) or g
    moving = g.bot_to_move() is not None
    if MSG in st.session_state:
        kind, text = st.session_state.pop(MSG)
        getattr(st, kind)(text)
    if g.over:
        hand_over(DB, g, lang)
    else:
        turn_view(DB, g, lang, waiting=moving)
    st.toggle(t("pl_pause", lang), key=PAUSE_KEY, value=pause)
    if moving:  # the bot's turn after a pause a person can follow, then the board again
        time.sleep(PAUSE_S)
        play_games.change(DB, g.id, PlayGame.bot_turn)
        try:
            st.rerun(scope="fragment")
        except StreamlitAPIException:  # a full run of the page (not the fragment's own): all of it again
            st.rerun()


_board()

"""Practice: the chosen player's costliest positions, each retried as on the Replay's "Retry this
position": the table as the player saw it, what was played hidden, several tries judged
in expected points, a hint after a miss, the answer on request; the session keeps a score.
``practice?retry=GAME/HAND/STEP/SEAT`` opens one position (the Replay's button links there);
``practice?pr_player=NAME&pr_kind=KIND`` lists only that kind of the player's mistakes (the Player
page's links: analysis/review/taxonomy.py)."""

from __future__ import annotations

import streamlit as st

from dashboard.board import profile_view, retry
from dashboard.state import data, profile_data, url_state
from dashboard.state import review_data as rv
from dashboard.words.i18n import t as tm
from dashboard.words.profile_words import t as pw
from dashboard.words.retry_words import t as rt
from dashboard.words.rule_links import guide_link
from dashboard.board.tiles_view import esc, md_text

lang = data.lang()
tr = rv.t
st.title(tr("practice_title", lang))
st.caption(guide_link("practice", lang))  # its guide on the Rules page (docs/practice*.md)


def _open_replay(spot: retry.Spot) -> None:
    url_state.goto("replay", game=spot.game, hand=spot.hand, step=spot.step, seat=spot.seat)


asked = st.query_params.get("retry")
if asked:  # one position from a link (the Replay's button, a shared address)
    try:
        spot = retry.parse(asked)
    except ValueError:
        st.error(md_text(rt("rt_bad_key", lang, text=asked)))
        st.stop()
    rp = data.replay(spot.game) if spot.game in data.game_ids() else None
    why = retry.problem(rp, spot, lang)
    if why is not None or rp is None:
        st.error(md_text(why))
        st.stop()
    retry.panel(rp, spot, lang, scope="rt")
    st.divider()
    with st.container(horizontal=True, gap="small"):
        if st.button(rt("rt_open_replay", lang), key="rt_replay", icon=":material/play_arrow:"):
            _open_replay(spot)
        if st.button(rt("rt_back_practice", lang), key="rt_list", icon=":material/school:"):
            del st.query_params["retry"]
            st.rerun()
    st.stop()

rv.analyze_message()
names = data.choices()["players"]
if not names:
    st.info(tm("no_data", lang))
    st.stop()
waiting = rv.pending_games()
if waiting:  # practice positions come from analysed games only
    st.info(tr("practice_unanalyzed", lang, n=len(waiting)))
    rv.analyze_buttons(lang, key="pr")

url_state.seed("pr_player", url_state.one_of(names))
player = st.selectbox(tr("practice_player", lang), names, key="pr_player",
                      on_change=lambda: st.session_state.update(pr_idx=0))
kinds = profile_view.kind_names(lang)  # a kind of mistake (the Player page's links open one)
url_state.seed("pr_kind", url_state.one_of(["", *kinds]))
kind = st.selectbox(pw("pr_kind", lang), ["", *kinds], key="pr_kind",
                    format_func=lambda k: kinds.get(k) or pw("pr_kind_all", lang),
                    on_change=lambda: st.session_state.update(pr_idx=0))
url_state.keep(pr_player=player, pr_kind=kind or None)
pos = profile_data.kind_positions(str(player), kind) if kind else rv.practice_positions(str(player))
if not len(pos):
    st.info(md_text(pw("pr_kind_none", lang, name=player)) if kind else tr("practice_none", lang))
    st.stop()
st.caption(rt("rt_practice_intro", lang))

score = st.session_state.setdefault("pr_score", {"tried": 0, "right": 0, "cost": 0.0, "done": []})
url_state.seed("pr_idx", url_state.int_in(0, len(pos) - 1))
idx = int(st.session_state.get("pr_idx", 0)) % len(pos)
url_state.keep(pr_idx=idx)  # a link opens the same position
row = pos.iloc[idx]
spot = retry.Spot(str(row["game"]), int(row["hand"]), int(row["step"]), int(row["seat"]))
st.caption(md_text(rt("rt_practice_of", lang, i=idx + 1, n=len(pos), c=int(row["cost"]),
                      cat=rv.category(str(row["category"]), lang))))


def _move(d: int) -> None:
    st.session_state.pr_idx = (idx + d) % len(pos)


with st.container(horizontal=True, gap="small", key="pr_nav"):
    st.button(rt("rt_prev", lang), key="pr_prev", on_click=_move, args=(-1,), icon=":material/chevron_left:")
    st.button(rt("rt_next", lang), key="pr_next", on_click=_move, args=(1,), icon=":material/chevron_right:")
    if st.button(rt("rt_open_replay", lang), key="pr_replay", icon=":material/play_arrow:"):
        _open_replay(spot)

rp = data.replay(spot.game)
why = retry.problem(rp, spot, lang)
if why is not None or rp is None:
    st.error(md_text(why))
else:
    done = retry.panel(rp, spot, lang, scope="pr")
    if done is not None and spot.key not in score["done"]:
        score["done"].append(spot.key)
        score["tried"] += 1
        score["right"] += int(done["right"])
        score["cost"] += done["cost"]

st.divider()
# an HTML block: Markdown escapes are not read there (a colon would keep its backslash): HTML-escape only
st.markdown(f'<div data-testid="pr-score">{esc(rt("rt_score", lang, right=score["right"], tried=score["tried"], cost=round(score["cost"], 1)))}</div>',
            unsafe_allow_html=True)

"""Practice: a position from the chosen player's own mistakes, the answer hidden. The user picks
the tiles of his opening or of his lay-offs on the rack, checks, and sees the best play and what
his pick cost; the session keeps a score."""

from __future__ import annotations

import streamlit as st

from analysis.review import best_tiles, grade
from analysis.game import Tile
from dashboard import data, url_state
from dashboard import review_data as rv
from dashboard.i18n import t as tm
from dashboard.rule_links import link_rules
from dashboard.tiles_view import esc, md_text, meld_html, notation_row, rack_html, sort_key, tile_html

lang = data.lang()
tr = rv.t
st.title(tr("practice_title", lang))
LABEL_COLOUR = {"R": "red", "Y": "orange", "B": "blue", "K": "gray"}

rv.analyze_message()
names = data.choices()["players"]
if not names:
    st.info(tm("no_data", lang))
    st.stop()
waiting = rv.pending_games()
if waiting:  # practice positions come from analysed games only
    st.info(tr("practice_unanalyzed", lang, n=len(waiting)))
    rv.analyze_buttons(lang, key="pr")


def _reset() -> None:
    st.session_state.pr_pick = []
    st.session_state.pr_result = None


url_state.seed("pr_player", url_state.one_of(names))
player = st.selectbox(tr("practice_player", lang), names, key="pr_player", on_change=lambda: (
    st.session_state.update(pr_idx=0), _reset()))
url_state.keep(pr_player=player)
pos = rv.practice_positions(str(player))
if not len(pos):
    st.info(tr("practice_none", lang))
    st.stop()

score = st.session_state.setdefault("pr_score", {"tried": 0, "right": 0, "cost": 0, "done": []})
url_state.seed("pr_idx", url_state.int_in(0, len(pos) - 1))
idx = int(st.session_state.get("pr_idx", 0)) % len(pos)
url_state.keep(pr_idx=idx)  # a link opens the same position
row = pos.iloc[idx]
game, ord_, seat, step = str(row["game"]), int(row["ord"]), int(row["seat"]), int(row["step"])
rp = data.replay(game)
if rp is None or not 0 < ord_ <= len(rp.result.hands) or step >= len(rp.result.hands[ord_ - 1].steps):
    st.error(md_text(game))
    st.stop()
state = rp.result.hands[ord_ - 1].steps[step].state
okey = state.okey
rack = sorted(state.racks[seat], key=sort_key)
pick: list[int] = [i for i in st.session_state.get("pr_pick", []) if i < len(rack)]

st.caption(tr("practice_of", lang, i=idx + 1, n=len(pos), game=md_text(game), hand=int(row["hand"]), step=step))
task = "practice_task_turn" if state.opened[seat] is not None else "practice_task_open"
st.markdown(f"**{md_text(tr(task, lang, name=rp.players[seat]))}**")
melds = [m for m in state.table if m is not None]
table = "".join(meld_html(m, rp.players[m.owner], okey, small=True) for m in melds) or esc(tm("no_melds", lang))
thr = (tm("thresholds", lang, p=state.points_threshold(seat), c=state.pairs_threshold(seat))
       if state.opened[seat] is None else "")
st.markdown(f'<div class="ist-plain"><div class="lbl">{esc(tm("indicator", lang))} '
            f'{tile_html(state.indicator, okey, small=True)} {esc(tm("okey", lang))} {tile_html(okey, okey, small=True)}'
            f' · {esc(thr)}</div><div>{esc(tm("table", lang))}: {table}</div></div>', unsafe_allow_html=True)


def _toggle(i: int) -> None:
    cur = list(st.session_state.get("pr_pick", []))
    if i in cur:
        cur.remove(i)
    else:
        cur.append(i)
    st.session_state.pr_pick = cur
    st.session_state.pr_result = None


st.caption(tr("practice_pick", lang))
with st.container(key="pr_rack"):  # a picked tile: cream with a blue frame, its number still in its colour
    cols = st.columns(12)
    for i, tile in enumerate(rack):
        label = "☘ J" if tile.is_joker else f":{LABEL_COLOUR[tile.colour]}[**{tile.number}**]" + (" ★" if tile == okey else "")
        cols[i % 12].button(label, key=f"pr_t{i}", on_click=_toggle, args=(i,), width="stretch",
                            type="primary" if i in pick else "secondary")
picked: list[Tile] = [rack[i] for i in pick]
st.markdown(f'<div class="ist-plain" data-testid="pr-picked">{rack_html(picked, okey)}</div>', unsafe_allow_html=True)

key = f"{game}/{ord_}/{step}/{seat}"


def _check() -> None:
    g = grade(state, seat, [rack[i] for i in st.session_state.get("pr_pick", []) if i < len(rack)])
    st.session_state.pr_result = g
    if key not in score["done"]:
        score["done"].append(key)
        score["tried"] += 1
        score["right"] += int(g.right)
        score["cost"] += g.cost


def _reveal() -> None:
    st.session_state.pr_result = grade(state, seat, [])
    st.session_state.pr_revealed = key


def _next() -> None:
    st.session_state.pr_idx = idx + 1
    _reset()


b = st.columns([1, 1, 1, 1, 3])
b[0].button(tr("practice_check", lang), key="pr_check", on_click=_check, type="primary")
b[1].button(tr("practice_reveal", lang), key="pr_reveal", on_click=_reveal)
b[2].button(tr("practice_clear", lang), key="pr_clear", on_click=_reset)
b[3].button(tr("practice_next", lang), key="pr_next", on_click=_next)

res = st.session_state.get("pr_result")
if res is not None:
    revealed = st.session_state.get("pr_revealed") == key and not pick
    if not revealed:
        if res.right:
            st.success(tr("practice_right", lang, e=res.exposure, b=res.best_exposure))
        else:
            st.warning(link_rules(tr("practice_wrong", lang, c=res.cost, e=res.exposure, b=res.best_exposure,
                                     why=rv.reason(res.reason, lang)), lang))
    st.markdown(f"**{esc(tr('practice_best', lang))}**")
    best = res.best
    groups = (best.get("melds") or []) + (best.get("pairs") or [])
    rows = [f'<span class="ist-meld">{notation_row([str(x) for x in grp], okey, small=True)}</span>' for grp in groups]
    rows += [f'<span class="ist-meld"><div class="own">→ #{esc(x.get("meld"))}</div>'
             f'{notation_row([str(y) for y in x.get("tiles", [])], okey, small=True)}</span>'
             for x in best.get("layoffs", []) or []]
    st.markdown(f'<div class="ist-plain" data-testid="pr-best" data-tiles="{esc(" ".join(best_tiles(res)))}">'
                f'{"".join(rows) or esc(tm("none", lang))}</div>', unsafe_allow_html=True)
    st.caption(link_rules(tr("practice_played", lang, c=int(row["cost"]), cat=rv.category(str(row["category"]), lang)),
                          lang))

st.divider()
st.markdown(f'<div data-testid="pr-score">{esc(tr("practice_score", lang, **{k: v for k, v in score.items() if k != "done"}))}</div>',
            unsafe_allow_html=True)

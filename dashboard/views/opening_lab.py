"""Opening lab: build a rack, pick the gösterge, preset and threshold, see the best per and
çift openings. Every input is bound to the URL, so the page's link is shareable."""

from __future__ import annotations

import random
from urllib.parse import urlencode

import streamlit as st

from analysis.game import PRESETS
from analysis.game import COLOURS, FACES, Tile, full_set, okey_of
from dashboard.state import data, lab, url_state
from dashboard.words.i18n import t
from dashboard.board.picker import picker_style, tile_picker
from dashboard.board.replay_view import opening_html
from dashboard.words.rule_links import guide_link, link_rules
from dashboard.board.tiles_view import esc, md_text, rack_html, tile_html

lang = data.lang()
st.title(t("lab_title", lang))
st.caption(guide_link("lab", lang))  # its guide on the Rules page (docs/lab*.md)

FACE_NAMES = [str(f) for f in FACES]
ROW_NAME = {"R": "pick_red", "Y": "pick_yellow", "B": "pick_blue", "K": "pick_black"}


def _rack_text() -> str:
    return str(st.session_state.get("rack", "") or "")


def _add(tile: str) -> None:
    st.session_state.rack = (_rack_text() + " " + tile).strip()


def _undo() -> None:
    st.session_state.rack = " ".join(_rack_text().split()[:-1])


def _clear() -> None:
    st.session_state.rack = ""


def _random() -> None:
    rng = random.Random()
    variant = st.session_state.get("variant") or "101"
    rules = PRESETS.get(variant, PRESETS["101"])
    ind = rng.choice(FACES)
    pool = list(full_set().elements())
    pool.remove(ind)
    rack = rng.sample(pool, rules.dealt_starter)
    st.session_state.ind = str(ind)
    st.session_state.rack = " ".join(str(x) for x in sorted(rack, key=lambda x: (x.is_joker, x.colour, x.number)))


c1, c2, c3, c4 = st.columns([1, 1, 1, 1])
variant = c1.selectbox(t("lab_preset", lang), list(PRESETS), key="variant", bind="query-params")
rules = PRESETS[variant]
# R5 only while the widget has no value of its own: "Random" sets it through Session State, and a
# default beside that value makes Streamlit warn in the server log on every such run
ind_text = c2.selectbox(t("indicator", lang), FACE_NAMES, key="ind", bind="query-params",
                        index=None if "ind" in st.session_state else FACE_NAMES.index("R5"))
threshold = c3.number_input(t("lab_threshold", lang), min_value=1, max_value=500, value=None, key="thr",
                            placeholder=str(rules.open_points), bind="query-params")
take_text = c4.selectbox(t("lab_take", lang), ["—"] + FACE_NAMES + ["J"], key="take", bind="query-params")

st.text_input(t("lab_rack", lang), key="rack", bind="query-params", max_chars=url_state.MAX_PARAM)
b = st.columns([1, 1, 1, 4])
b[0].button(t("lab_undo", lang), key="lab_undo", on_click=_undo)
b[1].button(t("lab_clear", lang), key="lab_clear", on_click=_clear)
b[2].button(t("lab_random", lang), key="lab_random", on_click=_random, type="primary")

indicator = Tile.parse(ind_text)
okey = okey_of(indicator)
with st.expander(t("lab_picker", lang), expanded=False):
    picker_style()  # each row on its own tint and named, so red and yellow differ at a glance
    tile_picker(_add, "pick", captions={c: t(ROW_NAME[c], lang) for c in COLOURS})

parsed = lab.parse_rack(_rack_text(), indicator, rules.dealt_starter)
if parsed.error:
    fields = {k: md_text(v) if isinstance(v, str) else v for k, v in parsed.error[1].items()}  # typed text
    st.warning(link_rules(t(parsed.error[0], lang, **fields), lang))  # the user's input: not an app error
    st.stop()
rack = parsed.tiles
st.markdown(f'<div class="ist-plain"><div class="lbl">{esc(t("lab_count", lang, n=len(rack)))} · '
            f'{esc(t("indicator", lang))} {tile_html(indicator, okey, small=True)} '
            f'{esc(t("okey", lang))} {tile_html(okey, okey, small=True)}</div>'
            f'{rack_html(rack, okey)}</div>', unsafe_allow_html=True)
if not rack:
    st.info(t("lab_empty", lang))
    st.stop()

take = None if take_text in (None, "—") else Tile.parse(take_text)
try:
    result = lab.best_openings(rack, indicator, variant, threshold=threshold, take=take)
except lab.LabTimeout:
    st.warning(t("lab_slow", lang, s=lab.BUDGET))
    st.stop()
if result is None:
    st.warning(t("solver_missing", lang))
    st.stop()
left, right = st.columns(2)
with left:
    st.markdown(opening_html(result["points"], okey, lang, kind="points"), unsafe_allow_html=True)
with right:
    st.markdown(opening_html(result["pairs"], okey, lang, kind="pairs"), unsafe_allow_html=True)
for key, fields in lab.siler(result, variant):
    st.info(link_rules(t(key, lang, **fields), lang))

params = urlencode(st.query_params.to_dict())
st.caption(t("lab_share", lang))
st.code(f"/lab?{params}" if params else "/lab", language=None)

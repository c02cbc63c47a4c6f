"""The dashboard's entrypoint: ``streamlit run dashboard/app.py`` from the repository root.

Shared state is set up here (language, page styles), then ``st.navigation`` runs the page
(one file per page in ``dashboard/views/``).
Pages read through :mod:`dashboard.state.data`, call ``analysis/`` and draw; they hold no SQL and
no rules.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run dashboard/app.py` puts only dashboard/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st

from dashboard.state import access, data, memory, upload_guard, url_state
from dashboard.words.i18n import LANGS, t
from dashboard.words.record_words import t as rec_t
from dashboard.state.review_data import t as rv_t
from dashboard.words.rule_links import t as rl_t
from dashboard.words.sheet_strings import t as sh_t
from dashboard.words.study_words import t as sw_t
from dashboard.words.play_words import t as pl_t
from dashboard.words.profile_words import t as pp_t
from dashboard.board import chrome
from dashboard.board.tiles_view import CSS

# the icon from a file here: nothing a page needs comes from outside the server (a :material: icon
# as the page icon is fetched from a font host, and fails offline)
st.set_page_config(page_title="Istaka", page_icon=str(ROOT / "dashboard" / "favicon.png"), layout="wide")
upload_guard.install()  # Streamlit's upload endpoint stores files only for a page with an uploader
upload_guard.page_starts()  # with page_ends below: a page that draws no uploader stores no file

url_state.seed("lang", url_state.one_of(LANGS))  # the language is kept in the URL (?lang=en)
st.session_state.setdefault("lang", "tr")
with st.sidebar:
    st.segmented_control(t("language", data.lang()), LANGS, key="lang", required=True,
                         format_func=lambda x: {"tr": "Türkçe", "en": "English"}[x])
lang = data.lang()
with st.sidebar:
    chrome.labels(lang)  # Streamlit's own labels for screen readers and tooltips, in the page's language
url_state.keep(lang=lang)
st.html(CSS + chrome.css(lang))  # style-only HTML is added to the page itself, not in a frame

# The pages live in views/, not pages/: with a pages/ folder next to the entrypoint, a freshly
# started Streamlit runs a deep link (/replay?game=...) as a v1 multipage app, without this
# script and its st.navigation, until someone has opened "/" once.
PAGES = ROOT / "dashboard" / "views"


def _home() -> None:
    """``/`` opens the Games page at its own address (``/games``), so that its filters and the
    language stay in the URL (the default page's address is ``/``, which drops them)."""
    st.switch_page(data.PAGE_REF["games"], query_params=st.query_params.to_dict())


pages = [
    st.Page(_home, title=t("page_games", lang), url_path="home", default=True, visibility="hidden"),
    st.Page(PAGES / "games.py", title=t("page_games", lang), icon=":material/list:", url_path="games"),
    st.Page(PAGES / "replay.py", title=t("page_replay", lang), icon=":material/play_arrow:", url_path="replay"),
    st.Page(PAGES / "opening_lab.py", title=t("page_lab", lang), icon=":material/science:", url_path="lab"),
    st.Page(PAGES / "players.py", title=t("page_players", lang), icon=":material/monitoring:", url_path="players"),
    st.Page(PAGES / "player.py", title=pp_t("pp_page", lang), icon=":material/person:", url_path="player"),
    st.Page(PAGES / "review.py", title=rv_t("page_review", lang), icon=":material/rate_review:", url_path="review"),
    st.Page(PAGES / "study.py", title=sw_t("sw_page", lang), icon=":material/bookmarks:", url_path="study"),
    st.Page(PAGES / "practice.py", title=rv_t("page_practice", lang), icon=":material/school:", url_path="practice"),
    st.Page(PAGES / "rules.py", title=rl_t("page_rules", lang), icon=":material/menu_book:", url_path="rules"),
    st.Page(PAGES / "play.py", title=pl_t("page_play", lang), icon=":material/playing_cards:", url_path="play"),
    st.Page(PAGES / "record.py", title=rec_t("page_record", lang), icon=":material/edit_note:", url_path="record"),
    st.Page(PAGES / "sheet.py", title=sh_t("page_sheet", lang), icon=":material/scoreboard:", url_path="sheet"),
]
data.PAGE_REF.update({p.url_path: p for p in pages})
nav = st.navigation(pages)
memory.guard()  # past the server's memory budget: the caches go before this page fills them again
with st.sidebar:
    if access.served():  # served to others: the file's name, never where it lives on the server
        st.caption(access.t("ac_db_served", lang, name=Path(data.db_file()).name))
    else:
        st.caption(t("db_caption", lang, path=data.db_file()))
    access.sidebar(lang)  # the serving mode, and the writers' login in club mode
access.refusal(lang)  # a write refused in a callback of the last click: one line
try:
    nav.run()
except access.WriteRefused:  # a page's write refused by the gate: one line, not an error
    st.warning(access.refusal_text(lang), icon=":material/block:")
except Exception as e:  # noqa: BLE001 - no user ever sees a traceback: one line here, the details in the log
    if os.environ.get("ISTAKA_RAISE_ERRORS"):  # the tests: an AppTest sees the exception itself
        raise
    logging.getLogger("istaka.dashboard").exception("page %s failed", nav.url_path)
    st.error(t("page_failed", lang, kind=type(e).__name__), icon=":material/error:")
finally:  # the page is drawn (to its end or an st.stop): without an uploader on it, no file stored
    upload_guard.page_ends(sys.exc_info()[1])

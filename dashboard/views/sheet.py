"""Puan tablosu / Score sheet: keep a live table's score, made for a phone.

``/sheet``: start a game (players or two teams, preset and overrides, number of rounds) or open
a saved one. ``/sheet?sheet=ID``: per round, who finished and how, each seat opened by points,
by çift or not, the value left, okeys left, one-tap penalties naming rule and points; the row
the engine writes (analysis.game.sheet) is shown before saving and can be corrected; any row
can be corrected or deleted; each save goes to the store, so a reload or a second device goes
on from there. ``&watch=TOKEN``: the read-only spectator view, refreshed live; the token is the
server's signature of the sheet (dashboard.state.tokens), and editing needs the writer's right
(access.can_write) whatever the link says: a reader always gets the spectator view. Deleting a row
asks first and can be undone. Export as CSV and as a plain-text summary.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from analysis.game.log import MAX_NAME
from analysis.game.sheet import SheetError, score_result
from dashboard.board import winprob_view
from dashboard.state import access, data, sheet_data, tokens, url_state
from dashboard.state.sheet_data import Sheet
from dashboard.words.rule_links import guide_link
from dashboard.words.sheet_strings import t
from dashboard.words.winprob_words import t as wt

lang = data.lang()
st.title(t("sh_title", lang))
st.caption(guide_link("sheet", lang))  # its guide on the Rules page (docs/sheet*.md)
game = st.query_params.get("sheet")
watch = st.query_params.get("watch")  # the spectator link's token
can = access.can_write()  # the only right to edit: the login, never the URL

SEAT_KEYS = ("op", "left", "ok", "pen", "x5v", "fx")


def _empty(key: str) -> dict[str, Any]:
    """An empty number box, unless the session already holds its value (a row being corrected)."""
    return {} if key in st.session_state else {"value": None}


def _new_game() -> None:
    st.caption(t("sh_intro", lang))
    if not can:  # a reader opens the saved sheets; only a writer starts one
        access.read_only_note(lang)
        _saved_list()
        return
    with st.container(border=True):
        st.subheader(t("sh_new", lang))
        teams = st.segmented_control(t("sh_mode", lang), ["single", "teams"], key="n_mode", default="single",
                                     required=True, format_func=lambda m: t(f"sh_mode_{m}", lang)) == "teams"
        names = []
        for s in range(4):
            label = (t("sh_team_seat", lang, team="AB"[s % 2], n=s // 2 + 1) if teams
                     else t("sh_seat", lang, n=s + 1))
            names.append(st.text_input(label, key=f"n_name{s}", max_chars=MAX_NAME).strip())
        variant = st.segmented_control(t("sh_preset", lang), ["101", "101-classic", "51"], key="n_variant",
                                       default="101", required=True) or "101"
        base = sheet_data.rules_of(variant, None)
        c1, c2 = st.columns(2)
        katla = c1.toggle(t("sh_katlamali", lang), value=base.katlamali, key=f"n_katla_{variant}")
        ceza = c2.toggle(t("sh_cezali", lang), value=base.cezali, key=f"n_ceza_{variant}")
        unopened = st.segmented_control(t("sh_unopened", lang), sorted({base.unopened_penalty, base.penalty_unit}),
                                        key=f"n_unopened_{variant}", default=base.unopened_penalty, required=True)
        x5 = (st.segmented_control(t("sh_x5", lang), [10, 20], key="n_x5", default=10, required=True,
                                   format_func=lambda v: f"{v} ×")
              if base.x5 else base.x5_factor)
        lo, hi, odd = sheet_data.hands_range(variant)
        # G1: the range is named beside the box; a count outside it is taken as typed and refused
        # at Start (a box bounded by min/max would keep its last good value behind a red "!")
        span = t("sh_hands_span", lang, lo=lo, hi=hi, odd=t("sh_odd", lang) if odd else "")
        hands = st.number_input(f"{t('sh_hands', lang)} ({span})", value=11, step=2 if odd else 1,
                                key=f"n_hands_{variant}")
        if st.button(t("sh_start", lang), type="primary", key="n_start", width="stretch"):
            if len(set(names)) < 4 or not all(names):
                st.error(t("sh_names_bad", lang))
                return
            if not lo <= hands <= hi or (odd and hands % 2 == 0):
                st.error(t("sh_hands_bad", lang, n=hands, lo=lo, hi=hi, odd=t("sh_odd", lang) if odd else ""))
                return
            over: dict[str, Any] = {}
            for name, value in (("katlamali", katla), ("cezali", ceza), ("esli", teams),
                                ("unopened_penalty", unopened or base.unopened_penalty), ("x5_factor", x5 or 10)):
                if value != getattr(base, name):
                    over[name] = value
            st.query_params["sheet"] = sheet_data.start(names, variant, over, int(hands))
            st.rerun()
    _saved_list()


def _saved_list() -> None:
    st.subheader(t("sh_open_list", lang))
    saved = sheet_data.saved()
    if not len(saved):
        st.info(t("sh_none_saved", lang))
    for r in saved.head(20).itertuples(index=False):
        c1, c2 = st.columns([3, 1])
        c1.markdown(f"**{' · '.join(map(str, r.players))}** — {r.variant}, "
                    f"{t('sh_rounds_of', lang, done=r.hands, planned=r.hands_planned)}")
        c2.page_link(data.PAGE_REF.get("sheet", "views/sheet.py"), label=t("sh_continue", lang),
                     query_params={"sheet": r.game, "lang": lang})


if not game:
    _new_game()
    st.stop()

sheet = sheet_data.load(game)
if sheet is None:
    st.error(t("sh_unknown", lang, game=game))
    st.page_link(data.PAGE_REF.get("sheet", "views/sheet.py"), label=t("sh_back", lang), query_params={"lang": lang})
    st.stop()


def _board(sh: Sheet) -> None:
    """The rows, the totals and who leads; at the end the standings and match points (G3)."""
    st.caption(f"{sh.header.get('variant')} · {t('sh_rounds_of', lang, done=sh.counted, planned=sh.planned)}")
    st.dataframe(sheet_data.table(sh, lang), hide_index=True, key=f"board_{len(sh.results)}")
    totals = sh.result.totals
    if sh.rules.esli:
        a, b = sheet_data.team_totals(sh)
        st.markdown(t("sh_teams", lang, a=a, b=b))
        if sh.results:
            st.markdown(t("sh_leader_team", lang, team="A" if a <= b else "B", total=min(a, b)))
    elif sh.results:
        lead = min(range(4), key=lambda s: totals[s])
        st.markdown(t("sh_leader", lang, name=sh.players[lead], total=totals[lead]))
    for line in winprob_view.sheet_lines(sh.result, sh.players, lang):  # each hand entered moves it
        st.markdown(line)
    with st.expander(wt("wp_chart_title", lang), expanded=sh.over):
        winprob_view.section(sh.result, sh.players, lang, key=f"wp_sheet_{len(sh.results)}")
    if sh.over:
        st.success(t("sh_over", lang))
        st.subheader(t("sh_ranks", lang))
        st.dataframe(sheet_data.standings(sh, lang), hide_index=True, key="standings")


if watch is not None or not can:
    if watch is not None and not tokens.watch_ok(game, watch):
        st.warning(t("sh_watch_bad", lang))
    if can:
        st.page_link(data.PAGE_REF.get("sheet", "views/sheet.py"), label=t("sh_edit_here", lang),
                     query_params={"sheet": game, "lang": lang})
    else:
        access.read_only_note(lang)
    st.caption(t("sh_watching", lang))

    @st.fragment(run_every=3)
    def _live() -> None:
        sh = sheet_data.load(game) or sheet
        _board(sh)

    _live()
    st.stop()

rules = sheet.rules
players = sheet.players
_board(sheet)

# ---- the round being entered (or corrected) ------------------------------------------------

PEN_RULES = ((["X1", "X2", "X3", "X4"] + ["X5"] * rules.x5 + ["X6"] * rules.x6 + ["X7"] * rules.x7)
             if rules.cezali else []) + (["O8"] if rules.siler else [])


def _pen_label(rule: str) -> str:
    if rule == "O8":
        return "O8 siler −101"
    if rule == "X5":
        return f"X5 +{rules.x5_factor}×"
    return f"{rule} +{rules.penalty_unit}"


def wk(name: str) -> str:
    """The key of this round's widget ``name`` (see sheet_data.round_key)."""
    return sheet_data.round_key(name, st.session_state.setdefault(sheet_data.ROUND, 0))


def _named(name: str) -> Any:
    """A container named as this round's widget ``name`` is: a page element that keeps its name
    (``.st-key-NAME``) from round to round, while the widget inside is new each round."""
    return st.container(key=name)


def _clear() -> None:
    """A new, empty round: its widgets are new ones; the last round's values go."""
    old = [wk(k) for k in ["fin", "kinds", "fix"] + [f"{p}{s}" for p in SEAT_KEYS for s in range(4)]]
    for k in old + ["edit"]:
        st.session_state.pop(k, None)
    st.session_state[sheet_data.ROUND] += 1


def _load_row(i: int) -> None:
    """Put a saved row into the entry widgets to correct it."""
    if not 0 <= i < len(sheet.results) or not isinstance(sheet.results[i], dict) or "kind" not in sheet.results[i]:
        return  # the row went (another writer's save or delete since this page was drawn): nothing to load
    _clear()
    r = sheet.results[i]
    kind = r["kind"] if isinstance(r["kind"], list) else [r["kind"]]
    ss = st.session_state
    ss[wk("fin")] = (r["kind"] if r["kind"] in ("exhausted", "void") else str(r["finisher"]))
    ss[wk("kinds")] = [k for k in kind if k in ("okey", "elden", "pairs")]
    okeys = r.get("okeys_left") or [0, 0, 0, 0]
    for s in range(4):
        ss[wk(f"op{s}")] = r["opened"][s] or "none"
        ss[wk(f"left{s}")] = r["left"][s]
        ss[wk(f"ok{s}")] = okeys[s] or None
        pens = [p for p in r.get("penalties", []) if p["seat"] == s]
        ss[wk(f"pen{s}")] = [p["rule"] for p in pens]
        x5 = next((p["points"] // rules.x5_factor for p in pens if p["rule"] == "X5"), None)
        ss[wk(f"x5v{s}")] = x5
    if r.get("scores") is not None:
        ss[wk("fix")] = True
        for s in range(4):
            ss[wk(f"fx{s}")] = r["scores"][s]
    ss.edit = i


def _draft() -> tuple[dict[str, Any] | None, str | None]:
    """The row as the widgets stand (a result event's fields), or the words of what is missing."""
    ss = st.session_state
    fin = ss.get(wk("fin"))
    if fin is None:
        return None, sheet_data.error_words("finisher", "E1", lang)
    if fin == "void":
        return {"finisher": None, "kind": "void", "opened": ["pairs"] * 4, "left": [None] * 4, "penalties": []}, None
    kinds = [k for k in ("okey", "elden", "pairs") if k in (ss.get(wk("kinds")) or [])]
    seat = None if fin == "exhausted" else int(fin)
    opened: list[str | None] = []
    for s in range(4):
        if s == seat:
            opened.append("pairs" if "pairs" in kinds else "points")
        else:
            o = ss.get(wk(f"op{s}"), "points")
            opened.append(None if o in (None, "none") else o)
    left = [None if s == seat or opened[s] is None else ss.get(wk(f"left{s}")) for s in range(4)]
    pens = []
    for s in range(4):
        for rule in ss.get(wk(f"pen{s}")) or []:
            if rule == "X5":
                v = ss.get(wk(f"x5v{s}"))
                if v is None:
                    return None, t("sh_err_x5", lang)
                pts = rules.x5_factor * int(v)
            else:
                pts = -101 if rule == "O8" else rules.penalty_unit
            pens.append({"seat": s, "rule": rule, "points": pts})
    ev: dict[str, Any] = {"finisher": seat, "kind": fin if seat is None else (kinds if len(kinds) > 1 else
                                                                               (kinds[0] if kinds else "normal")),
                          "opened": opened, "left": left}
    okeys = [int(ss.get(wk(f"ok{s}")) or 0) if s != seat and opened[s] else 0 for s in range(4)]
    if any(okeys):
        ev["okeys_left"] = okeys
    ev["penalties"] = pens
    return ev, None


editing = st.session_state.get("edit")
if editing is not None and not 0 <= editing < len(sheet.results):
    editing = st.session_state.edit = None
n_next = sheet.result.hands[editing].hand if editing is not None else (
    (sheet.result.hands[-1].hand if sheet.result.hands[-1].result == "void" else sheet.result.hands[-1].hand + 1)
    if sheet.result.hands else 1)


def _cancel() -> None:
    _clear()
    st.session_state["_sheet_saved"] = True  # the page, not only the round, is drawn again


@st.fragment  # a tap in the round reruns only the round (fast on a phone); a save reruns the page
def _entry() -> None:
    if st.session_state.pop("_sheet_saved", False):
        st.rerun()  # the board above shows the saved row
    access.refusal(lang)  # a save refused by the write gate (a tap here reruns this part alone)
    with st.container(border=True, key="entry"):
        st.subheader(t("sh_editing", lang, n=n_next) if editing is not None else t("sh_entry", lang, n=n_next))
        fin_opts = ["0", "1", "2", "3", "exhausted"] + (["void"] if rules.void_all_pairs else [])
        fin = _named("fin").segmented_control(
            t("sh_finisher", lang), fin_opts, key=wk("fin"),
            format_func=lambda o: players[int(o)] if o.isdigit() else t(f"sh_{o}", lang))
        seat = int(fin) if fin is not None and fin.isdigit() else None
        if seat is not None:
            _named("kinds").pills(t("sh_how", lang), ["okey", "elden", "pairs"], selection_mode="multi",
                                  key=wk("kinds"), format_func=lambda k: t(f"sh_k_{k}", lang))
        if fin == "void":
            st.info(t("sh_void_note", lang))
        elif fin is not None:
            partner = (seat + 2) % 4 if seat is not None and rules.esli else None
            for s in range(4):
                with st.container(border=True, key=f"seat{s}"):
                    st.markdown(f"**{s + 1}. {players[s]}**")
                    if s == seat:
                        st.caption(t("sh_finisher_note", lang))
                    elif s == partner:
                        st.caption(t("sh_partner_note", lang))
                    else:
                        st.session_state.setdefault(wk(f"op{s}"), "points")
                        op = _named(f"op{s}").segmented_control(
                            t("sh_opened", lang), ["points", "pairs", "none"], key=wk(f"op{s}"), required=True,
                            format_func=lambda o: t(f"sh_o_{o}", lang), label_visibility="collapsed")
                        if op in ("points", "pairs"):
                            _named(f"left{s}").number_input(t("sh_left", lang), min_value=0, max_value=999, step=1,
                                                            key=wk(f"left{s}"), **_empty(wk(f"left{s}")))
                            _named(f"ok{s}").segmented_control(t("sh_okeys", lang), [1, 2], key=wk(f"ok{s}"))
                    if PEN_RULES:
                        chosen = _named(f"pen{s}").pills(t("sh_penalties", lang), PEN_RULES, selection_mode="multi",
                                                         key=wk(f"pen{s}"), format_func=_pen_label)
                        if "X5" in (chosen or []):
                            _named(f"x5v{s}").number_input(t("sh_x5_value", lang), 1, 13, key=wk(f"x5v{s}"),
                                                           **_empty(wk(f"x5v{s}")))

        ev, missing = _draft()
        computed: list[int] | None = None
        if ev is not None:
            try:
                h = score_result(rules, {**ev, "type": "result", "game": game, "hand": n_next}, 0)
            except SheetError as e:
                missing = sheet_data.error_words(e.field, e.rule, lang)
            else:
                computed = [h.scores[s] + sum(p.points for p in h.penalties if p.seat == s) for s in range(4)]
                st.markdown(f"**{t('sh_preview', lang)}**")
                rows = []
                for s in range(4):
                    line = h.lines[s] if h.lines else None
                    parts = [sheet_data.why(line, rules, lang)] if line is not None else [t("sh_why_void", lang)]
                    parts += [t("sh_pen_line", lang, rule=p.rule, points=p.points) for p in h.penalties if p.seat == s]
                    rows.append({"": players[s], "=": computed[s], " ": " · ".join(parts)})
                st.table(pd.DataFrame(rows).set_index(""))  # light to draw on a phone
                if _named("fix").toggle(t("sh_fix", lang), key=wk("fix")):
                    st.caption(t("sh_fix_note", lang))
                    for s in range(4):
                        st.session_state.setdefault(wk(f"fx{s}"), computed[s])
                        _named(f"fx{s}").number_input(players[s], step=1, key=wk(f"fx{s}"))
        if missing:
            st.warning(missing)

        @access.writes
        def _save() -> None:
            row, _ = _draft()
            if row is None:
                return
            if st.session_state.get(wk("fix")):
                written = [st.session_state.get(wk(f"fx{s}")) for s in range(4)]
                if all(isinstance(x, int) for x in written) and written != computed:
                    row["scores"] = written
            results = list(sheet.results)
            i = st.session_state.get("edit")
            if i is not None and 0 <= i < len(results):
                results[i] = row
            else:
                results.append(row)
            try:
                sheet_data.save(sheet.header, results)
            except SheetError as e:  # G1: a tap from a page that still offered a round past the end
                st.session_state["_sheet_msg"] = sheet_data.error_words(e.field, e.rule, lang)
            else:
                st.session_state["_sheet_msg"] = t("sh_saved", lang, n=n_next)
            _clear()
            st.session_state["_sheet_saved"] = True

        c1, c2 = st.columns(2)
        c1.button(t("sh_save_edit", lang) if editing is not None else t("sh_save", lang), type="primary",
                  key="save", on_click=_save, disabled=computed is None, width="stretch")
        if editing is not None:
            c2.button(t("sh_cancel", lang), key="cancel", on_click=_cancel, width="stretch")


if editing is not None or not sheet.over:  # G1: after the game's last hand no round is entered
    _entry()

if msg := st.session_state.pop("_sheet_msg", None):
    st.toast(msg)

# ---- correct or delete a saved row --------------------------------------------------------

DELETING = "_sheet_delete"  # session state: (sheet, index, row) asked to be deleted (confirmed first)
UNDO = "_sheet_undo"  # session state: (sheet, index, row, rows left) of the last deleted row


def _asked() -> int | None:
    """The row asked to be deleted, while the sheet still holds it there (another device may
    have changed the sheet between the question and the answer)."""
    got = st.session_state.get(DELETING)
    if got is None or got[0] != game or not 0 <= got[1] < len(sheet.results) or sheet.results[got[1]] != got[2]:
        return None
    return int(got[1])


@access.writes
def _delete() -> None:
    i = _asked()
    st.session_state.pop(DELETING, None)
    if i is None:
        return
    results = [r for k, r in enumerate(sheet.results) if k != i]
    sheet_data.save(sheet.header, results)
    st.session_state[UNDO] = (game, i, sheet.results[i], len(results))
    _clear()
    st.session_state["_sheet_msg"] = t("sh_deleted", lang)


@access.writes
def _undo_delete() -> None:
    got = st.session_state.pop(UNDO, None)
    if got is None or got[0] != game or got[3] != len(sheet.results):  # the sheet changed since
        return
    _, i, row, _ = got
    sheet_data.save(sheet.header, sheet.results[:i] + [row] + sheet.results[i:])
    _clear()
    st.session_state["_sheet_msg"] = t("sh_undone", lang)


undo = st.session_state.get(UNDO)
if undo is not None and undo[0] == game and undo[3] == len(sheet.results):
    with st.container(key="undo_row"):
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        c1.caption(t("sh_deleted_row", lang, n=undo[1] + 1))  # its place in the list
        c2.button(t("sh_undo", lang), key="undo_delete", on_click=_undo_delete, icon=":material/undo:",
                  width="stretch")

if sheet.results:
    with st.container(key="rows"):
        c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
        pick = c1.selectbox(t("sh_pick_row", lang), range(len(sheet.results)), key="pick_row",
                            index=len(sheet.results) - 1,
                            format_func=lambda i: f"{sheet.result.hands[i].hand}. "
                            f"{sheet_data.finish_words(sheet.result.hands[i], players, lang)}")
        c2.button(t("sh_edit", lang), key="edit_row", on_click=_load_row, args=(pick,), width="stretch")
        c3.button(t("sh_delete", lang), key="delete_row", args=(pick,), width="stretch",
                  on_click=lambda i: st.session_state.update({DELETING: (game, i, sheet.results[i])}))
    asked = _asked()
    if asked is not None:
        with st.container(border=True, key="confirm_delete"):
            h = sheet.result.hands[asked]
            st.warning(t("sh_delete_ask", lang, n=h.hand, what=sheet_data.finish_words(h, players, lang)))
            c1, c2 = st.columns(2)
            c1.button(t("sh_delete_yes", lang), key="delete_yes", on_click=_delete, type="primary",
                      width="stretch")
            c2.button(t("sh_delete_keep", lang), key="delete_keep", on_click=lambda: st.session_state.pop(DELETING),
                      width="stretch")

# ---- share and export ----------------------------------------------------------------------

st.subheader(t("sh_export", lang))
spectate = url_state.link("sheet", sheet=game, watch=tokens.watch_token(game))  # signed: dashboard.state.tokens
st.markdown(f"{t('sh_spectate', lang)}: [{game}]({spectate})")
c1, c2 = st.columns(2)
c1.download_button(t("sh_csv", lang), sheet_data.csv_text(sheet, lang), file_name=f"{game}.csv", mime="text/csv",
                   key="csv", width="stretch")
summary = sheet_data.summary_text(sheet, lang)
c2.download_button(t("sh_txt", lang), summary, file_name=f"{game}.txt", mime="text/plain", key="txt",
                   width="stretch")
st.caption(t("sh_summary", lang))
st.code(summary, language=None)

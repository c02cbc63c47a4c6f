"""The deep review on the Review and Replay pages: the "deep review" button with its
progress bar, per seat graded decisions, cost and accuracy, every graded decision of a hand in turn
order (top three candidates, what was played, the lesson, the best line drawn whole), the hand's
actual result next to the evaluator's expectation, and the Replay panel of the evaluator's top
three for the seat to move.

Strings are in :mod:`dashboard.words.i18n` (``dv_*``); data comes from :mod:`dashboard.state.deep_data`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from analysis.game import HandState, Tile, apply

from analysis.review import RATE_OVER

from dashboard.state import access, data, deep_data, jobs, review_data, url_state
from dashboard.words import pricing_words as pw
from dashboard.words.i18n import t
from dashboard.board.replay_view import describe as describe_event
from dashboard.board.tiles_view import esc, md_text, meld_html, notation_row, rack_html, tile_html

_MSG = "_dv_msg"
KINDS = ("take", "place", "discard")


def kind_label(kind: str, lang: str) -> str:
    if kind == "show":
        return pw.t("pw_kind_show", lang)
    return t(f"dv_kind_{kind}", lang) if kind in KINDS else kind


def _num(x: float) -> float:
    return round(float(x), 1)


# ---- the button --------------------------------------------------------------------------------


def deep_button(lang: str, game: str, *, again: bool = False) -> None:
    """Run the deep pass of ``game`` with a progress bar, store it, and show the page again."""
    if review_data.read_only_archive() or not access.can_write():  # a lake, read-only mode, a reader
        return
    if jobs.panel("deep", lang, lambda job: _deep_done(job, lang)):  # queued or running: its place, cancel
        return
    if not st.button(t("dv_button_again" if again else "dv_button", lang), key="dv_run",
                     type="secondary" if again else "primary", icon=":material/psychology:"):
        return
    # one queue for every session's long work: one deep review at a time, in order
    if jobs.submit("deep", jobs.t("jb_deep", lang, game=game), deep_data.deep_job(game), lang) is not None:
        st.rerun()


def _deep_done(job: jobs.Job, lang: str, rerun: bool = True) -> None:
    if job.state == "cancelled":
        st.session_state[_MSG] = ("info", jobs.t("jb_cancelled", lang, label=job.label))
    else:
        st.session_state[_MSG] = ("error", t("dv_failed", lang, msg=job.error)) if job.error else (
            "success", t("dv_done", lang, n=job.result))
    if rerun:
        st.rerun()


def message() -> None:
    """The outcome of the last deep pass run from the page (shown once)."""
    job = jobs.QUEUE.of(jobs.owner())  # a queued deep review that ended (the page may show no button now)
    if job is not None and job.kind == "deep" and job.state in ("done", "failed", "cancelled"):
        jobs.QUEUE.forget(job)
        _deep_done(job, data.lang(), rerun=False)
    msg = st.session_state.pop(_MSG, None)
    if msg:
        getattr(st, msg[0])(msg[1])


# ---- a line of play drawn as tiles -----------------------------------------------------------


def line_html(events: Sequence[Mapping[str, Any]], state: HandState | None, seat: int, players: Sequence[str],
              lang: str) -> str:
    """A decision's events drawn whole: openings and new melds, each lay-off and okey swap with the
    table meld it goes to (as it stands after it), a draw, take or discard, and whether the line
    leaves one tile to discard, which finishes the hand."""
    okey = state.okey if state is not None else Tile.parse("J")
    names = list(players) + [f"#{i}" for i in range(len(players), 4)]
    cur = state
    parts: list[str] = []
    placed = False
    for ev in events:
        kind = str(ev.get("type"))
        after = None
        if cur is not None:
            try:
                after = apply(cur, dict(ev))
            except ValueError:  # IllegalMove included: drawn from the notation alone
                after = None
        if kind in ("open", "meld"):
            placed = True
            groups = ev.get("pairs") or ev.get("melds") or []
            title = t("dv_line_open" if kind == "open" else "dv_line_meld", lang)
            if ev.get("pairs"):
                title += f" · {len(groups)} çift"
            rows = "".join(f'<span class="ist-meld">{notation_row([str(x) for x in g], okey, small=True)}</span>'
                           for g in groups if isinstance(g, (list, tuple)))
            parts.append(f'<div data-line="{kind}"><b>{esc(title)}</b><br>{rows}</div>')
        elif kind in ("layoff", "swap"):
            placed = True
            k = ev.get("meld")
            tiles = [str(x) for x in ev.get("tiles", [ev.get("tile")] if ev.get("tile") else [])]
            title = t(f"dv_line_{kind}", lang, meld=k)
            target = ""
            if after is not None and isinstance(k, int) and 0 <= k < len(after.table) and after.table[k] is not None:
                m = after.table[k]
                target = " = " + meld_html(m, names[m.owner], okey, small=True)
            parts.append(f'<div data-line="{kind}"><b>{esc(title)}</b> '
                         f'<span class="ist-meld">{notation_row(tiles, okey, small=True)}</span>{target}</div>')
        elif kind in ("draw", "take", "discard"):
            tile = ev.get("tile")
            body = ""
            if tile:
                try:
                    body = tile_html(Tile.parse(str(tile)), okey, small=True)
                except ValueError:
                    body = f"<code>{esc(tile)}</code>"
            parts.append(f'<div data-line="{kind}"><b>{esc(t("dv_line_" + kind, lang))}</b> {body}</div>')
            if kind == "discard" and cur is not None and tile:  # the rack it was chosen from
                try:
                    mark = [Tile.parse(str(tile))]
                except ValueError:
                    mark = []
                parts.append(f'<div class="lbl">{esc(t("dv_line_rack", lang))}</div>'
                             f'{rack_html(cur.racks[seat], okey, small=True, highlight=mark)}')
        else:  # show, declare, take back: as the move list says them
            parts.append(f'<div data-line="{esc(kind)}">{esc(describe_event(ev, names, lang))}</div>')
        cur = after
    if not events:
        parts.append(f'<div data-line="wait">{esc(t("dv_line_wait", lang))}</div>')
    if placed and cur is not None:
        rack = cur.racks[seat]
        if cur.over or len(rack) <= 1:
            last = tile_html(rack[0], okey, small=True) if rack else ""
            parts.append(f'<div class="ist-badge open" data-line="finish">{esc(t("dv_line_finishes", lang))}</div>'
                         f'{last}')
        else:
            parts.append(f'<div class="lbl">{esc(t("dv_line_left", lang))}: '
                         f'{"".join(tile_html(x, okey, small=True) for x in rack)}</div>')
    return f'<div class="ist-plain" data-testid="dv-line">{"".join(parts)}</div>'


def _state_at(game: str, ord: int, step: int) -> tuple[HandState | None, list[str]]:
    rp = data.replay(game)
    if rp is None or not 1 <= ord <= len(rp.result.hands):
        return None, []
    steps = rp.result.hands[ord - 1].steps
    return (steps[step].state if 0 <= step < len(steps) else None), rp.players


# ---- tables ------------------------------------------------------------------------------------


def candidates_frame(cands: Sequence[Mapping[str, Any]], lang: str) -> pd.DataFrame:
    """The top candidates (and the played one) with their expected points, best first; a move
    within the interval of the best is marked "as good"."""
    return pd.DataFrame({
        t("dv_col_move", lang): [c["move"] for c in cands],
        t("dv_col_expected_pts", lang): [None if c.get("expected") is None else _num(c["expected"]) for c in cands],
        t("dv_col_se", lang): [_num(c["se"]) for c in cands],
        t("dv_col_worlds", lang): [int(c["n"]) for c in cands],
        t("dv_col_is_played", lang): ["✓" if c.get("played") else "" for c in cands],
        pw.t("pw_col_tie", lang): ["=" if c.get("tie") else "" for c in cands],
    })


def _top_text(cands: Sequence[Mapping[str, Any]]) -> str:
    return " · ".join(f"{c['move']} {_num(c['expected'])}" if c.get("expected") is not None else str(c["move"])
                      for c in cands[: deep_data.TOP])


# ---- the Review page -------------------------------------------------------------------------


def min_cost_filter(container: Any, lang: str) -> int:
    """The Review page's severity filter: only mistakes over 10 / 30 / 100 points."""
    return int(container.selectbox(pw.t("pw_min_cost", lang), [0, *RATE_OVER], key="rv_min_cost",
                                   format_func=lambda n: pw.t("pw_min_all", lang) if n == 0
                                   else pw.t("pw_min_fmt", lang, x=n)))


def review_section(game: str, lang: str, hand: int | None = None, min_cost: int = 0) -> None:
    """The deep review of ``game`` on the Review page (``hand``: the hand number picked there;
    ``min_cost``: only decisions costing more, the page's severity filter)."""
    st.subheader(t("dv_title", lang))
    st.caption(t("dv_intro", lang))
    st.caption(f"[{t('dv_guide', lang)}]({url_state.link('rules', doc='review')})")  # docs/review*.md
    message()
    gr = deep_data.review(game)
    if gr is None:
        st.info(t("dv_none", lang))
        deep_button(lang, game)
        return
    if not deep_data.current(gr):
        st.caption(t("dv_stale", lang))
        deep_button(lang, game, again=True)
    summ = deep_data.summary(game) or {"seats": [], "hands": []}
    seats = summ["seats"]
    st.markdown(f"**{esc(t('dv_seats', lang))}**")
    frame = {
        "#": [s["seat"] for s in seats], t("col_player", lang): [s["player"] for s in seats],
        t("dv_col_graded", lang): [s["graded"] for s in seats],
        t("dv_col_cost", lang): [_num(s["cost"]) for s in seats],
        t("dv_col_cost_hand", lang): [_num(s["cost_per_hand"]) for s in seats],
        t("dv_col_accuracy", lang): [None if s["accuracy"] is None else _num(s["accuracy"]) for s in seats],
        pw.t("pw_col_forced", lang): [s.get("forced", 0) for s in seats],
    }
    for n in RATE_OVER:  # the bad-move rates
        frame[pw.t("pw_col_rate", lang, x=n)] = [(s.get("rates") or {}).get(str(n)) for s in seats]
    st.dataframe(pd.DataFrame(frame), hide_index=True, key="dv_seats")
    forced = summ.get("forced") or {}
    st.caption(pw.t("pw_forced_note", lang, n=int(forced.get("total", 0)), w=summ.get("pricing_worlds", 0),
                    c=summ.get("charging_worlds", 0)))

    hands = [(h["ord"], h["hand"]) for h in summ["hands"]]
    if not hands:
        return
    ords = [o for o, _ in hands]
    number = dict(hands)
    if hand and st.session_state.get("_dv_page_hand") != hand:  # the page's hand pick leads
        st.session_state["_dv_page_hand"] = hand
        st.session_state["dv_hand"] = next((o for o, h in hands if h == hand), ords[0])
    if st.session_state.get("dv_hand") not in ords:
        st.session_state["dv_hand"] = ords[0]
    ord = int(st.selectbox(t("hand", lang), ords, key="dv_hand", format_func=lambda o: str(number[o])))
    _hand_result(summ, ord, gr.players, lang)
    _decisions(game, gr, ord, number[ord], lang, min_cost)


def _hand_result(summ: Mapping[str, Any], ord: int, players: Sequence[str], lang: str) -> None:
    row = next(h for h in summ["hands"] if h["ord"] == ord)
    st.markdown(f"**{esc(t('dv_hand_result', lang, hand=row['hand']))}**")
    actual = row.get("actual") or [None] * 4
    expected = row.get("expected") or [None] * 4
    st.dataframe(pd.DataFrame({
        t("col_player", lang): list(players[:4]),
        t("dv_col_actual", lang): actual,
        t("dv_col_expected", lang): [None if x is None else _num(x) for x in expected],
    }), hide_index=True, key="dv_hand_result")


def _decisions(game: str, gr: Any, ord: int, hand_no: int, lang: str, floor: int = 0) -> None:
    rows = deep_data.hand_choices(gr, ord, lang)
    names = gr.players
    st.markdown(f"**{esc(t('dv_decisions', lang))}**")
    only = st.toggle(t("dv_only_costly", lang), key="dv_only_costly")
    shown = [r for r in rows if r["cost"] > 0] if only else rows
    if floor:  # only mistakes over N points
        shown = [r for r in shown if r["cost"] > floor]
    frame = pd.DataFrame({
        t("dv_col_turn", lang): [r["turn"] + 1 for r in shown],
        t("col_player", lang): [names[r["seat"]] for r in shown],
        t("dv_col_kind", lang): [kind_label(r["kind"], lang) for r in shown],
        t("dv_col_played", lang): [r["played"] for r in shown],
        t("dv_col_best", lang): [r["best"] for r in shown],
        t("dv_col_exp_played", lang): [_num(r["expected_played"]) for r in shown],
        t("dv_col_exp_best", lang): [_num(r["expected_best"]) for r in shown],
        t("dv_col_cost", lang): [pw.cost_text(r["cost"], r.get("ci"), r.get("worlds", 0), r.get("forced"), lang)
                                 for r in shown],
        t("dv_col_top", lang): [_top_text(r["candidates"]) for r in shown],
        t("dv_col_lesson", lang): [r["lesson"] for r in shown],
        "▶": [url_state.link("replay", game=game, hand=hand_no, step=r["step"], seat=r["seat"]) for r in shown],
    })
    sel = st.dataframe(frame, key="dv_decisions", on_select="rerun", selection_mode=["single-row", "single-cell"],
                       hide_index=True, column_config={"▶": st.column_config.LinkColumn("▶", display_text="▶")})
    picked = url_state.clicked_row(sel)
    if picked is not None and picked < len(shown):  # a click anywhere in a row opens the Replay at that step
        r = shown[picked]
        url_state.goto("replay", game=game, hand=hand_no, step=int(r["step"]), seat=int(r["seat"]))
    if not rows:
        return
    key = f"dv_pick_{ord}"
    if st.session_state.get(key) not in range(len(rows)):
        st.session_state[key] = max(range(len(rows)), key=lambda i: (rows[i]["cost"], -i))
    def title(j: int, md: bool = False) -> str:  # md: an expander's label is Markdown, an option is not
        name = names[rows[j]["seat"]]
        return t("dv_pick_fmt", lang, turn=rows[j]["turn"] + 1, name=md_text(name) if md else name,
                 kind=kind_label(rows[j]["kind"], lang),
                 cost=pw.cost_text(rows[j]["cost"], rows[j].get("ci"), rows[j].get("worlds", 0), rows[j].get("forced"),
                                   lang))

    if st.toggle(t("dv_all", lang), key="dv_all"):  # every decision shown (as filtered) in full
        visible = {id(x) for x in shown}
        for j, r in enumerate(rows):
            if id(r) in visible:
                with st.expander(title(j, md=True), expanded=r["cost"] > 0):
                    detail(game, ord, hand_no, r, names, lang, key=f"_{j}")
        return
    i = int(st.selectbox(t("dv_pick", lang), list(range(len(rows))), key=key, format_func=title))
    detail(game, ord, hand_no, rows[i], names, lang)


def detail(game: str, ord: int, hand_no: int, r: Mapping[str, Any], names: Sequence[str], lang: str,
           key: str = "") -> None:
    """One graded decision: the lesson, the candidates, the best line drawn whole, what was played
    (``key``: a suffix for its widgets where several are shown)."""
    box = st.container(border=True, key=f"dv_detail{key}")
    kind = kind_label(r["kind"], lang)
    box.markdown(f'<div data-testid="dv-lesson"><b>{esc(t("dv_col_turn", lang))} {r["turn"] + 1} · '
                 f'{esc(names[r["seat"]])} · {esc(kind)}</b><br>{esc(r["lesson"])}</div>', unsafe_allow_html=True)
    if r["cost"] > 0 and r.get("ci") is not None and r.get("worlds"):
        box.markdown(f"**{esc(pw.t('pw_cost_ci', lang, cost=round(r['cost']), ci=round(r['ci']), w=r['worlds']))}**")
    elif r["cost"] > 0:
        box.markdown(f"**{esc(t('dv_cost_line', lang, cost=_num(r['cost'])))}**")
    if r.get("forced") and any(c.get("expected") is None for c in r["candidates"]):
        box.caption(pw.t("pw_forced_why", lang))  # nothing was priced: no table of numbers
    else:
        box.markdown(f"**{esc(t('dv_candidates', lang))}**")
        box.dataframe(candidates_frame(r["candidates"], lang), hide_index=True, key=f"dv_candidates{key}")
    state, players = _state_at(game, ord, int(r["step"]))
    left, right = box.columns(2)
    left.markdown(f"**{esc(t('dv_best_line', lang))}**")
    left.markdown(line_html(r["best_events"], state, int(r["seat"]), players or names, lang), unsafe_allow_html=True)
    right.markdown(f"**{esc(t('dv_played_line', lang))}**")
    right.markdown(line_html(r["played_events"], state, int(r["seat"]), players or names, lang),
                   unsafe_allow_html=True)
    if box.button(t("dv_open_replay", lang), key=f"dv_open{key}", icon=":material/play_arrow:"):
        url_state.goto("replay", game=game, hand=hand_no, step=int(r["step"]), seat=int(r["seat"]))


# ---- the Replay page ---------------------------------------------------------------------------


def replay_panel(game: str, ord: int, step: int, state: HandState, players: Sequence[str], lang: str,
                 next_events: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any] | None:
    """The deep review's verdict on the decisions taken at this step (the same one every surface
    shows): the stored review's where there is one, else judged now with the review's own worlds
    and seed, and said so. Returns the recommended candidate ({"move", "expected"}), or None."""
    del next_events
    if state.over:
        return None
    seat = state.turn
    st.subheader(t("dv_replay_title", lang, name=md_text(players[seat])))
    stored = deep_data.stored_at(game, ord, step, lang)
    if stored:
        st.caption(t("dv_replay_stored", lang))
        rows = stored
    else:
        # served to others, a step of a game with no deep review is judged when a reader asks (a
        # few tenths of a second of the server's CPU each); once judged, every reader sees it
        if access.served() and not deep_data.verdict_known(game, ord, step):
            slot = st.empty()
            if not slot.button(t("dv_replay_judge", lang), key=f"dv_judge_{ord}_{step}", icon=":material/balance:"):
                st.caption(t("dv_replay_ask", lang))
                return None
            slot.empty()  # asked: the verdict takes its place
        with st.spinner(t("dv_replay_evaluating", lang)):
            rows = deep_data.verdict_at(game, ord, step, lang)
        if rows:
            st.caption(t("dv_replay_computed", lang, n=max(int(r["worlds"]) for r in rows)))
    if not rows:
        st.caption(t("dv_replay_none", lang))
        return None
    for j, r in enumerate(rows):
        st.markdown(f'<div data-testid="dv-replay-lesson"><b>{esc(kind_label(r["kind"], lang))}</b>: '
                    f'{esc(r["lesson"])}</div>', unsafe_allow_html=True)
        if r.get("parts"):
            st.caption(r["parts"])
        if r.get("forced") and any(c.get("expected") is None for c in r["candidates"]):
            st.caption(pw.t("pw_forced_why", lang))
        else:
            st.dataframe(candidates_frame(r["candidates"], lang), hide_index=True, key=f"dv_rp_{j}")
    return dict(rows[0]["candidates"][0]) if rows[0]["candidates"] else None


__all__ = ["candidates_frame", "deep_button", "detail", "kind_label", "line_html", "message", "min_cost_filter",
           "replay_panel",
           "review_section"]

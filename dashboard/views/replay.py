"""Replay: step through a hand like on a real table, with the solver's suggestion per turn.

The game, hand and step live in the URL (``?game=…&hand=…&step=…``) through widgets bound to
query parameters; buttons change the step in ``on_click`` callbacks (with keyboard shortcuts),
so the view never lags a click behind.
"""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from analysis.review import CATEGORY_KIND

from dashboard.board import game_rules
from dashboard.state import data, deep_data, suggest, url_state
from dashboard.state import review_data as rv
from dashboard.board import board_marks, deep_view, loss_graph, notes_view, player_view, replay_keys, retry, study_view
from dashboard.board import luck_view, winprob_view
from dashboard.board import table_view
from dashboard.words.graph_words import t as gw
from dashboard.words.i18n import md_plain, t
from dashboard.words.rule_links import guide_link, link_rules
from dashboard.board.replay_view import (
    compare,
    describe,
    finish_explanation,
    played,
    running_totals,
    score_rows,
    suggestion_html,
)
from dashboard.words.luck_words import t as lw
from dashboard.words.retry_words import t as rt
from dashboard.words.seatview_words import t as sv
from dashboard.words.winprob_words import t as wt
from dashboard.board.tiles_view import esc, md_text, table_html

lang = data.lang()
st.title(t("replay_title", lang))
st.caption(guide_link("replay", lang))  # its guide on the Rules page (docs/replay*.md)
replay_keys.early()  # keys pressed before the keys' component mounts are kept, not lost

ids = list(data.game_ids())
if not ids:
    st.info(t("no_games", lang))
    st.stop()


def _reset_hand() -> None:
    st.session_state.hand = 1
    st.session_state.step = 0


def _reset_step() -> None:
    st.session_state.step = 0


top = st.columns([3, 1, 1])
asked = st.query_params.get("game")
if asked is not None and asked not in ids:  # a link to a game this database does not hold
    st.warning(t("game_not_found", lang, game=md_text(asked)))
url_state.seed("game", url_state.one_of(ids))
game = top[0].selectbox(t("pick_game", lang), ids, key="game", on_change=_reset_hand)
rp = data.replay(str(game))
if rp is None or rp.result.error is not None or not rp.result.hands:
    msg = rp.result.error.get("message") if rp and rp.result.error else str(game)
    st.error(t("no_replay", lang, msg=md_text(msg)))
    st.stop()
players = rp.players
game_rules_ = rp.result.rules
st.caption(game_rules.rules_markdown(game_rules_, lang))  # the preset and what this log overrides
viewer = rp.result.view  # a seat-view log: the other racks are tile backs, only this seat is graded
if viewer is not None:
    st.info(md_text(sv("view_of", lang, name=players[viewer], seat=viewer)))
hands = rp.hand_numbers()
url_state.scoped(str(game), "hand", "step")
url_state.seed("hand", url_state.one_of(hands))
if st.session_state.get("hand") not in hands:
    st.session_state.hand = hands[0]
hand_no = top[1].selectbox(t("hand", lang), hands, key="hand", on_change=_reset_step)
hr = rp.hand(int(hand_no))
assert hr is not None
steps = hr.steps
n = len(steps)


def _illegal(err: dict | None) -> None:
    """The hand's first illegal move, its rule linked to the Rules page."""
    err = err or {}
    st.error(link_rules(t("hand_invalid", lang, line=err.get("line"), msg=md_plain(err.get("message") or ""),
                          rule=err.get("rule")), lang))


if n == 0:
    _illegal(hr.error)
    st.stop()
url_state.seed("seat", url_state.int_in(0, 3))
seat_for_turns = top[2].selectbox(t("turn_seat", lang), range(4), key="seat", help=t("turn_seat_help", lang),
                                  format_func=lambda s: f"{s}: {players[s]}")

last = n - 1
url_state.seed("step", int)
if "step" in st.session_state:
    step_now = st.session_state.step
    if not isinstance(step_now, int) or not 0 <= step_now <= last:
        st.session_state.step = max(0, min(last, step_now if isinstance(step_now, int) else 0))


def _cur() -> int:
    return int(st.session_state.get("step", 0))


if st.session_state.pop("_advance", False) and _cur() < last:
    st.session_state.step = _cur() + 1  # autoplay's next frame (set after the slider ran last time)
if (_asked := loss_graph.pending_step()) is not None:  # a click on the loss graph
    st.session_state.step = max(0, min(last, int(_asked)))

turn_starts = [tn.start for tn in rp.turns(int(hand_no)) if tn.seat == seat_for_turns]


def _go(i: int) -> None:
    st.session_state.step = max(0, min(last, i))


def _prev_turn() -> None:
    cur = _cur()
    _go(max((s for s in turn_starts if s < cur), default=cur))


def _next_turn() -> None:
    cur = _cur()
    _go(min((s for s in turn_starts if s > cur), default=cur))


_mistakes = rv.mistake_steps(str(game), int(hand_no))  # the move review's marks (istaka analyze)
# keys: one small browser component counting every press (none lost during a rerun)
replay_keys.keys(str(game), int(hand_no), _cur(), last, turn_starts, _mistakes, _go)

step = min(_cur(), last)
cur_step = steps[step]
state = cur_step.state
before = rp.totals_before(int(hand_no))
# laid out for a laptop: the board at the top of the first screen, compact controls
# above it, the move list beside it (the table shrinks to its column, never under the list)
board, side = st.columns([3.3, 1.2], gap="small")
pov = False  # one player's view: the turn seat's, the other racks hidden; kept in the URL
if viewer is None:
    with side:
        pov = st.toggle(rt("pov_toggle", lang), key="pov", bind="query-params", help=rt("pov_help", lang))
    if pov:
        viewer = int(seat_for_turns)
        with board:
            st.caption(md_text(rt("pov_note", lang, name=players[viewer])))
with board:
    with st.container(horizontal=True, gap="small", key="rp_nav"):
        st.button(t("first", lang), key="b_first", icon=":material/first_page:", on_click=_go, args=(0,),
                  help=t("key_home", lang))
        st.button(t("prev", lang), key="b_prev", icon=":material/chevron_left:", on_click=lambda: _go(_cur() - 1),
                  help=t("key_left", lang))
        st.button(t("next", lang), key="b_next", icon=":material/chevron_right:", on_click=lambda: _go(_cur() + 1),
                  help=t("key_right", lang))
        st.button(t("last", lang), key="b_last", icon=":material/last_page:", on_click=_go, args=(last,),
                  help=t("key_end", lang))
        st.button(t("prev_turn", lang), key="b_pturn", icon=":material/keyboard_double_arrow_left:",
                  on_click=_prev_turn, help=t("key_pgup", lang))
        st.button(t("next_turn", lang), key="b_nturn", icon=":material/keyboard_double_arrow_right:",
                  on_click=_next_turn, help=t("key_pgdn", lang))
    label = t("step_label", lang, i=step, n=last)
    who = cur_step.event.get("seat")
    what = (player_view.describe_as(viewer, describe) if pov and viewer is not None else describe)(
        cur_step.event, players, lang)
    st.markdown(f'<div data-testid="ist-step" data-step="{step}"><b>{esc(label)}</b> — '
                f'{esc(players[who]) + ": " if isinstance(who, int) and 0 <= who < 4 else ""}{esc(what)}</div>',
                unsafe_allow_html=True)
    marks = None
    if pov and viewer is not None:  # one player's view: nothing of the hidden racks, no marks from the review
        st.markdown(player_view.board_html(steps, step, players, lang, viewer, totals=running_totals(state, before)),
                    unsafe_allow_html=True)
    else:
        marks = board_marks.replay_marks(str(game), int(hand_no), step)  # played / better / lay-off / fed
        st.markdown(table_html(state, players, lang, totals=running_totals(state, before), marks=marks),
                    unsafe_allow_html=True)
    st.slider(t("step", lang), 0, max(last, 1), key="step", disabled=last == 0, label_visibility="collapsed")
    st.caption(t("keys_help", lang) + (f" · {gw('mk_legend', lang)}" if marks else ""))
    retry.replay_button(rp, str(game), int(hand_no), step, state, viewer, lang)  # practice?retry=…
    th_slot = st.container()  # what they hold: drawn here, read last (the rest of the page first)
url_state.keep(game=game, hand=int(hand_no), step=step, seat=int(seat_for_turns))
with board:
    if game_rules_ is not None and game_rules_.esli:  # G4: the teams' totals as they stand
        st.markdown(link_rules(f"**{game_rules.t('teams_title', lang)}:** "
                               + game_rules.teams_text(running_totals(state, before), players, lang), lang))
    if hr.error and step == last:
        _illegal(hr.error)
    if step == last and not state.over and hr.result in ("invalid", "unfinished"):  # what the hand scores
        st.markdown("".join(f"- {x}\n" for x in game_rules.score_explanation(state, players, lang, hr.result)))
    if state.over:
        st.subheader(t("hand_end", lang))
        res = state.result or hr.result
        if res == "finish" and state.finisher is not None:
            st.markdown(f"**{md_text(t('result_finish', lang, name=players[state.finisher]))}**")
        else:
            st.markdown(f"**{link_rules(esc(t('result_' + str(res), lang)), lang)}**")
        for line in finish_explanation(state.rules, state, lang):
            st.markdown(f"- {link_rules(esc(line), lang)}")
        st.dataframe(pd.DataFrame(score_rows(state, players, before, lang)), hide_index=True)
        st.markdown(f"**{game_rules.t('score_explained', lang)}**")
        st.markdown("".join(f"- {x}\n" for x in game_rules.score_explanation(state, players, lang, hr.result)))
    loss_graph.replay_chart(str(game), int(hand_no), step, players, lang)  # a click goes to that step
    with st.expander(wt("wp_chart_title", lang)):  # the whole game, the hand on the board marked
        winprob_view.section(rp.result, players, lang, key="wp_replay",
                             at_done=winprob_view.done_before(rp.result, int(hand_no)))
    with st.expander(lw("lk_title", lang)):  # the hand's score: deal, luck, decisions' cost, noise
        luck_view.section(str(game), rp.hand_index(int(hand_no)), int(seat_for_turns) if viewer is None else viewer,
                          players, lang, key="lk_replay")

with side:
    with st.container(horizontal=True, gap="small", key="rp_side_nav"):
        st.button(rv.t("next_mistake", lang), key="b_nmistake", icon=":material/flag:", disabled=not _mistakes,
                  on_click=lambda: _go(min((s for s in _mistakes if s > _cur()), default=_cur())))
        autoplay = st.toggle(t("autoplay", lang), key="autoplay")
    study_view.add_control(str(game), int(hand_no), step, int(seat_for_turns), players, lang)  # studies
    st.markdown(f"**{esc(t('moves', lang))}**")
    moves = rp.moves(int(hand_no), lang, describe)
    if pov and viewer is not None:  # the other seats' draws unnamed
        moves = player_view.moves(moves, steps, players, lang, viewer, describe)
    # a window around the current move, so that it is always in sight without scrolling; every row
    # is one button (the whole row is clickable and its text wraps instead of being cut)
    lo = max(0, min(step - 6, len(moves) - 18))
    view = moves.iloc[lo: lo + 18]
    warn = rv.marks(str(game), int(hand_no), lo, len(view))
    noted = notes_view.move_marks(str(game), int(hand_no), lo, len(view))  # a coach's marks
    st.caption(t("moves_click", lang))
    with st.container(key="moves", gap=None):
        for j, (i, who_, what_) in enumerate(zip(view["#"], view[""], view[" "])):
            label = f"{warn[j]} {i} · {who_ + ': ' if who_ else ''}{what_}{noted[j]}".strip()
            st.button(md_plain(label), key=f"mv_{i}", on_click=_go, args=(int(i),), width="stretch",
                      type="primary" if i == step else "tertiary")
    notes_view.replay_panel(str(game), int(hand_no), step, lang)  # the step's note, and its editor for a writer

# ---- per-turn suggestion --------------------------------------------------------------------
turn = rp.turn_at(int(hand_no), step)
st.subheader(t("suggestions", lang))
eval_note = None  # the evaluator's first choice, written under the solver's comparison
if turn is not None and not (state.over and turn.end < step):
    # what the move review found in this turn (a Review link lands here)
    for _, m in rv.hand_mistakes(str(game), int(hand_no)).iterrows():
        if int(m["seat"]) == turn.seat and turn.start <= int(m["step"]) <= turn.end and viewer in (None, turn.seat):
            words = dict(sev=f'{rv.SEV_ICON[str(m["severity"])]} {rv.severity(str(m["severity"]), lang)}',
                         cat=rv.category(str(m["category"]), lang), cost=int(m["cost"]),
                         why=rv.definition(str(m["category"]), lang))
            if not rv.screened(str(game)):
                st.warning(link_rules(md_text(t("review_says", lang, **words)), lang), icon=":material/flag:")
                continue
            # the quick review is a screen: where the verdict on the same decision disagrees, it gives way
            kind = CATEGORY_KIND.get(str(m["category"]))
            verdict = next((r for r in deep_data.verdict_at(str(game), rp.hand_index(int(hand_no)) + 1, int(m["step"]),
                                                            lang) if r["kind"] == kind), None)
            if verdict is not None and verdict["cost"] <= 0:
                st.info(md_text(t("screen_gives_way", lang, cat=words["cat"], lesson=verdict["lesson"])),
                        icon=":material/filter_alt:")
            else:
                st.warning(link_rules(md_text(t("review_says_screen", lang, **words)), lang), icon=":material/flag:")
if turn is None or state.over and turn.end < step:
    st.caption(t("none", lang))
elif viewer is not None and turn.seat != viewer:  # a hidden rack: nothing to suggest from
    st.caption(md_text(sv("hidden_turn", lang, name=players[turn.seat], viewer=players[viewer])))
else:
    start_state = steps[turn.start].state
    seat = turn.seat
    sol = suggest.solve(str(game), int(hand_no), turn.start, start_state, seat)
    if sol is None:
        st.caption(t("solver_missing", lang))
    else:
        left, right = st.columns(2)
        with left:
            st.markdown(f"**{md_text(t('suggest_for', lang, name=players[seat]))}**")
            st.markdown(suggestion_html(sol, start_state, seat, lang), unsafe_allow_html=True)
        with right:
            st.markdown(f"**{esc(t('played', lang))}**")
            evs = [s.event for s in steps[turn.start + 1: turn.end + 1]]
            for e in evs:
                st.markdown(f"- {md_text(describe(e, players, lang))}")
            done = steps[turn.end].state
            did = played(start_state, steps[max(turn.end - 1, turn.start)].state, seat, evs)
            st.markdown(f"**{esc(t('cost', lang))}**")
            for line in compare(sol, start_state, did, seat, lang):
                st.markdown(f"- {md_text(line)}")
            eval_note = st.empty()
            _ = done

if turn is not None and not state.over and (viewer is None or turn.seat == viewer):  # the seat's own view
    ch = rv.chance(str(game), int(hand_no), turn.start, steps[turn.start].state, turn.seat)
    if ch is not None and ch.get("now"):
        st.markdown(f"**{md_text(rv.t('chance_now', lang, name=players[turn.seat]))}**")
    elif ch is not None:
        st.markdown(f"**{md_text(rv.t('chance', lang, name=players[turn.seat]))}**")
        st.markdown("".join(f"- {md_text(x)}\n" for x in rv.chance_lines(ch, lang)))

# the evaluator's top three for the seat to move: the stored deep review's, else evaluated now
# On the discard that ends a turn the next seat is to move; the panel stays with the turn's own
# seat and decision, as the Suggestions above do (they once spoke of different seats).
at = turn.start if turn is not None and not state.over and state.turn != turn.seat else step
top_pick = None
if viewer is None or steps[at].state.turn == viewer:  # a seat view: only the viewer's decisions
    top_pick = deep_view.replay_panel(str(game), rp.hand_index(int(hand_no)) + 1, at, steps[at].state, players,
                                      lang, [s.event for s in steps[at + 1: at + 13]])
if eval_note is not None and top_pick and top_pick.get("expected") is not None:  # a forced one has none
    eval_note.markdown(f"- {md_text(t('cmp_eval_first', lang, move=top_pick['move'], e=float(top_pick['expected'])))}")

# what the other seats likely hold, read from one seat's view (the viewer's, else the seat picked above)
with th_slot:
    table_view.replay_section(str(game), int(hand_no), step, int(viewer if viewer is not None else seat_for_turns),
                              players, state.okey, lang, x5=table_view.charges_x5(state.rules),
                              log_view=rp.result.view)

if autoplay and step < last:
    time.sleep(0.9)
    st.session_state._advance = True
    st.rerun()

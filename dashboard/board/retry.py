"""Retry this position: a seat's decision at one replay step, what was played hidden, the
table as that seat saw it. The user draws or takes, places (an opening or lay-offs chosen from the
evaluator's candidates, narrowed by the tiles picked on the rack) or discards; the evaluator
(:func:`analysis.review.deep.judge_spot`: the deep review's own verdict on the same decision, the try in
place of the play) judges each try in expected points against the best. After a miss comes a hint, never the answer;
after :data:`MAX_TRIES` misses, or on request, the answer.

A position is written ``GAME/HAND/STEP/SEAT`` (``practice?retry=…`` opens it); the Replay's
button (:func:`replay_button`) and the Practice page (its player's costliest positions) both draw
it with :func:`panel`. Strings are in :mod:`dashboard.words.retry_words`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from analysis.evaluate import candidates
from analysis.game import HandState, Tile, apply
from analysis.players import View
from analysis.review.deep import grade_decision, judge_spot
from analysis.review.spots import Spot as ReviewSpot
from analysis.review.spots import seat_knows, seed_game, spot_at, spot_seed
from analysis.review.kinds import declare_candidates, held_back, okey_kept
from analysis.review.lesson import describe as move_words
from analysis.review.reasons import reason_text

from dashboard.state import data, deep_data
from dashboard.board.deep_view import line_html
from dashboard.words.retry_words import t
from dashboard.board.tiles_view import esc, md_text, table_html, tile_html, tile_key, tile_label

MAX_TRIES = 3  # misses before the answer is shown
LIST_MAX = 12  # placings listed at once (picking tiles narrows the list)
_STATE = "_rt_state"  # {position key: {"tries": [...], "revealed": bool}}


@dataclass(frozen=True, slots=True)
class Spot:
    """One seat's decision: game, hand number (as the Replay's ``hand``), step, seat."""

    game: str
    hand: int
    step: int
    seat: int

    @property
    def key(self) -> str:
        return f"{self.game}/{self.hand}/{self.step}/{self.seat}"


def parse(text: str) -> Spot:
    """``GAME/HAND/STEP/SEAT`` (a game id may hold slashes: the last three parts are numbers)."""
    parts = str(text).strip().rsplit("/", 3)
    if len(parts) != 4 or not parts[0]:
        raise ValueError(text)
    try:
        hand, step, seat = (int(x) for x in parts[1:])
    except ValueError:
        raise ValueError(text) from None
    if hand < 0 or step < 0 or not 0 <= seat < 4:
        raise ValueError(text)
    return Spot(parts[0], hand, step, seat)


def kinds_at(state: HandState) -> list[str]:
    """The decisions the seat to move faces here: draw or take; or place (an opening, lay-offs,
    waiting) and discard; or, once it has placed, the discard."""
    if state.over:
        return []
    if state.phase == "draw":
        return ["take"]
    return ["place", "discard"] if state.turn_base is None else ["discard"]


def problem(rp: data.Replay | None, spot: Spot, lang: str) -> str | None:
    """Why ``spot`` cannot be retried, in one line (None: it can)."""
    if rp is None:
        return t("rt_no_game", lang, game=spot.game)
    hr = rp.hand(spot.hand)
    if hr is None:
        return t("rt_no_hand", lang, game=spot.game, hand=spot.hand)
    if not 0 <= spot.step < len(hr.steps):
        return t("rt_no_step", lang, hand=spot.hand, step=spot.step, last=max(0, len(hr.steps) - 1))
    state = hr.steps[spot.step].state
    if state.over:
        return t("rt_over", lang, step=spot.step)
    if state.turn != spot.seat:
        return t("rt_not_turn", lang, step=spot.step, seat=spot.seat, turn=state.turn)
    view = rp.result.view
    if view is not None and view != spot.seat:
        return t("rt_hidden_seat", lang, seat=spot.seat)
    return None


# ---- the evaluator ------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=512)
def _judge(key: str, kind: str, events: str, v: int, worlds: int, _rp: data.Replay) -> dict[str, Any] | None:
    spot = parse(key)
    hr = _rp.hand(spot.hand)
    assert hr is not None
    game = seed_game(_rp.result)
    tried = json.loads(events)
    here = spot_at(hr, spot.step, kind, spot.seat)
    if here is not None:  # the deep review's own decision: its verdict, the try in place of the play
        c = judge_spot(game, hr, here, events=tried, worlds=deep_data.DEEP_WORLDS)
    else:  # a decision the log's play never reached (a discard after a placing it did not make)
        own = ReviewSpot(kind, spot.step, spot.seat, (), 0)
        c = grade_decision(hr.steps[spot.step].state, spot.seat, kind, tried, seed=spot_seed(game, hr.hand, own),
                           known=seat_knows(hr.steps, spot.step, spot.seat), step=spot.step,
                           worlds=deep_data.DEEP_WORLDS)
    if c is None:
        return None
    return {"forced": c.forced, "expected": float(c.expected_played), "best_expected": float(c.expected_best),
            "cost": float(c.cost), "diff": float(c.expected_played - c.expected_best), "ci": float(c.ci or 0.0),
            "worlds": int(c.worlds), "best": c.best, "best_events": [dict(e) for e in c.best_events],
            "reason": c.reason, "right": c.forced is None and c.cost == 0,
            "rows": [{"label": r.get("move"), "expected": r.get("expected"), "events": list(r.get("events") or []),
                      "played": bool(r.get("played"))} for r in c.candidates]}


def judge(rp: data.Replay, spot: Spot, kind: str, events: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """One try judged as the deep review judges the same decision (analysis.review.deep.judge_spot: its
    candidates, worlds, seed and what the seat knows of the other racks), the try in place of what
    was played: {"expected", "best_expected", "diff", "ci", "cost", "right", "best_events", "reason", "rows"}."""
    return _judge(spot.key, kind, json.dumps(list(events), sort_keys=True), data.version(), deep_data.DEEP_WORLDS, rp)


@st.cache_data(show_spinner=False, max_entries=128)
def _placings(key: str, v: int, _state: HandState) -> list[dict[str, Any]]:
    seat = parse(key).seat
    view = View.of(_state, seat)
    cands = candidates(view, "place")
    cands += held_back(view, cands) + okey_kept(view, cands) + declare_candidates(view, cands)
    out = []
    before = Counter(str(x) for x in _state.racks[seat])
    for c in cands:
        after = _state
        try:
            for e in c.events:
                after = apply(after, dict(e))
        except ValueError:
            continue
        used = before - Counter(str(x) for x in after.racks[seat])
        out.append({"label": c.label, "events": [dict(e) for e in c.events], "uses": dict(used)})
    return out


def placings(rp: data.Replay, spot: Spot) -> list[dict[str, Any]]:
    """The evaluator's placing candidates here (openings, lay-offs, waiting; as the deep review
    grades them), each with the rack tiles it uses."""
    hr = rp.hand(spot.hand)
    assert hr is not None
    return _placings(spot.key, data.version(), hr.steps[spot.step].state)


# ---- the page ------------------------------------------------------------------------------------


def _store(spot: Spot) -> dict[str, Any]:
    return st.session_state.setdefault(_STATE, {}).setdefault(spot.key, {"tries": [], "revealed": False})


def _pick_key(scope: str) -> str:
    return f"{scope}_pick"


def _pick(scope: str, spot: Spot) -> list[int]:
    cur = st.session_state.get(_pick_key(scope))
    if not isinstance(cur, dict) or cur.get("key") != spot.key:
        cur = {"key": spot.key, "pick": []}
        st.session_state[_pick_key(scope)] = cur
    return list(cur["pick"])


def _toggle(scope: str, spot: Spot, i: int) -> None:
    cur = _pick(scope, spot)
    if i in cur:
        cur.remove(i)
    else:
        cur.append(i)
    st.session_state[_pick_key(scope)] = {"key": spot.key, "pick": cur}


def _clear(scope: str, spot: Spot) -> None:
    st.session_state[_pick_key(scope)] = {"key": spot.key, "pick": []}


def _ask(scope: str, kind: str, events: Sequence[dict[str, Any]]) -> None:
    st.session_state[f"{scope}_asked"] = (kind, [dict(e) for e in events])


def _restart(spot: Spot, scope: str) -> None:
    st.session_state.setdefault(_STATE, {})[spot.key] = {"tries": [], "revealed": False}
    _clear(scope, spot)


def _reveal(spot: Spot) -> None:
    _store(spot)["revealed"] = True


def _hint(res: dict[str, Any], kind: str, lang: str) -> str:
    reason = res.get("reason") or {}
    why = reason_text(reason.get("code"), {k: v for k, v in reason.items() if k != "code"}, lang)
    if why:
        return t("rt_hint", lang, hint=t("rt_hint_reason", lang, why=why))
    return t("rt_hint", lang, hint=t(f"rt_hint_{kind}", lang))


def _num(x: float) -> str:
    return f"{float(x):.1f}"


def outcome(spot: Spot) -> dict[str, Any] | None:
    """How this session's retry of ``spot`` ended: {"right": bool (the first try), "cost": the
    first try's cost in expected points}; None while it goes on."""
    s = st.session_state.get(_STATE, {}).get(spot.key)
    if not s or not s["tries"]:
        return None
    done = s["revealed"] or any(x["res"]["right"] for x in s["tries"]) or len(s["tries"]) >= MAX_TRIES
    if not done:
        return None
    first = s["tries"][0]["res"]
    return {"right": bool(first["right"]), "cost": float(first["cost"])}


def panel(rp: data.Replay, spot: Spot, lang: str, *, scope: str = "rt") -> dict[str, Any] | None:
    """Draw the retry of ``spot`` (checked by :func:`problem` first); returns :func:`outcome`."""
    hr = rp.hand(spot.hand)
    assert hr is not None
    steps = hr.steps
    state = steps[spot.step].state
    seat = spot.seat
    players = list(rp.players)
    okey = state.okey
    memo = _store(spot)
    asked = st.session_state.pop(f"{scope}_asked", None)
    if asked is not None and not memo["revealed"] and not any(x["res"]["right"] for x in memo["tries"]) \
            and len(memo["tries"]) < MAX_TRIES:
        kind, events = asked
        with st.spinner(t("rt_judging", lang)):
            res = judge(rp, spot, kind, events)
        if res is None:
            st.warning(md_text(t("rt_not_candidate", lang, move=move_words(events, "played", lang))))
        else:
            memo["tries"].append({"kind": kind, "events": events, "res": res})
            _clear(scope, spot)
    tries = memo["tries"]
    solved = any(x["res"]["right"] for x in tries)
    done = solved or memo["revealed"] or len(tries) >= MAX_TRIES or any(x["res"]["forced"] for x in tries)

    st.subheader(md_text(t("rt_title", lang, name=players[seat])))
    st.caption(md_text(t("rt_where", lang, game=spot.game, hand=spot.hand, step=spot.step, name=players[seat])))
    known = seat_knows(steps, spot.step, seat)
    st.markdown(f'<div data-testid="rt-board">{table_html(state, players, lang, viewer=seat, known=known)}</div>',
                unsafe_allow_html=True)

    for j, x in enumerate(tries):  # every try so far, judged
        res = x["res"]
        move = move_words(x["events"], "played", lang)
        if res["forced"]:
            st.info(md_text(t("rt_forced", lang, move=move)))
        elif res["right"]:
            st.success(md_text(t("rt_right", lang, move=move, e=_num(res["expected"]), b=_num(res["best_expected"]),
                                 d=_num(res["diff"]), ci=_num(res["ci"]), w=res["worlds"])))
        else:
            st.warning(md_text(t("rt_wrong", lang, move=move, e=_num(res["expected"]), d=_num(res["diff"]),
                                 ci=_num(res["ci"]), w=res["worlds"])))
            if not done and j == len(tries) - 1:
                st.markdown(f'<div data-testid="rt-hint">{esc(_hint(res, x["kind"], lang))}</div>',
                            unsafe_allow_html=True)
    if done:
        _answer(rp, spot, state, tries, lang, scope)
        return outcome(spot)
    if tries:
        st.caption(t("rt_tries_left", lang, n=MAX_TRIES - len(tries)))
    kinds = kinds_at(state)
    if kinds == ["take"]:
        _take_choice(state, seat, lang, scope)
    else:
        _play_choice(rp, spot, state, kinds, players, okey, lang, scope)
    if tries:
        st.button(t("rt_reveal", lang), key=f"{scope}_reveal", on_click=_reveal, args=(spot,),
                  icon=":material/visibility:")
    return None


def _take_choice(state: HandState, seat: int, lang: str, scope: str) -> None:
    st.markdown(f"**{esc(t('rt_task_take', lang))}**")
    view = View.of(state, seat)
    took = view.takeable()
    okey = state.okey
    with st.container(horizontal=True, gap="medium", key=f"{scope}_takes"):
        with st.container(gap="small", width="content"):
            st.markdown(f'<div class="ist-plain"><div class="lbl">{esc(t("rt_deck", lang))}</div>'
                        f'<span class="ist-tile back"></span> <b>{state.deck_count}</b></div>', unsafe_allow_html=True)
            st.button(t("rt_draw", lang), key=f"{scope}_draw", on_click=_ask,
                      args=(scope, "take", [{"type": "draw", "seat": seat}]), icon=":material/download:")
        if took is not None:
            with st.container(gap="small", width="content"):
                st.markdown(f'<div class="ist-plain" data-testid="rt-takeable"><div class="lbl">'
                            f'{esc(t("rt_discard_pile", lang))}</div>{tile_html(took, okey)}</div>',
                            unsafe_allow_html=True)
                st.button(t("rt_take", lang), key=f"{scope}_take", on_click=_ask,
                          args=(scope, "take", [{"type": "take", "seat": seat, "tile": str(took)}]),
                          icon=":material/back_hand:")


def _play_choice(rp: data.Replay, spot: Spot, state: HandState, kinds: list[str], players: list[str], okey: Tile,
                 lang: str, scope: str) -> None:
    seat = spot.seat
    allp = placings(rp, spot) if "place" in kinds else []
    if len(allp) < 2:  # one placing only (waiting, placing nothing): the decision is the discard
        kinds = ["discard"]
    st.markdown(f"**{esc(t('rt_task_play' if 'place' in kinds else 'rt_task_discard', lang))}**")
    rack = list(state.racks[seat])
    order = sorted(range(len(rack)), key=lambda i: (4, 0) if rack[i].is_joker else ("RYBK".index(rack[i].colour),
                                                                                   rack[i].number))
    pick = _pick(scope, spot)
    st.caption(md_text(t("rt_rack", lang, name=players[seat])))
    with st.container(horizontal=True, gap=None, key=f"tilerack-{scope}"):
        for i in order:
            tile = rack[i]
            st.button(tile_label(tile), key=tile_key(tile, okey, scope, i), on_click=_toggle, args=(scope, spot, i),
                      type="primary" if i in pick else "secondary", help=str(tile))
    picked = [rack[i] for i in pick]
    with st.container(horizontal=True, gap="small"):
        st.button(t("rt_discard_it", lang), key=f"{scope}_discard", type="primary", disabled=len(picked) != 1,
                  on_click=_ask, args=(scope, "discard", [{"type": "discard", "seat": seat, "tile": str(picked[0])}]
                                       if len(picked) == 1 else []), icon=":material/south:")
        st.button(t("rt_clear", lang), key=f"{scope}_clear", on_click=_clear, args=(scope, spot),
                  disabled=not picked)
    if "place" not in kinds:
        if len(picked) != 1:
            st.caption(t("rt_single_tile", lang))
        return
    want = Counter(str(x) for x in picked)
    fits = [p for p in allp if not want - Counter(p["uses"])]
    st.markdown(f"**{esc(t('rt_places', lang))}**")
    if picked:
        st.caption(t("rt_places_with", lang, n=len(fits)) if fits else t("rt_places_none", lang))
    for j, p in enumerate(fits[:LIST_MAX]):
        with st.container(border=True, key=f"{scope}_place_{j}"):
            st.markdown(line_html(p["events"], state, seat, players, lang), unsafe_allow_html=True)
            st.button(t("rt_play_this", lang), key=f"{scope}_play_{j}", on_click=_ask,
                      args=(scope, "place", p["events"]), icon=":material/check:")
    if len(fits) > LIST_MAX:
        st.caption(t("rt_places_more", lang, n=len(fits) - LIST_MAX))


def _answer(rp: data.Replay, spot: Spot, state: HandState, tries: list[dict[str, Any]], lang: str,
            scope: str) -> None:
    """The evaluator's best move drawn as tiles, the tries and the best candidates in points, and
    what the game played."""
    last = tries[-1]["res"] if tries else None
    players = list(rp.players)
    if last is not None and not last["forced"]:
        best_words = move_words(last["best_events"], last["best"], lang)
        st.markdown(f"**{esc(t('rt_answer', lang))}**")
        st.markdown(f'<div data-testid="rt-answer">{esc(t("rt_best_exact", lang, move=best_words, e=_num(last["best_expected"]), w=last["worlds"]))}</div>',
                    unsafe_allow_html=True)
        st.markdown(line_html(last["best_events"], state, spot.seat, players, lang), unsafe_allow_html=True)
        rows = []
        for j, x in enumerate(tries):
            r = x["res"]
            rows.append({t("rt_col_try", lang): str(j + 1), t("rt_col_move", lang): move_words(x["events"], "played", lang),
                         t("rt_col_expected", lang): round(r["expected"], 1), t("rt_col_cost", lang): round(r["cost"], 1)})
        seen = {json.dumps(x["events"], sort_keys=True) for x in tries}
        for r in last["rows"]:
            if r["expected"] is None or json.dumps(r["events"], sort_keys=True) in seen:
                continue
            rows.append({t("rt_col_try", lang): "", t("rt_col_move", lang): move_words(r["events"], str(r["label"]), lang),
                         t("rt_col_expected", lang): round(float(r["expected"]), 1),
                         t("rt_col_cost", lang): round(max(0.0, float(r["expected"]) - last["best_expected"]), 1)})
        st.markdown(f"**{esc(t('rt_answer_rows', lang))}**")
        st.dataframe(pd.DataFrame(rows), hide_index=True, key=f"{scope}_rows")
    hr = rp.hand(spot.hand)
    assert hr is not None
    nxt = hr.steps[spot.step + 1].event if spot.step + 1 < len(hr.steps) else None
    if nxt is not None and nxt.get("seat") == spot.seat:
        from dashboard.board.replay_view import describe

        st.caption(md_text(t("rt_played", lang, move=describe(nxt, players, lang))))
    st.button(t("rt_again", lang), key=f"{scope}_again", on_click=_restart, args=(spot, scope),
              icon=":material/replay:")


def replay_button(rp: data.Replay, game: str, hand: int, step: int, state: HandState, viewer: int | None,
                  lang: str) -> None:
    """The Replay's "Retry this position" button (for the seat to move at this step; in a
    seat-view log or one player's view only that player's): opens ``practice?retry=…``."""
    if state.over or (viewer is not None and state.turn != viewer):
        return
    spot = Spot(game, hand, step, state.turn)
    if problem(rp, spot, lang) is not None:
        return
    if st.button(t("rt_button", lang), key="b_retry", icon=":material/replay:", help=t("rt_button_help", lang)):
        st.switch_page(data.PAGE_REF.get("practice", "views/practice.py"),
                       query_params={"retry": spot.key, "lang": lang})


__all__ = ["MAX_TRIES", "Spot", "judge", "kinds_at", "outcome", "panel", "parse", "placings", "problem",
           "replay_button"]

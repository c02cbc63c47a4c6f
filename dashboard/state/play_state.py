"""The Play page's session state and its taps: a person's move applied to the stored game in a
callback, refused in one line (what and which rule) with the game unchanged.

A tap carries the step it was drawn at (the hand and the events so far): a double tap, or a tap
from a page still showing the turn before (a slow server), no longer matches the game and is
refused, so it can never become a move the person did not see. The widgets of a turn get new
keys at each step for the same reason (:func:`step_key`).

With training on, a person's decision (a draw or take, a placing, a discard) is held before it is
applied: the page judges it (:func:`judge_pending`, under a spinner) with the hints' judge, applies
it at once when it is not a large mistake, and otherwise keeps it aside with a warning
(:func:`guard_for`) until the person plays it anyway (:func:`confirm`) or takes it back
(:func:`take_back`); the game is unchanged until then."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analysis.game import Tile, apply
from analysis.game.record import RecordError, parse_groups
from analysis.selfplay import PlayGame
from analysis.selfplay.person import charged_discard, layoff_wilds, with_wilds
from dashboard.state import play_games, play_hints
from dashboard.words.play_words import t
from dashboard.words.rule_links import link_rules
from dashboard.words.text import md_text

MSG = "_play_msg"
PAUSE_KEY = "pl_pause_in"
TRAIN_KEY = "pl_train_in"
SORT_KEY = "pl_sort_in"
STEP_KEYS = ("pl_mode", "pl_build", "pl_on")  # the turn's widgets, new at each step
JUDGE = "_pl_judge"  # a move waiting to be judged: (game, step, event)
GUARD = "_pl_guard"  # a move held after a warning: (game, step, event, mistakes)
Step = tuple[int, int]


def lang() -> str:
    return str(st.session_state.get("lang", "tr"))


def say(kind: str, text: str) -> None:
    st.session_state[MSG] = (kind, text)


def play_said() -> tuple[str, str] | None:
    return st.session_state.pop(MSG, None)


def step_of(g: PlayGame) -> Step:
    return g.hand, len(g.events)


def step_key(name: str, g: PlayGame) -> str:
    """The key of the turn's widget ``name`` at the game's present step: a tap sent from a page
    showing an earlier step names a widget that is gone, and is dropped."""
    return f"{name}~{g.hand}.{len(g.events)}"


def forget_old_steps(g: PlayGame) -> None:
    """Drop the widget values of earlier steps (a build text must not come back)."""
    now = {step_key(n, g) for n in STEP_KEYS}
    for key in [k for k in st.session_state if str(k).startswith(tuple(f"{n}~" for n in STEP_KEYS))]:
        if key not in now:
            del st.session_state[key]


def _refuse(e: RecordError) -> None:
    say("error", link_rules(md_text(t("pl_refused", lang(), msg=str(e))), lang()))


def _checked(g: PlayGame, step: Step) -> None:
    if step_of(g) != step:
        raise RecordError("this tap came from a page showing an earlier move; the board now shows the game as it is")


def act(db: str, gid: str, step: Step, event: dict[str, Any], *, guard: bool = True) -> bool:
    """A person's move (a callback): applied when the page's step is the game's; else refused.
    With training on (and ``guard``), a decision the mistake guard judges is held for the page to
    judge first (:func:`judge_pending`): False, nothing applied yet."""
    st.session_state.pop(GUARD, None)  # any other tap drops a move held after a warning
    if guard and st.session_state.get(TRAIN_KEY) and event.get("type") in play_hints.GUARDED:
        st.session_state[JUDGE] = (gid, step, dict(event))
        return False
    st.session_state.pop(JUDGE, None)
    return _apply(db, gid, step, event)


def _apply(db: str, gid: str, step: Step, event: dict[str, Any]) -> bool:
    def go(g: PlayGame) -> None:
        _checked(g, step)
        g.person(event)

    try:
        if play_games.change(db, gid, go) is None and play_games.load(db, gid) is None:
            say("warning", t("pl_no_game", lang(), id=gid))
            return False
    except RecordError as e:
        _refuse(e)
        return False
    return True


def discard(db: str, gid: str, step: Step, seat: int, tile: str) -> None:
    """A rack tile tapped in discard mode; with training on, a charged discard (X3, X4) is
    warned about first and goes on the second tap."""
    st.session_state.pop(GUARD, None)  # a tile tapped drops a move held after a warning
    g = play_games.load(db, gid)
    if g is None:
        return
    s = g.state()
    if st.session_state.get(TRAIN_KEY) and s is not None and step_of(g) == step:
        try:
            rule = charged_discard(s, seat, Tile.parse(tile))
        except ValueError:
            rule = None
        if rule is not None and st.session_state.get("_pl_warned") != (step, tile):
            st.session_state["_pl_warned"] = (step, tile)
            say("warning", link_rules(md_text(t("pl_warn", lang(), tile=tile, rule=rule,
                                                  points=s.rules.penalty_unit)), lang()))
            return
    # a charged discard warned about and tapped again is confirmed: not held a second time
    warned = st.session_state.pop("_pl_warned", None) == (step, tile)
    act(db, gid, step, {"type": "discard", "seat": seat, "tile": tile}, guard=not warned)


def pending_judge(gid: str) -> bool:
    """Is a move of this game waiting to be judged (the page shows a spinner while it is)?"""
    p = st.session_state.get(JUDGE)
    return p is not None and p[0] == gid


def _legal(g: PlayGame, seat: int, event: dict[str, Any]) -> bool:
    """Would the engine take the move (else it is not judged: the tap is refused as it is)?"""
    s = g.state()
    if s is None or s.over or s.turn != seat or not g.is_person(seat):
        return False
    if event.get("type") == "draw":
        return s.phase == "draw" and bool(s.deck)
    try:
        apply(s, dict(event))
    except (ValueError, KeyError, TypeError):
        return False
    return True


def judge_pending(db: str, gid: str) -> None:
    """The move held by :func:`act`, judged by the hints' judge
    (:func:`dashboard.state.play_hints.large_mistakes`): a large mistake is kept aside with its
    warning and the game marked hinted (the warning told the person something); any other move
    is applied at once."""
    p = st.session_state.pop(JUDGE, None)
    if p is None or p[0] != gid:
        return
    _, step, event = p
    g = play_games.load(db, gid)
    if g is None:
        return
    found: list[play_hints.Mistake] = []
    seat = event.get("seat")
    if step_of(g) == step and isinstance(seat, int) and _legal(g, seat, event):
        found = play_hints.large_mistakes(g, seat, event)
    if not found:
        _apply(db, gid, step, event)
        return

    def mark(x: PlayGame) -> None:
        _checked(x, step)
        x.hinted = True

    try:
        play_games.change(db, gid, mark)
    except RecordError as e:
        _refuse(e)
        return
    st.session_state[GUARD] = (gid, step, dict(event), found)


def guard_for(gid: str, step: Step) -> tuple[dict[str, Any], list[play_hints.Mistake]] | None:
    """The move held after a warning at this step (with training on), and its mistakes."""
    h = st.session_state.get(GUARD)
    if h is None or h[0] != gid or h[1] != step or not st.session_state.get(TRAIN_KEY):
        return None
    return h[2], h[3]


def confirm(db: str, gid: str, step: Step) -> None:
    """Play the held move anyway (a callback)."""
    h = st.session_state.pop(GUARD, None)
    if h is not None and h[0] == gid and h[1] == step:
        _apply(db, gid, step, h[2])


def take_back() -> None:
    """Drop the held move (a callback): the game stays as it was."""
    st.session_state.pop(GUARD, None)


def add_to_build(key: str, tile: str) -> None:
    cur = str(st.session_state.get(key, "")).rstrip()
    st.session_state[key] = (cur + " " + tile).strip()


def next_group(key: str) -> None:
    st.session_state[key] = str(st.session_state.get(key, "")).rstrip() + " |"


def clear(key: str) -> None:
    st.session_state[key] = ""


def place(db: str, gid: str, step: Step, seat: int, kind: str, field: str, key: str) -> None:
    """Open (or meld) the groups in the build text; a bare okey stands for what makes it legal."""
    try:
        g = play_games.load(db, gid)
        s = g.state() if g is not None else None
        if s is None:
            return
        groups = [with_wilds(grp, s.okey, pairs=field == "pairs")
                  for grp in parse_groups(str(st.session_state.get(key, "")))]
    except (RecordError, ValueError) as e:
        _refuse(e if isinstance(e, RecordError) else RecordError(str(e).rsplit(" [", 1)[0], "T1"))
        return
    act(db, gid, step, {"type": kind, "seat": seat, field: groups})


def layoff(db: str, gid: str, step: Step, seat: int, kind: str, key: str, on_key: str) -> None:
    try:
        g = play_games.load(db, gid)
        s = g.state() if g is not None else None
        if s is None:
            return
        meld = int(st.session_state.get(on_key) or 0)
        tiles = [x for grp in parse_groups(str(st.session_state.get(key, ""))) for x in grp]
        if kind == "layoff":
            tiles = layoff_wilds(tiles, s, meld)
    except (RecordError, ValueError) as e:
        _refuse(e if isinstance(e, RecordError) else RecordError(str(e).rsplit(" [", 1)[0], "T1"))
        return
    act(db, gid, step, {"type": kind, "seat": seat, "meld": meld, "tiles": tiles})


def ask_hint(db: str, gid: str, step: Step, seat: int) -> None:
    """The expert's best three for the decision in front of the seat, as the review will judge the
    same decision (:mod:`dashboard.state.play_hints`); the game is marked hinted."""
    def go(g: PlayGame) -> list[dict[str, Any]]:
        _checked(g, step)
        g.hinted = True
        return play_hints.best_three(g, seat)

    try:
        st.session_state["_pl_hint"] = (gid, step, play_games.change(db, gid, go) or [])
    except RecordError as e:
        _refuse(e)


def hint_for(gid: str, step: Step) -> list[dict[str, Any]] | None:
    h = st.session_state.get("_pl_hint")
    return h[2] if h is not None and h[0] == gid and h[1] == step else None


def next_hand(db: str, gid: str, step: Step) -> None:
    def go(g: PlayGame) -> None:
        _checked(g, step)
        g.next_hand()

    try:
        play_games.change(db, gid, go)
    except RecordError as e:
        _refuse(e)


__all__ = ["GUARD", "JUDGE", "MSG", "PAUSE_KEY", "SORT_KEY", "STEP_KEYS", "TRAIN_KEY", "act", "add_to_build",
           "ask_hint", "clear", "confirm", "discard", "forget_old_steps", "guard_for", "hint_for", "judge_pending",
           "lang", "layoff", "next_group", "next_hand", "pending_judge", "place", "play_said", "say", "step_key",
           "step_of", "take_back"]

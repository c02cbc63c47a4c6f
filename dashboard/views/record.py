"""Kayıt / Record: enter a game as it is played, one or two taps a turn.

The table (preset, players, your seat or "all racks"), then hand after hand: the deal (gösterge
and rack on the 4×13 picker, or typed), then each turn: the tile drawn (a tap) or "drew" / "took"
for a hidden seat, the tile discarded (a tap), an opening or lay-off built on the picker, an O10
declaration or an O7 show where the preset has them. Every entry is checked by the engine
(:class:`analysis.game.record.Recording`), a refusal shown with its rule; the recording is written
to a file at every click (``?rec=ID`` picks it up after a reload). After a hand, "next hand" deals
the next (the starter moves on) with the game's totals shown; the game (every hand played, or
stopped early) is saved to the store and reviewed, one click from Replay and Review.

Speed: everything below the table's setup is one ``st.fragment``, so a tap reruns only the board
(not the app's sidebar and navigation); the recording stays in memory between taps
(:mod:`dashboard.state.recordings`), its hand kept as the engine's states, so a tap applies one event
instead of replaying the hand, and reads no database.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import streamlit as st

from analysis.game import PRESETS, Tile
from analysis.game.log import MAX_NAME
from analysis.game.record import Recording, RecordError, parse_groups
from dashboard.state import access, data, recordings, url_state
from dashboard.words.i18n import t as tm
from dashboard.words.record_words import t
from dashboard.words.rule_links import guide_link, link_rules
from dashboard.board.picker import picker_style, tile_picker
from dashboard.board.replay_view import describe
from dashboard.board.tiles_view import esc, md_text, rack_html, table_html, tile_html

lang = data.lang()
DB = data.db_file()
st.title(t("rec_title", lang))
st.caption(guide_link("recording", lang))  # its guide on the Rules page (docs/recording*.md)
st.caption(t("rec_intro", lang))
if not access.can_write():  # read-only mode, a club reader: no recorder (its writes are refused too)
    access.read_only_note(lang)
    st.stop()
picker_style()
MSG = "_rec_msg"
SAVED = "_rec_saved"


def _say(kind: str, text: str) -> None:
    st.session_state[MSG] = (kind, text)


def _rid() -> str | None:
    rid = st.query_params.get("rec")
    return rid or None


def _rec() -> Recording | None:
    rid = _rid()
    return recordings.load(DB, rid) if rid else None


@access.writes
def _change(fn: Any, *args: Any) -> None:
    """Apply ``fn`` to the recording and store it at once; a refusal is shown with its rule."""
    rid = _rid()
    if rid is None:
        return
    try:
        if recordings.change(DB, rid, fn, *args) is None:
            _say("warning", t("rec_no_rec", lang, id=rid))
    except RecordError as e:
        _say("error", t("rec_refused", lang, msg=str(e)))


# ---- the table ---------------------------------------------------------------------------------


@access.writes
def _start() -> None:
    s = st.session_state
    view = s.get("rec_seat_in")
    view = 0 if view is None else view
    rules = {"esli": True} if s.get("rec_esli_in") else None
    rid = recordings.new_id(DB)
    rec = Recording(rid, variant=s.get("rec_preset_in", "101"), rules=rules,
                    players=[(s.get(f"rec_p{k}") or f"#{k}").strip() or f"#{k}" for k in range(4)],
                    view=None if view == "all" else int(view), starter=int(s.get("rec_starter_in") or 0))
    rec.started = datetime.now(UTC).replace(microsecond=0).isoformat()
    recordings.save(DB, rec)
    st.query_params["rec"] = rid
    s["rec_target"] = rec.view if rec.view is not None else rec.starter


rec = _rec()
if rec is None:
    asked = st.query_params.get("rec")
    if asked:
        st.warning(t("rec_no_rec", lang, id=md_text(asked)))
    c = st.columns(4)
    c[0].selectbox(t("rec_preset", lang), list(PRESETS), key="rec_preset_in")
    c[1].segmented_control(t("rec_seat", lang), [0, 1, 2, 3, "all"], key="rec_seat_in", default=0, required=True,
                           format_func=lambda x: t("rec_all", lang) if x == "all" else str(x))
    c[2].segmented_control(t("rec_starter", lang), [0, 1, 2, 3], key="rec_starter_in", default=0,
                           required=True)
    c[3].toggle(t("rec_esli", lang), key="rec_esli_in")
    p = st.columns(4)
    for k in range(4):
        p[k].text_input(t("rec_player", lang, seat=k), key=f"rec_p{k}", max_chars=MAX_NAME, value=["Ben", "Sağ", "Karşı", "Sol"][k]
                        if lang == "tr" else ["Me", "Right", "Across", "Left"][k])
    st.button(t("rec_start", lang), key="rec_start", on_click=_start, type="primary")
    open_ = recordings.in_progress(DB)
    if open_:
        st.subheader(t("rec_open", lang))
        for rid in open_[:10]:
            st.page_link(data.PAGE_REF.get("record", "views/record.py"), label=t("rec_resume", lang, id=rid),
                         query_params={"rec": rid, "lang": lang})
    st.stop()

url_state.keep(rec=rec.id)
names = rec.players


def _undo(r: Recording) -> None:
    done = r.undo()
    if done is not None:
        kind = done.get("type")
        what = (t("rec_deal", lang) if kind == "hand" else t("rec_next_hand", lang) if kind == "next_hand"
                else describe(done, names, lang))
        _say("info", t("rec_undone", lang, what=what))


def _picker(on_tap: Any, key: str = "pk", jokers: bool = True, disabled: bool = False) -> None:
    """The tile picker (dashboard.board.picker). The deal, draws and discards share one picker at
    one place on the page (greyed when a hidden seat draws), so a tap changes its buttons'
    callbacks, never the buttons: the browser keeps them."""
    tile_picker(on_tap, key, jokers=jokers, disabled=disabled)


def _totals(rec: Recording) -> None:
    """The game so far: one row per hand played, then the totals (in-game penalties included)."""
    hands = rec.finished_hands()
    if not hands:
        return
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    rows = "".join(f'<tr><td>{h.hand}</td>{"".join(f"<td>{v}</td>" for v in h.totals())}</tr>' for h in hands)
    tot = rec.totals()
    st.markdown(f'<table class="ist-plain" data-testid="rec-totals" data-hands="{len(hands)}" '
                f'data-totals="{" ".join(map(str, tot))}"><tr><th>{esc(t("rec_hand_col", lang))}</th>{head}</tr>'
                f'{rows}<tr><td><b>{esc(t("rec_total", lang))}</b></td>'
                f'{"".join(f"<td><b>{v}</b></td>" for v in tot)}</tr></table>', unsafe_allow_html=True)


def _quick(r: Recording) -> tuple[str, int]:
    """The recording's id and its events in all (the same across "next hand", as its log is)."""
    return r.id, len(r.events) + sum(len(h.get("events") or ()) for h in r.done)


def _mark(r: Recording) -> tuple[Any, ...]:
    """The log a save stores now (its hands, the hand in progress, the scores entered), behind a
    quick key (a tap that adds an event differs there, without writing the log out)."""
    return (*_quick(r), hash(recordings.log_text(r)))


def _saved(r: Recording) -> bool:
    """What a save would store now was just saved in this session: it is not offered again
    until something changes."""
    saved = st.session_state.get(SAVED)
    return saved is not None and saved[:2] == _quick(r) and saved == _mark(r)


def _save_game(r: Recording) -> None:
    """Store the game as recorded so far (a hand in progress as far as it went) and review it."""
    out = recordings.finish(DB, r)
    said = t("rec_saved", lang, id=r.id, n=out["hands"]) if out["hands"] else t("rec_saved_none", lang, id=r.id)
    if out["open_hand"] is not None:
        said += " · " + t("rec_saved_open", lang, hand=out["open_hand"], moves=out["moves"])
    _say("success", said + ".")
    st.session_state[SAVED] = _mark(r)


def _links(rec: Recording) -> None:
    saved = st.session_state.get(SAVED)
    if saved is not None and saved[0] == rec.id:
        c = st.columns(2)
        c[0].page_link(data.PAGE_REF.get("replay", "views/replay.py"), label=t("rec_to_replay", lang),
                       query_params={"game": rec.id, "lang": lang})
        c[1].page_link(data.PAGE_REF.get("review", "views/review.py"), label=t("rec_to_review", lang),
                       query_params={"game": rec.id, "lang": lang})


# ---- the deal ------------------------------------------------------------------------------------


def _deal_view(rec: Recording) -> None:
    st.subheader(t("rec_deal_of", lang, hand=rec.hand, planned=rec.planned, name=names[rec.starter]))
    rules = PRESETS[rec.variant]
    known = [rec.view] if rec.view is not None else [0, 1, 2, 3]
    target = st.session_state.get("rec_target", known[0])
    if target not in known:
        st.session_state.pop("rec_target", None)
        target = known[0]
    if rec.view is None:  # a value set in the session state is the default (no second one: Streamlit warns)
        target = st.segmented_control(t("rec_rack_of", lang), known, key="rec_target",
                                      default=None if "rec_target" in st.session_state else target,
                                      format_func=lambda s: f"{s}: {names[s]}") or known[0]

    def _tap(tile: str) -> None:
        def go(r: Recording, tile: str) -> None:
            if r.indicator is None:
                if tile == "J":
                    raise RecordError("a false okey cannot be the gösterge", "T2")
                r.indicator = tile
            else:
                r.racks[st.session_state.get("rec_target", target)].append(tile)
        _change(go, tile)

    def _drop(r: Recording) -> None:
        rack = r.racks[st.session_state.get("rec_target", target)]
        if rack:
            rack.pop()
        else:
            r.indicator = None

    def _typed(r: Recording) -> None:
        text = st.session_state.get("rec_typed_in", "")
        tiles = [x.upper() for x in text.replace(",", " ").split()]
        for x in tiles:
            try:
                Tile.parse(x)
            except ValueError as e:
                raise RecordError(str(e).rsplit(" [", 1)[0], "T1") from None
        r.racks[st.session_state.get("rec_target", target)] = tiles
        st.session_state["rec_typed_in"] = ""

    want = rules.dealt_starter if target == rec.starter else rules.deal
    if rec.indicator is None:
        st.markdown(f"**{esc(t('rec_pick_indicator', lang))}**")
    else:
        ind = Tile.parse(rec.indicator)
        st.markdown(f'<div class="ist-plain" data-testid="rec-deal" data-count="{len(rec.racks[target])}">'
                    f'{esc(t("rec_indicator", lang, tile=""))}'
                    f'{tile_html(ind)} · {esc(t("rec_pick_rack", lang, name=names[target], n=len(rec.racks[target]), want=want))}'
                    f'{rack_html([Tile.parse(x) for x in rec.racks[target]])}</div>', unsafe_allow_html=True)
    _picker(_tap, "pk")
    b = st.columns([1, 2, 1, 1, 1])
    b[0].button(t("rec_drop", lang), key="rec_drop", on_click=_change, args=(_drop,))
    b[1].text_input(t("rec_typed", lang), key="rec_typed_in", label_visibility="collapsed",
                    placeholder=t("rec_typed", lang))
    b[2].button(t("rec_apply", lang), key="rec_apply", on_click=_change, args=(_typed,))
    b[3].button(t("rec_deal_done", lang), key="rec_deal_done", on_click=_change, args=(Recording.deal,),
                type="primary")

    def _undo_deal(r: Recording) -> None:  # a tile entered, the gösterge, then back to the hand before
        if r.indicator is not None or any(r.racks):
            if not r.racks[st.session_state.get("rec_target", target)] and any(r.racks) and r.view is None:
                return _say("info", t("rec_drop_first", lang))
            _drop(r)
        else:
            _undo(r)

    b[4].button(t("rec_undo", lang), key="rec_undo", on_click=_change, args=(_undo_deal,))
    if rec.done:  # a game stopped early: the hands played are saved as they are
        _totals(rec)
        if not _saved(rec):
            st.button(t("rec_save_here", lang), key="rec_save", on_click=_change, args=(_save_game,))
        _links(rec)


# ---- a hand over ---------------------------------------------------------------------------------


def _scores_in(r: Recording) -> None:
    """The table's scores as entered (end.scores): hidden racks are scored from them."""
    r.scores = [int(st.session_state.get(f"rec_score_{s}", 0)) for s in range(4)]


def _next(r: Recording) -> None:
    _scores_in(r)
    r.next_hand()
    for s in range(4):  # the next hand's inputs start from its own computed scores
        st.session_state.pop(f"rec_score_{s}", None)
    st.session_state["rec_target"] = r.view if r.view is not None else r.starter


def _over_view(rec: Recording) -> None:
    hr = rec.hand_result()
    state = rec.state()
    assert state is not None
    st.markdown(table_html(state, names, lang), unsafe_allow_html=True)
    res = str(state.result)
    words = tm("result_finish", lang, name=names[state.finisher]) if state.finisher is not None else tm(
        f"result_{res}", lang)
    st.success(t("rec_over", lang, hand=rec.hand, result=md_text(words)))
    st.markdown(f"**{esc(t('rec_scores', lang))}**")
    computed = list(hr.scores)
    sc = st.columns(4)
    for s in range(4):
        sc[s].number_input(t("rec_score_of", lang, name=names[s]), key=f"rec_score_{s}", step=1,
                           value=int(rec.scores[s]) if rec.scores else int(computed[s]))
    _totals(rec)

    def _save(r: Recording) -> None:
        _scores_in(r)
        _save_game(r)

    c = st.columns(4)
    if rec.game_over:
        st.info(t("rec_game_over", lang, n=rec.planned))
    else:
        c[0].button(t("rec_next_hand", lang), key="rec_next", on_click=_change, args=(_next,), type="primary")
    entered = [st.session_state.get(f"rec_score_{s}") for s in range(4)]
    if not (_saved(rec) and rec.scores is not None and entered == list(rec.scores)):
        c[1].button(t("rec_save", lang), key="rec_save", on_click=_change, args=(_save,),
                    type="primary" if rec.game_over else "secondary")
    c[2].download_button(t("rec_download", lang), recordings.log_text(rec), file_name=f"{rec.id}.jsonl",
                         mime="application/jsonl", key="rec_dl")
    c[3].button(t("rec_undo", lang), key="rec_undo", on_click=_change, args=(_undo,))
    _links(rec)


# ---- the hand ------------------------------------------------------------------------------------


def _save_so_far(rec: Recording, where: Any, saved: bool) -> None:
    """Mid-hand: the game saved as it stands, the hand in progress as far as it went (a log's
    hand needs no ``end``: the store keeps it as unfinished); the recording goes on."""
    if not saved:
        where.button(t("rec_save_now", lang), key="rec_save", on_click=_change, args=(_save_game,))


def _hand_view(rec: Recording) -> None:
    state = rec.state()
    assert state is not None
    saved = _saved(rec)
    if saved:  # just saved mid-hand: one click to Replay and Review until the next entry
        _links(rec)
    tot = rec.totals() if rec.done else None
    st.markdown(table_html(state, names, lang, totals=tot), unsafe_allow_html=True)
    st.caption(t("rec_events", lang, n=len(rec.events)) + " · " + t("rec_hand_no", lang, hand=rec.hand,
                                                                     planned=rec.planned))
    seat = state.turn
    known_rack = rec.view is None or seat == rec.view
    rules = state.rules

    def _add(event: dict[str, Any]) -> None:
        _change(Recording.add, event)

    phase = "draw" if state.phase == "draw" else "play"
    what = t("rec_draw_or_take" if phase == "draw" else "rec_place_or_discard", lang)
    st.markdown(f'<div data-testid="rec-turn" data-seat="{seat}" data-phase="{phase}" data-hand="{rec.hand}" '
                f'data-events="{len(rec.events)}"><b>'
                f'{esc(t("rec_turn", lang, name=names[seat], seat=seat, what=what))}</b></div>',
                unsafe_allow_html=True)
    prev = (seat - 1) % 4
    top = state.discards[prev][-1] if state.takeable == prev and state.discards[prev] else None
    if rules.gosterge:  # O7: any seat before its first draw (the viewer only when he holds the twin)
        can = [s for s in range(4) if not state.started[s] and not state.shown[s]
               and (s != rec.view or state.indicator in state.racks[s])
               and (rec.view is not None or state.indicator in state.racks[s])]
        if can:
            sh = st.columns(5)
            sh[0].markdown(esc(t("rec_show", lang)))
            for k, s in enumerate(can, 1):
                sh[k].button(names[s], key=f"rec_show_{s}", on_click=_add,
                             args=({"type": "show", "seat": s, "tile": str(state.indicator)},))
    if rules.declare_pairs and state.opened[seat] is None and not state.declared[seat]:  # O10
        st.button(t("rec_declare", lang, name=names[seat]), key="rec_declare", on_click=_add,
                  args=({"type": "declare", "seat": seat, "what": "pairs"},))
    said = [names[s] for s in range(4) if state.declared[s] and state.opened[s] is None]
    if said:
        st.caption(t("rec_declared", lang, names=", ".join(said)))

    if phase == "draw":
        b = st.columns(4)
        if not known_rack:
            b[0].button(t("rec_drew", lang), key="rec_drew", on_click=_add,
                        args=({"type": "draw", "seat": seat},), type="primary")
        if top is not None:
            b[1].button(t("rec_took", lang, tile=str(top)), key="rec_took", on_click=_add,
                        args=({"type": "take", "seat": seat, "tile": str(top)},))
        b[3].button(t("rec_undo", lang), key="rec_undo", on_click=_change, args=(_undo,))
        _save_so_far(rec, b[2], saved)
        st.markdown(f"**{esc(t('rec_tap_draw' if known_rack else 'rec_hidden_draw', lang))}**")
        _picker(lambda tile: _add({"type": "draw", "seat": seat, "tile": tile}), disabled=not known_rack)
        return

    # play: a tap discards, or builds a per / çift
    # this step's widgets (recordings.step_key): an event gives them new keys, so after an opening
    # or a lay-off the mode is "discard" again (the next tap is the discard: one click saved), the
    # build text is empty and the lay-off goes onto the first meld
    k_mode, k_text, k_on = (recordings.step_key(n, rec) for n in recordings.STEP_KEYS)
    for key in [k for k in st.session_state if str(k).startswith(tuple(f"{n}~" for n in recordings.STEP_KEYS))]:
        if key not in (k_mode, k_text, k_on):
            del st.session_state[key]  # an earlier step's (an undo must not bring its text back)
    with st.container(key="rec_mode"):
        mode = st.segmented_control(t("rec_mode", lang), ["discard", "build"], key=k_mode, default="discard",
                                    required=True, format_func=lambda m: t(f"rec_mode_{m}", lang)) or "discard"

    def _tap_play(tile: str) -> None:
        if st.session_state.get(k_mode, "discard") == "build":
            cur = st.session_state.get(k_text, "").rstrip()
            st.session_state[k_text] = (cur + " " + tile).strip()
        else:
            _add({"type": "discard", "seat": seat, "tile": tile})

    def _place(kind: str, field: str) -> None:
        def go(r: Recording) -> None:
            r.add({"type": kind, "seat": seat, field: parse_groups(st.session_state.get(k_text, ""))})
        _change(go)

    def _layoff(kind: str) -> None:
        def go(r: Recording) -> None:
            groups = parse_groups(st.session_state.get(k_text, ""))
            r.add({"type": kind, "seat": seat, "meld": int(st.session_state.get(k_on) or 0),
                   "tiles": [x for g in groups for x in g]})
        _change(go)

    def _next_group() -> None:
        st.session_state[k_text] = st.session_state.get(k_text, "").rstrip() + " |"

    def _clear() -> None:
        st.session_state[k_text] = ""

    st.markdown(f"**{esc(t('rec_tap_discard', lang) if mode == 'discard' else t('rec_build', lang, text='').strip())}**")
    _picker(_tap_play)
    b = st.columns(4)
    if top is None and state.took is not None:
        b[0].button(t("rec_return", lang, tile=str(state.took)), key="rec_return", on_click=_add,
                    args=({"type": "return", "seat": seat, "tile": str(state.took)},))
    if state.turn_base is not None:
        b[1].button(t("rec_takeback", lang), key="rec_takeback", on_click=_add,
                    args=({"type": "takeback", "seat": seat},))
    b[3].button(t("rec_undo", lang), key="rec_undo", on_click=_change, args=(_undo,))
    _save_so_far(rec, b[2], saved)
    if mode == "build":
        with st.container(key="rec_build_in"):
            st.text_input(t("rec_build_text", lang), key=k_text)
        c = st.columns(6)
        c[0].button(t("rec_next_group", lang), key="rec_next_group", on_click=_next_group)
        opened = state.opened[seat] is not None
        c[1].button(t("rec_open_melds" if not opened else "rec_meld", lang), key="rec_melds",
                    on_click=_place, args=("open" if not opened else "meld", "melds"), type="primary")
        c[2].button(t("rec_open_pairs" if not opened else "rec_pairs", lang), key="rec_pairs",
                    on_click=_place, args=("open" if not opened else "meld", "pairs"))
        melds = [m for m in state.table if m is not None]
        if melds:  # the table melds as they stand are drawn above; one tap picks the target
            with st.container(key="rec_layoff_on"):
                st.segmented_control(t("rec_layoff_on", lang), [m.index for m in melds], key=k_on,
                                     default=melds[0].index, format_func=lambda i: f"#{i}", required=True)
            c[3].button(t("rec_layoff", lang), key="rec_layoff", on_click=_layoff, args=("layoff",))
            c[4].button(t("rec_swap", lang), key="rec_swap", on_click=_layoff, args=("swap",))
        st.button(t("rec_clear", lang), key="rec_clear", on_click=_clear)


@st.fragment
def _board() -> None:
    """The recording as it stands: a tap reruns only this."""
    access.refusal(lang)  # a tap refused by the write gate (a logout elsewhere since the page was drawn)
    rec = _rec()
    if rec is None:
        st.warning(t("rec_no_rec", lang, id=md_text(_rid() or "")))
        return
    if MSG in st.session_state:
        kind, text = st.session_state.pop(MSG)
        getattr(st, kind)(link_rules(md_text(text), lang))
    if not rec.dealt:
        _deal_view(rec)
    elif rec.over:
        _over_view(rec)
    else:
        _hand_view(rec)


_board()

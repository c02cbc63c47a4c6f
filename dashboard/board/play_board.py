"""The Play page's board: the table from the person's seat (the bots' racks as backs with their
counts), the bots' last moves, the person's rack as tiles one taps, the turn's buttons; and a hand's
end (the engine's scores, the running totals, the links to its review), then the game's ranks.

Drawing only: every tap goes to :mod:`dashboard.state.play_state`, which applies it to the game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import streamlit as st

from analysis.game import HandState, Tile, match_points, team_totals
from analysis.selfplay import PlayGame
from dashboard.state import access, data, play_games, play_hints, play_state as ps, table_read
from dashboard.words.i18n import t as tm
from dashboard.words.play_words import t
from dashboard.board import moments_view, table_view
from dashboard.board.replay_view import describe
from dashboard.board.tiles_view import esc, md_text, notation_row, rack_html, table_html, tile_key, tile_label

Step = tuple[int, int]
_TABLE_CSS = (".st-key-pl_table .ist-hidden .ist-tile.back{width:10px;min-width:10px;height:15px;margin:1px}"
              ".st-key-pl_table .ist-hidden{min-height:0}")


def _order(rack: tuple[Tile, ...], okey: Tile, by: str) -> list[int]:
    """The rack's tiles in the order the person asked: by runs (colour, number) or by groups
    (number, colour); okeys and false okeys at the end."""
    def key(i: int) -> tuple[int, int, int]:
        x = rack[i]
        if x.is_joker or x == okey:
            return (1, 0, 0)
        c = "RYBK".index(x.colour)
        return (0, c, x.number) if by == "runs" else (0, x.number, c)
    return sorted(range(len(rack)), key=key)


def _bot_moves(g: PlayGame, lang: str) -> None:
    """What the bots did since the person's last move (a bot's drawn tile stays hidden)."""
    evs = g.events
    k = len(evs)
    while k > 0 and (evs[k - 1].get("type") == "penalty" or not g.is_person(int(evs[k - 1].get("seat", 0)))):
        k -= 1
    lines = []
    for e in evs[k:][-12:]:
        seat = int(e.get("seat", 0))
        shown = {"type": "draw", "seat": seat} if e.get("type") == "draw" else e
        lines.append(f"**{md_text(g.players[seat])}**: {md_text(describe(shown, g.players, lang))}")
    if lines:
        st.markdown(f'<div data-testid="pl-bot-moves" data-n="{len(lines)}"></div>', unsafe_allow_html=True)
        st.caption(" · ".join(lines))


def _rack(g: PlayGame, s: HandState, seat: int, step: Step, build_key: str, mode: str, lang: str) -> None:
    by = str(st.session_state.get(ps.SORT_KEY) or "runs")
    rack = s.racks[seat]
    scope = f"p{step[0]}-{step[1]}"
    st.markdown(f'<div data-testid="pl-rack" data-seat="{seat}" data-n="{len(rack)}" '
                f'data-tiles="{" ".join(str(x) for x in rack)}"></div>', unsafe_allow_html=True)
    # in build mode the tiles already in the build text stand raised (no tooltip: on a phone it
    # would cover the next tile)
    built = Counter(x.split(">")[0].upper() for x in str(st.session_state.get(build_key, "")).replace("|", " ").split())
    with st.container(horizontal=True, gap=None, key=f"tilerack-{scope}"):
        for i in _order(rack, s.okey, by):
            x = rack[i]
            if mode == "build" and s.phase == "play":
                up = built[str(x)] > 0
                built[str(x)] -= 1
                st.button(tile_label(x), key=tile_key(x, s.okey, scope, i), on_click=ps.add_to_build,
                          args=(build_key, str(x)), type="primary" if up else "secondary")
            else:
                st.button(tile_label(x), key=tile_key(x, s.okey, scope, i), on_click=ps.discard,
                          args=(data.db_file(), g.id, step, seat, str(x)), disabled=s.phase != "play")


def _hints(g: PlayGame, seat: int, step: Step, lang: str) -> None:
    st.button(t("pl_hint", lang), key=ps.step_key("pl_hint", g), on_click=ps.ask_hint,
              args=(data.db_file(), g.id, step, seat), icon=":material/lightbulb:")
    got = ps.hint_for(g.id, step)
    if got is not None:
        rows = [t("pl_hint_line", lang, k=k, what=md_text(h["label"]), mean="—" if h["mean"] is None else h["mean"])
                for k, h in enumerate(got, 1)]
        st.markdown(f'<div data-testid="pl-hints" data-n="{len(got)}"></div>', unsafe_allow_html=True)
        st.info("  \n".join(rows) or t("pl_hint_none", lang))
    s = g.state()
    if s is not None:  # what the bots likely hold, read from the person's view alone
        table_view.section("th_play", seat, g.players, s.okey, lang, lambda: table_read.played(data.db_file(), g, seat),
                           x5=table_view.charges_x5(s.rules))


def move_words(events: Any, lang: str) -> str:
    """A move (its events; none: a wait) as a short phrase, for the mistake guard's line."""
    out = []
    for e in events:
        kind = e.get("type")
        if kind in ("draw", "takeback", "declare"):
            out.append(t(f"pl_mv_{kind}", lang))
        elif kind in ("take", "discard"):
            out.append(t(f"pl_mv_{kind}", lang, tile=e.get("tile", "")))
        elif kind in ("open", "meld"):
            pairs = "pairs" in e
            out.append(t(f"pl_mv_{kind}_pairs" if pairs else f"pl_mv_{kind}", lang,
                         n=len(e.get("pairs") if pairs else e.get("melds") or [])))
        elif kind in ("layoff", "swap"):
            out.append(t(f"pl_mv_{kind}", lang, tiles=" ".join(str(x) for x in e.get("tiles") or [])))
    return " + ".join(out) or t("pl_mv_wait", lang)


def _upper(text: str, lang: str) -> str:
    first = "İ" if lang != "en" and text[:1] == "i" else text[:1].upper()
    return first + text[1:]


def guard_line(mistakes: Any, lang: str) -> str:
    """The warning before a move the judge prices as a large mistake: each decision's cost and the
    better move, then the question."""
    lines = [t("pl_guard", lang, what=_upper(move_words(m.played, lang), lang), cost=f"{m.cost:.0f}",
               best=move_words(m.best, lang), limit=f"{play_hints.LARGE_MISTAKE:.0f}") for m in mistakes]
    return " ".join([*lines, t("pl_guard_ask", lang)])


def _guard(g: PlayGame, step: Step, lang: str) -> None:
    """A move held after the mistake guard's warning: the line, play it anyway or take it back."""
    held = ps.guard_for(g.id, step)
    if held is None:
        return
    _, mistakes = held
    st.markdown(f'<div data-testid="pl-guard" data-n="{len(mistakes)}" '
                f'data-cost="{max(m.cost for m in mistakes):.1f}"></div>', unsafe_allow_html=True)
    st.warning(md_text(guard_line(mistakes, lang)), icon=":material/warning:")
    c = st.container(horizontal=True, gap="small")
    c.button(t("pl_anyway", lang), key=ps.step_key("pl_anyway", g), on_click=ps.confirm,
             args=(data.db_file(), g.id, step))
    c.button(t("pl_back", lang), key=ps.step_key("pl_back", g), type="primary", on_click=ps.take_back)


def turn_view(db: str, g: PlayGame, lang: str, *, waiting: bool) -> None:
    s = g.state()
    assert s is not None
    me = g.people[0] if len(g.people) == 1 else (s.turn if g.is_person(s.turn) else g.people[0])
    # the bots' racks as small backs (a phone's side seats stay short); the person's own rack is
    # the one below, whose tiles one taps, so the table does not draw it twice
    st.html(f"<style>{_TABLE_CSS}.st-key-pl_table .ist-seat[data-seat='{me}'] .ist-rack{{display:none}}</style>")
    with st.container(key="pl_table"):
        st.markdown(table_html(s, g.players, lang, totals=g.totals() if g.done else None, viewer=me),
                    unsafe_allow_html=True)
    _bot_moves(g, lang)
    seat = s.turn
    step = ps.step_of(g)
    mine = g.is_person(seat) and not waiting
    phase = "draw" if s.phase == "draw" else "play"
    line = t("pl_turn_mine" if mine else "pl_turn_bot", lang, name=g.players[seat], hand=g.hand, planned=g.planned)
    st.markdown(f'<div data-testid="pl-turn" data-seat="{seat}" data-phase="{phase}" data-hand="{g.hand}" '
                f'data-events="{len(g.events)}" data-mine="{int(mine)}"><b>{esc(line)}</b></div>',
                unsafe_allow_html=True)
    if g.hinted:
        st.caption(t("pl_hinted", lang))
    o = st.container(horizontal=True, gap="small")
    o.segmented_control(t("pl_sort", lang), ["runs", "groups"], key=ps.SORT_KEY, default="runs", required=True,
                           format_func=lambda x: t(f"pl_sort_{x}", lang))
    o.toggle(t("pl_train", lang), key=ps.TRAIN_KEY)
    if not mine:  # the bots are moving: your rack as it stands, nothing to tap
        st.markdown(rack_html(s.racks[me], s.okey), unsafe_allow_html=True)
        return
    ps.forget_old_steps(g)
    _guard(g, step, lang)
    k_mode, k_build, k_on = (ps.step_key(n, g) for n in ps.STEP_KEYS)
    rules = s.rules
    a = st.container(horizontal=True, gap="small")
    if rules.gosterge and not s.started[seat] and not s.shown[seat] and s.indicator in s.racks[seat]:  # O7
        a.button(t("pl_show", lang, tile=str(s.indicator)), key=ps.step_key("pl_show", g), on_click=ps.act,
                    args=(db, g.id, step, {"type": "show", "seat": seat, "tile": str(s.indicator)}))
    if rules.declare_pairs and s.opened[seat] is None and not s.declared[seat]:  # O10
        a.button(t("pl_declare", lang), key=ps.step_key("pl_declare", g), on_click=ps.act,
                    args=(db, g.id, step, {"type": "declare", "seat": seat, "what": "pairs"}))
    if phase == "draw":
        prev = (seat - 1) % 4
        top = s.discards[prev][-1] if s.takeable == prev and s.discards[prev] else None
        d = st.container(horizontal=True, gap="small")
        d.button(t("pl_draw", lang), key=ps.step_key("pl_draw", g), type="primary", on_click=ps.act,
                    args=(db, g.id, step, {"type": "draw", "seat": seat}), icon=":material/add_box:")
        if top is not None:
            d.button(t("pl_take", lang, tile=str(top)), key=ps.step_key("pl_take", g), on_click=ps.act,
                        args=(db, g.id, step, {"type": "take", "seat": seat, "tile": str(top)}))
        _rack(g, s, seat, step, k_build, "discard", lang)
        if st.session_state.get(ps.TRAIN_KEY):
            _hints(g, seat, step, lang)
        return
    mode = st.segmented_control(t("pl_mode", lang), ["discard", "build"], key=k_mode, default="discard",
                                required=True, format_func=lambda m: t(f"pl_mode_{m}", lang)) or "discard"
    st.markdown(f"**{esc(t('pl_tap_discard' if mode == 'discard' else 'pl_tap_build', lang))}**")
    _rack(g, s, seat, step, k_build, mode, lang)
    b = st.container(horizontal=True, gap="small")
    if s.took is not None and s.took_unopened:  # P2: the taken discard goes back, then a draw
        b.button(t("pl_return", lang, tile=str(s.took)), key=ps.step_key("pl_return", g), on_click=ps.act,
                    args=(db, g.id, step, {"type": "return", "seat": seat, "tile": str(s.took)}))
    if s.turn_base is not None:  # O6
        b.button(t("pl_takeback", lang), key=ps.step_key("pl_takeback", g), on_click=ps.act,
                    args=(db, g.id, step, {"type": "takeback", "seat": seat}))
    if mode == "build":
        _build(db, g, s, seat, step, k_build, k_on, lang)
    if st.session_state.get(ps.TRAIN_KEY):
        _hints(g, seat, step, lang)


def _build(db: str, g: PlayGame, s: HandState, seat: int, step: Step, k_build: str, k_on: str, lang: str) -> None:
    # what is being built lives in the session, not in a text box: a tap sent while the page
    # redraws would otherwise bring the box's older text back with it
    groups = [grp.split() for grp in str(st.session_state.get(k_build, "")).split("|")]
    shown = " │ ".join(notation_row(grp, s.okey, small=True) for grp in groups if grp) or "—"
    st.markdown(f'<div class="ist-plain" data-testid="pl-build" data-text="{esc(st.session_state.get(k_build, ""))}">'
                f'{esc(t("pl_build_text", lang))}: {shown}</div>', unsafe_allow_html=True)
    opened = s.opened[seat] is not None
    kind = "open" if not opened or s.opened_this_turn else "meld"
    c = st.container(horizontal=True, gap="small")
    c.button(t("pl_next_group", lang), key=ps.step_key("pl_next_group", g), on_click=ps.next_group, args=(k_build,))
    c.button(t("pl_open_melds" if kind == "open" else "pl_meld", lang), key=ps.step_key("pl_melds", g), type="primary",
                on_click=ps.place, args=(db, g.id, step, seat, kind, "melds", k_build))
    c.button(t("pl_open_pairs" if kind == "open" else "pl_pairs", lang), key=ps.step_key("pl_pairs", g),
                on_click=ps.place, args=(db, g.id, step, seat, kind, "pairs", k_build))
    melds = [m for m in s.table if m is not None]
    if melds:
        with st.container(key="pl_on_box"):
            st.segmented_control(t("pl_layoff_on", lang), [m.index for m in melds], key=k_on,
                                 default=melds[0].index, format_func=lambda i: f"#{i}", required=True)
        e = st.container(horizontal=True, gap="small")
        e.button(t("pl_layoff", lang), key=ps.step_key("pl_layoff", g), on_click=ps.layoff,
                    args=(db, g.id, step, seat, "layoff", k_build, k_on))
        e.button(t("pl_swap", lang), key=ps.step_key("pl_swap", g), on_click=ps.layoff,
                    args=(db, g.id, step, seat, "swap", k_build, k_on))
    st.button(t("pl_clear", lang), key=ps.step_key("pl_clear", g), on_click=ps.clear, args=(k_build,))


# ---- a hand's end ------------------------------------------------------------------------------


def _store(db: str, g: PlayGame, lang: str) -> PlayGame:
    """The finished hands into the store (once each), through the write gate, then reviewed."""
    if g.stored >= len(g.finished_hands()) or not access.can_write():
        return g
    with st.spinner(t("pl_storing", lang)):
        with data.writing_db() as con:
            out = play_games.change(db, g.id, lambda x: play_games.store_hands(db, x, con))
    if out is not None and out.get("invalid"):
        st.warning(t("pl_store_invalid", lang, n=out["invalid"]))
    return play_games.load(db, g.id) or g


def _scores(g: PlayGame, lang: str) -> list[int]:
    hands = g.finished_hands()
    head = "".join(f"<th>{esc(n)}</th>" for n in g.players)
    rows = "".join(f'<tr><td>{h.hand}</td>{"".join(f"<td>{v}</td>" for v in h.totals())}</tr>' for h in hands)
    tot = g.totals()
    st.markdown(f'<table class="ist-plain" data-testid="pl-totals" data-hands="{len(hands)}" '
                f'data-totals="{" ".join(map(str, tot))}"><tr><th>{esc(t("pl_hand_col", lang))}</th>{head}</tr>'
                f'{rows}<tr><td><b>{esc(t("pl_total", lang))}</b></td>'
                f'{"".join(f"<td><b>{v}</b></td>" for v in tot)}</tr></table>', unsafe_allow_html=True)
    return tot


def _ranks(g: PlayGame, tot: list[int], lang: str) -> None:
    """G2: the lowest total wins; G3: match points where the preset plays them; G4: partners."""
    rules = g.table_rules()
    order = sorted(range(4), key=lambda k: tot[k])
    mp = match_points(tot, g.planned) if rules.match_points else None
    lines = [t("pl_rank", lang, rank=1 + sum(1 for u in tot if u < tot[k]), name=md_text(g.players[k]), total=tot[k])
             + (t("pl_mp", lang, mp=mp[k]) if mp else "") for k in order]
    if rules.esli:
        a, b = team_totals(tot)
        lines.append(t("pl_teams", lang, a=a, b=b))
    st.markdown(f'<div data-testid="pl-ranks" data-first="{order[0]}"></div>', unsafe_allow_html=True)
    st.success("  \n".join(lines))


def _my_moments(g: PlayGame, me: int, lang: str) -> None:
    """The person's key moments of this hand from the stored review (the costliest decisions of the
    game that fall in it), each with its lesson and a link to the Replay at that step."""
    per_seat = moments_view.moments(g.id, lang)
    if per_seat is None or me >= len(per_seat):
        return
    mine = [m for m in per_seat[me] if m.hand == g.hand]
    st.markdown(f'<div data-testid="pl-moments" data-n="{len(mine)}"></div>', unsafe_allow_html=True)
    st.markdown(f"**{esc(t('pl_moments', lang))}**")
    if not mine:
        st.caption(t("pl_moments_none", lang))
    for m in mine:
        st.page_link(data.PAGE_REF.get("replay", "views/replay.py"),
                     label=t("pl_moment", lang, turn=m.turn, cost=f"{m.cost:.0f}"),
                     query_params={"game": g.id, "hand": m.hand, "step": m.step, "seat": me, "lang": lang},
                     icon=":material/play_arrow:")
        st.caption(md_text(m.lesson))


def hand_over(db: str, g: PlayGame, lang: str) -> None:
    g = _store(db, g, lang)
    s = g.state()
    assert s is not None
    st.markdown(table_html(s, g.players, lang), unsafe_allow_html=True)  # every rack shown at the end
    _bot_moves(g, lang)
    words = tm("result_finish", lang, name=g.players[s.finisher]) if s.finisher is not None else tm(
        f"result_{s.result}", lang)
    st.markdown(f'<div data-testid="pl-over" data-hand="{g.hand}" data-result="{s.result}" '
                f'data-stored="{g.stored}"></div>', unsafe_allow_html=True)
    st.subheader(t("pl_over", lang, hand=g.hand, result=words))
    tot = _scores(g, lang)
    me = g.people[0]
    links: dict[str, Any] = {"game": g.id, "lang": lang}
    c = st.container(horizontal=True, gap="small")
    if g.stored >= len(g.finished_hands()):
        c.page_link(data.PAGE_REF.get("review", "views/review.py"), label=t("pl_to_review", lang),
                       query_params={**links, "rv_hand": g.hand}, icon=":material/rate_review:")
        c.page_link(data.PAGE_REF.get("replay", "views/replay.py"), label=t("pl_to_replay", lang),
                       query_params={**links, "hand": g.hand, "seat": me}, icon=":material/play_arrow:")
    if g.stored >= len(g.finished_hands()):
        _my_moments(g, me, lang)
    if g.game_over:
        st.subheader(t("pl_game_over", lang, n=g.planned))
        _ranks(g, tot, lang)
    else:
        c.button(t("pl_next_hand", lang), key="pl_next_hand", type="primary", on_click=ps.next_hand,
                    args=(db, g.id, ps.step_of(g)))
    st.download_button(t("pl_download", lang), play_games.log_text(g), file_name=f"{g.id}.jsonl",
                       mime="application/jsonl", key="pl_dl")

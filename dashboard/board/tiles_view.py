"""How a tile, a rack, a meld and the whole table look: HTML strings, no Streamlit.

Tiles are drawn like real okey tiles: a cream face with the number in its colour (red,
yellow-orange, blue, black) and the small circle under it; the okey is ringed in gold with a
star, the false okey (sahte okey) shows its clover and the face it counts as. Every text that
comes from a log (player names, reasons, ids) goes through :func:`esc`; tiles are rebuilt from
parsed :class:`Tile` values, never copied from the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from analysis.game import HandState, TableMeld
from analysis.game import COLOURS, HIDDEN, Placed, Tile

from dashboard.words.graph_words import t as gw
from dashboard.words.i18n import t as tr
from dashboard.words.text import esc, md_text
from dashboard.words.rule_links import link_rules_html
from dashboard.words.seatview_words import t as sv

COLOUR_CSS = {"R": "#d0281f", "Y": "#e08600", "B": "#1560bd", "K": "#1b1b1b"}
SEAT_AREA = {0: "s0", 1: "s1", 2: "s2", 3: "s3"}  # seat 0 at the bottom, play goes counter-clockwise

CSS = """
<style>
.ist-tile{display:inline-flex;flex-direction:column;align-items:center;justify-content:flex-start;
  width:28px;height:40px;margin:1px;border-radius:5px;position:relative;box-sizing:border-box;
  background:linear-gradient(#fffdf4,#f3e9cc);border:1px solid #c8b68a;
  box-shadow:0 2px 0 #b09a66,0 3px 3px rgba(0,0,0,.25);font-family:Georgia,'DejaVu Serif',serif;
  vertical-align:top}
.ist-tile .n{font-weight:700;font-size:17px;line-height:22px;margin-top:3px}
.ist-tile .dot{width:7px;height:7px;border-radius:50%;border:1.5px solid currentColor;margin-top:1px}
.ist-tile.sm{width:21px;height:30px;border-radius:4px}
.ist-tile.sm .n{font-size:12px;line-height:16px;margin-top:2px}
.ist-tile.sm .dot{width:5px;height:5px;border-width:1px}
.ist-tile.okey{border:2px solid #d4a017;box-shadow:0 0 0 2px #ffe27a,0 2px 0 #b09a66}
.ist-tile.okey::after{content:'\\2605';position:absolute;top:-7px;right:-5px;font-size:11px;color:#c48a00;
  text-shadow:0 0 2px #fff}
.ist-tile.joker .n{color:#1d6b3a;font-size:18px}
.ist-tile .as{font-size:9px;font-weight:700;line-height:9px;margin-top:1px;font-family:sans-serif}
.ist-tile.sm .as{font-size:7px}
.ist-tile.back{background:repeating-linear-gradient(45deg,#7a4a24,#7a4a24 4px,#8b5a2b 4px,#8b5a2b 8px);
  border-color:#5b3518}
.ist-tile.hl{outline:3px solid #29b6f6;outline-offset:0}
.ist-tile.dim{opacity:.55}
/* on-board marks: an outline of its own style and a small tag, never colour alone */
.ist-tile.mk-played{outline:3px solid #0d47a1;outline-offset:1px}
.ist-tile.mk-better{outline:3px dashed #1b5e20;outline-offset:1px}
.ist-tile.mk-fed{outline:4px double #6a1b9a;outline-offset:1px}
.ist-tile .mk-tag{position:absolute;top:-8px;left:-6px;font:700 10px/12px sans-serif;background:#fff;color:#000;
  border:1px solid #000;border-radius:6px;padding:0 2px;z-index:1}
.ist-meld.mk-layoff{outline:3px solid #ffeb3b;outline-offset:1px}
.ist-meld.mk-better{outline:3px dashed #b9f6ca;outline-offset:1px}
.ist-meld .mk-meld-tag{font:700 10px sans-serif;background:#fff;color:#000;border-radius:4px;padding:0 3px;
  margin-left:4px}
.ist-center .mk-fed-note{margin-top:4px;font-size:11px}
.ist-rack{display:flex;flex-wrap:wrap;gap:0;padding:4px 4px 6px 4px;border-radius:4px;
  background:linear-gradient(#a0703f,#7c532b);box-shadow:inset 0 -3px 0 #5e3d1e;min-height:48px}
.ist-table{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,2fr) minmax(0,1fr);max-width:100%;
  box-sizing:border-box;min-width:0;
  grid-template-areas:"s2 s2 s2" "s3 c s1" "s0 s0 s0";gap:8px;padding:10px;border-radius:14px;
  background:radial-gradient(#2f7d4d,#1d5233);color:#f2f2f2;font-family:sans-serif;font-size:13px}
.ist-seat{background:rgba(0,0,0,.18);border-radius:8px;padding:6px;border:2px solid transparent;min-width:0}
.ist-seat.tomove{border-color:#ffd54f;box-shadow:0 0 10px #ffd54f}
.ist-seat .hdr{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:4px}
.ist-seat .name{font-weight:700;font-size:14px}
.ist-badge{border-radius:9px;padding:1px 7px;font-size:11px;font-weight:700;color:#fff;display:inline-block;
  white-space:nowrap}  /* a badge is one piece: it moves to the next line whole, never broken in two */
.ist-badge.open{background:#2e9d44}
.ist-badge.closed{background:#c62828}
.ist-badge.move{background:#ffd54f;color:#3a2d00}
.ist-seat .meta{font-size:11px;opacity:.9;margin:2px 0}
.ist-seat a.ist-rule{color:#ffe082;text-decoration:underline}
.ist-discards{margin-top:4px;font-size:11px}
.ist-center{grid-area:c;background:rgba(0,0,0,.12);border-radius:8px;padding:6px;min-width:0}
.ist-center .top{flex-wrap:wrap}
.ist-center .top{display:flex;gap:14px;align-items:flex-end;margin-bottom:6px}
.ist-center .lbl{font-size:11px;opacity:.9}
.ist-meld{display:inline-block;margin:3px 8px 3px 0;padding:2px 4px 3px 4px;border-radius:5px;
  background:rgba(255,255,255,.08)}
.ist-meld .own{font-size:10px;opacity:.85}
.ist-deck{display:inline-flex;align-items:center;gap:4px}
.ist-plain{color:inherit}
.ist-plain .ist-rack{background:#efe6cf;box-shadow:none}
.ist-hidden .lbl{color:#f6ecd2;align-self:center;margin-left:6px;font:12px sans-serif}
.st-key-moves button{justify-content:flex-start;text-align:left;min-height:0;padding:2px 6px}
.st-key-moves button>div{justify-content:flex-start;width:100%}
.st-key-moves button p{text-align:left;font-size:13px}
.st-key-pr_rack [data-testid="stBaseButton-primary"]{background:#fff1b8;border:3px solid #1560bd;
  box-shadow:0 0 0 2px #90caf9}
.st-key-pr_rack [data-testid="stBaseButton-primary"] p{text-decoration:underline}
/* a laptop's first screen: less empty space above the page, a smaller title */
[data-testid="stMainBlockContainer"]{padding-top:3.6rem;padding-left:1.5rem;padding-right:1.5rem}
[data-testid="stMain"] h1{font-size:1.9rem;padding:.2rem 0 .4rem 0}
.st-key-rp_nav button,.st-key-rp_side_nav button{min-height:2rem;padding:0 .55rem}
.st-key-rp_nav button p,.st-key-rp_side_nav button p{white-space:nowrap}
.st-key-rp_keys{display:none}
/* a tile one clicks (Retry, Practice): a button drawn as the tile itself, its number in
   the tile's colour with the small circle under it, as on the board (never a coloured plain label) */
[class*="st-key-tile-"] button{width:34px;min-width:34px;height:48px;min-height:48px;padding:0;border-radius:5px;
  background:linear-gradient(#fffdf4,#f3e9cc);border:1px solid #c8b68a;box-shadow:0 2px 0 #b09a66,0 3px 3px rgba(0,0,0,.25)}
[class*="st-key-tile-"] button p{font:700 18px/20px Georgia,'DejaVu Serif',serif}
[class*="st-key-tile-"] button p::after{content:'';display:block;width:7px;height:7px;border-radius:50%;
  border:1.5px solid currentColor;margin:2px auto 0}
[class*="st-key-tile-R-"] button p{color:#d0281f}[class*="st-key-tile-Y-"] button p{color:#e08600}
[class*="st-key-tile-B-"] button p{color:#1560bd}[class*="st-key-tile-K-"] button p{color:#1b1b1b}
[class*="st-key-tile-J-"] button p{color:#1d6b3a}[class*="st-key-tile-J-"] button p::after{display:none}
[class*="st-key-tile-"][class*="-ok-"] button{border:2px solid #d4a017;box-shadow:0 0 0 2px #ffe27a,0 2px 0 #b09a66}
[class*="st-key-tile-"] [data-testid="stBaseButton-primary"]{outline:3px solid #29b6f6;transform:translateY(-5px)}
[class*="st-key-tilerack-"]{background:linear-gradient(#a0703f,#7c532b);box-shadow:inset 0 -3px 0 #5e3d1e;
  padding:8px 4px 6px 4px;border-radius:4px;gap:3px}
/* a phone: a wide Markdown table scrolls in its own box, never the page */
[data-testid="stMarkdownContainer"] table{display:block;overflow-x:auto;max-width:100%}
/* a segmented control or pills row narrower than its options: they wrap onto another row (Streamlit
   scrolls the row sideways, which cuts the last label: "Kayıtlı o…"), and one label longer than
   the row wraps inside its button */
[data-testid="stButtonGroup"]>div{flex-wrap:wrap;overflow:visible}
[data-testid="stButtonGroup"] button{max-width:100%}
[data-testid="stButtonGroup"] button *{white-space:normal}
/* Streamlit writes "Press Enter to apply" under text inputs in English on every page */
[data-testid="InputInstructions"]{display:none}
</style>
"""


MARK_TAG = {"played": "▲", "better": "★", "fed": "⚑"}  # the tag a marked tile wears (legend: mk_legend)


@dataclass(frozen=True)
class Marks:
    """What the board marks at one step (made by :mod:`dashboard.board.board_marks`):
    on ``seat``'s rack the tiles ``played`` from it in the rest of the turn and the ``better``
    ones by the review; ``melds``: table meld index -> ``layoff`` (this turn's lay-off goes
    there) or ``better`` (the better line's does); ``fed``: (seat, tile) of the discard that fed
    the hand's finish, marked on that seat's discards while it lies there; ``fed_note``: also
    said in the centre (the finishing turn and after)."""

    seat: int | None = None
    played: tuple[Tile, ...] = ()
    better: tuple[Tile, ...] = ()
    melds: dict[int, str] = field(default_factory=dict)
    fed: tuple[int, Tile] | None = None
    fed_note: bool = False

    def __bool__(self) -> bool:
        return bool(self.played or self.better or self.melds or self.fed)


def _mark_title(kind: str, tile: Tile, lang: str) -> str:
    return gw(f"mk_{kind}_title", lang, tile=str(tile))


def tile_html(tile: Tile, okey: Tile | None = None, *, small: bool = False, stands_for: Tile | None = None,
              classes: str = "", mark: tuple[str, str] | None = None) -> str:
    """One physical tile; ``stands_for`` labels a wild tile (okey or shown twin) with its face;
    ``mark``: (played, better or fed; the words of its title), drawn as an outline and a tag."""
    cls = ["ist-tile"]
    if small:
        cls.append("sm")
    if classes:
        cls.append(classes)
    title: str
    if tile.is_joker:
        cls.append("joker")
        body = '<span class="n">&#9827;</span>'  # the clover of the sahte okey
        face = okey
        if face is not None:
            body += f'<span class="as" style="color:{COLOUR_CSS[face.colour]}">{face}</span>'
            title = f"sahte okey = {face}"
        else:
            title = "sahte okey"
    else:
        colour = COLOUR_CSS[tile.colour]
        body = f'<span class="n" style="color:{colour}">{tile.number}</span>'
        if okey is not None and tile == okey:
            cls.append("okey")
            title = f"okey ({tile})"
        else:
            title = str(tile)
        if stands_for is not None:
            body += f'<span class="as" style="color:{COLOUR_CSS[stands_for.colour]}">={stands_for}</span>'
            title += f" = {stands_for}"
        else:
            body += f'<span class="dot" style="color:{colour}"></span>'
    extra = ""
    if mark is not None:
        cls.append(f"mk-{mark[0]}")
        title += f" — {mark[1]}"
        body += f'<span class="mk-tag" aria-hidden="true">{MARK_TAG.get(mark[0], "•")}</span>'
        extra = f' data-mark="{esc(mark[0])}"'
    return f'<span class="{" ".join(cls)}" title="{esc(title)}" data-tile="{tile}"{extra}>{body}</span>'


def placed_html(p: Placed, okey: Tile, *, small: bool = False) -> str:
    """A tile in a meld: an okey (or shown twin) says what it stands for (T4, O7)."""
    if p.wild:
        return tile_html(p.physical, okey, small=small, stands_for=p.face)
    return tile_html(p.physical, okey, small=small)


def sort_key(tile: Tile) -> tuple[int, int]:
    return (4, 0) if tile.is_joker else (COLOURS.index(tile.colour), tile.number)


def rack_html(tiles: Iterable[Tile], okey: Tile | None = None, *, sort: bool = True, small: bool = False,
              highlight: Sequence[Tile] = (), marked: Sequence[tuple[Tile, str, str]] = ()) -> str:
    """A wooden rack (ıstaka) holding tiles, by colour then number unless ``sort`` is false;
    ``marked``: (tile, kind, title) marks, each on one copy of its tile (:class:`Marks`)."""
    ts = sorted(tiles, key=sort_key) if sort else list(tiles)
    marks = list(highlight)
    todo = list(marked)
    parts = []
    for x in ts:
        cls = ""
        if x in marks:
            marks.remove(x)
            cls = "hl"
        mk = next((m for m in todo if m[0] == x), None)
        if mk is not None:
            todo.remove(mk)
        parts.append(tile_html(x, okey, small=small, classes=cls, mark=None if mk is None else (mk[1], mk[2])))
    return f'<div class="ist-rack">{"".join(parts)}</div>'


def tiles_row(tiles: Iterable[Tile], okey: Tile | None = None, *, small: bool = False) -> str:
    return "".join(tile_html(x, okey, small=small) for x in tiles)


def notation_row(items: Iterable[str], okey: Tile, *, small: bool = False) -> str:
    """Tiles written in log notation (``R6>K9``, ``J``), as solver results give them."""
    from analysis.game import parse_placed

    out = []
    for text in items:
        try:
            out.append(placed_html(parse_placed(text, okey), okey, small=small))
        except ValueError:
            try:
                out.append(tile_html(Tile.parse(text), okey, small=small))
            except ValueError:
                out.append(f"<code>{esc(text)}</code>")
    return "".join(out)


def meld_html(m: TableMeld, owner: str, okey: Tile, *, small: bool = False, mark: str | None = None,
              lang: str = "tr") -> str:
    """A table meld; ``mark``: ``layoff`` (this turn's lay-off goes here) or ``better`` (the
    review's better line lays off here), an outline and a tag in words."""
    tiles = "".join(placed_html(p, okey, small=small) for p in m.tiles)
    kind = {"run": "per", "group": "per", "pair": "çift"}.get(m.kind, m.kind)
    cls, tag, extra = "ist-meld", "", ""
    if mark in ("layoff", "better"):
        key = "mk_layoff" if mark == "layoff" else "mk_layoff_better"
        cls += f" mk-{mark}"
        tag = f'<span class="mk-meld-tag">→ {esc(gw(key, lang))}</span>'
        extra = f' data-mark="{mark}" title="{esc(gw(key + "_title", lang, m=m.index))}"'
    return (f'<span class="{cls}" data-meld="{m.index}"{extra}><div class="own">#{m.index} {esc(kind)} · '
            f'{esc(owner)} · {m.value}{tag}</div>{tiles}</span>')


def seat_html(state: HandState, seat: int, name: str, lang: str, *, total: int | None = None,
              marks: Marks | None = None, hidden: Sequence[Tile] | None = None) -> str:
    """One seat's panel: name, opening badge, thresholds, penalties, score, rack, discards.
    ``hidden``: the rack is drawn as tile backs with their count, after these tiles (the ones the
    viewing seat saw go in), as :func:`hidden_rack` draws a seat-view log's other seats."""
    okey = state.okey
    tomove = (not state.over) and state.turn == seat
    op = state.opened[seat]
    badges = []
    if op is None:
        badges.append(f'<span class="ist-badge closed">{esc(tr("not_opened", lang))}</span>')
    else:
        key = "opened_points" if op.kind == "points" else "opened_pairs"
        badges.append(f'<span class="ist-badge open">{esc(tr(key, lang, v=op.value))}</span>')
    if tomove:
        badges.append(f'<span class="ist-badge move">{esc(tr("to_move", lang))}</span>')
    meta = []
    if op is None and not state.over:
        meta.append(esc(tr("thresholds", lang, p=state.points_threshold(seat), c=state.pairs_threshold(seat))))
    pens = [p for p in state.penalties if p.seat == seat]
    if pens:
        items = ", ".join(f"{p.points:+d} ({link_rules_html(esc(p.rule), lang)})" for p in pens)
        meta.append(f'{esc(tr("penalties", lang))}: {items}')
    if total is not None:
        meta.append(f'{esc(tr("score", lang))}: <b data-score="{seat}">{total}</b>')
    discards = state.discards[seat]
    small = seat in (1, 3)
    pile = tiles_row(discards, okey, small=True) if discards else "—"
    if marks is not None and marks.fed is not None and marks.fed[0] == seat and discards \
            and discards[-1] == marks.fed[1]:  # the discard that fed the finish, on top of the pile
        fed = tile_html(discards[-1], okey, small=True, mark=("fed", _mark_title("fed", discards[-1], lang)))
        pile = tiles_row(discards[:-1], okey, small=True) + fed
    return (f'<div class="ist-seat{" tomove" if tomove else ""}" style="grid-area:{SEAT_AREA[seat]}" '
            f'data-seat="{seat}"><div class="hdr"><span class="name">{esc(name)}</span>'
            f'<span class="meta">#{seat}</span>{"".join(badges)}</div>'
            f'<div class="meta">{" · ".join(meta)}</div>'
            f'{_rack(state, seat, okey, small, lang, marks, hidden)}'
            f'<div class="ist-discards">{esc(tr("discards", lang))}: {pile}</div></div>')


def hidden_rack(count: int, lang: str, *, small: bool = False, known: Iterable[Tile] = (),
                okey: Tile | None = None) -> str:
    """A rack nobody at the table sees (a seat-view log's other seats; the Replay's
    one-player view): ``count`` tile backs and their count, after the ``known`` tiles
    (a taken discard, a swapped okey: every seat saw them go in)."""
    known = list(known)
    backs = "".join('<span class="ist-tile back"></span>' for _ in range(max(0, count)))
    faces = "".join(tile_html(x, okey, small=small) for x in sorted(known, key=sort_key))
    words = esc(sv("hidden_tiles", lang, n=count))
    return (f'<div class="ist-rack ist-hidden{" small" if small else ""}" title="{esc(sv("hidden_rack_title", lang))}"'
            f' data-hidden="{count}">{faces}{backs}<span class="lbl" data-hidden-count="{count}">{words}</span></div>')


def _rack(state: HandState, seat: int, okey: Tile, small: bool, lang: str, marks: Marks | None = None,
          hidden: Sequence[Tile] | None = None) -> str:
    rack = state.racks[seat]
    if hidden is not None:  # one player's view: only what that player saw of this rack
        shown = [x for x in rack if x is not HIDDEN]
        known = []
        for x in hidden:
            if x in shown:
                shown.remove(x)
                known.append(x)
        return hidden_rack(len(rack) - len(known), lang, small=small, known=known, okey=okey)
    n = sum(1 for x in rack if x is HIDDEN)
    if not n:
        marked: list[tuple[Tile, str, str]] = []
        if marks is not None and marks.seat == seat:
            marked = [(x, "played", _mark_title("played", x, lang)) for x in marks.played]
            marked += [(x, "better", _mark_title("better", x, lang)) for x in marks.better if x not in marks.played]
        return rack_html(rack, okey, small=small, marked=marked)
    return hidden_rack(n, lang, small=small, known=[x for x in rack if x is not HIDDEN], okey=okey)


def table_html(state: HandState, players: Sequence[str], lang: str = "tr",
               totals: Sequence[int] | None = None, marks: Marks | None = None, *, viewer: int | None = None,
               known: Mapping[int, Sequence[Tile]] | None = None) -> str:
    """The whole table: four seats around the centre (gösterge, okey, deck, table melds);
    ``marks``: what this step marks on the board (:class:`Marks`).

    ``viewer``: the table as that seat saw it (one player's view): every other rack is
    tile backs with its count (:func:`hidden_rack`, as in a seat-view log), showing only the tiles
    ``known`` to sit there (``{seat: tiles}``: discards the viewer saw taken and not yet placed);
    the deck is always backs with its count."""
    okey = state.okey
    names = list(players) + [f"#{i}" for i in range(len(players), 4)]
    centre = [
        '<div class="ist-center"><div class="top">',
        f'<div><div class="lbl">{esc(tr("indicator", lang))}</div>{tile_html(state.indicator, okey)}</div>',
        f'<div><div class="lbl">{esc(tr("okey", lang))}</div>{tile_html(okey, okey)}</div>',
        (f'<div><div class="lbl">{esc(tr("deck", lang))}</div><span class="ist-deck">'
         f'<span class="ist-tile back"></span><b data-deck="{state.deck_count}">'
         f'{esc(tr("deck_count", lang, n=state.deck_count))}</b></span></div>'),
        '</div>',
    ]
    melds = [m for m in state.table if m is not None]
    if melds:
        centre += [meld_html(m, names[m.owner], okey, small=True, lang=lang,
                             mark=None if marks is None else marks.melds.get(m.index)) for m in melds]
    else:
        centre.append(f'<div class="lbl">{esc(tr("no_melds", lang))}</div>')
    if marks is not None and marks.fed is not None and marks.fed_note:
        who, tile = marks.fed
        centre.append(f'<div class="mk-fed-note" data-fed="{tile}">{esc(gw("mk_fed_centre", lang, name=names[who]))} '
                      f'{tile_html(tile, okey, small=True, mark=("fed", _mark_title("fed", tile, lang)))}</div>')
    centre.append("</div>")
    seats = [seat_html(state, s, names[s], lang, total=None if totals is None else totals[s], marks=marks,
                       hidden=None if viewer is None or s == viewer else list((known or {}).get(s, ())))
             for s in range(4)]
    return f'<div class="ist-table">{"".join(seats)}{"".join(centre)}</div>'


def tile_key(tile: Tile, okey: Tile | None, scope: str, i: int) -> str:
    """The widget key of a clickable tile (a button the page's CSS draws as that tile: its colour,
    the okey's gold ring); ``scope`` and ``i`` keep it unique on the page."""
    face = "J-0" if tile.is_joker else f"{tile.colour}-{tile.number}"
    return f"tile-{face}-{'ok-' if okey is not None and tile == okey else ''}{scope}-{i}"


def tile_label(tile: Tile) -> str:
    """The text on a clickable tile: its number (the CSS gives it the colour), the clover for the
    sahte okey."""
    return "♣" if tile.is_joker else str(tile.number)

"""What a person at the Play page asks of the table beyond the engine's yes or no: what a bare okey
in a meld stands for and which discard the rules charge (X3, X4). (A hint is the deep review's own
verdict on the decision, :func:`analysis.review.deep.judge_spot`, asked by the page.) No Streamlit here."""

from __future__ import annotations

from itertools import product

from analysis.game import COLOURS, HandState, Placed, Tile
from analysis.game import melds as M


def _faces() -> list[Tile]:
    return [Tile.parse(f"{c}{n}") for c in COLOURS for n in range(1, 14)]


def with_wilds(group: list[str], okey: Tile, *, pairs: bool = False) -> list[str]:
    """A meld (or pair) as typed or tapped, each bare okey written with the face it stands for
    (``Y10>K5``, T4): the face that makes the meld legal and worth the most. Left as it is when no
    face does (the engine then names the rule) or when every okey already says what it is."""
    spots = [i for i, x in enumerate(group) if ">" not in x and Tile.parse(x) == okey]
    if not spots or len(spots) > 2:
        return list(group)
    best: tuple[int, list[str]] | None = None
    faces = _faces()
    for choice in product(faces, repeat=len(spots)):
        trial = list(group)
        for i, f in zip(spots, choice):
            trial[i] = f"{group[i]}>{f}"
        placed = []
        for x in trial:
            if ">" in x:
                phys, face = (Tile.parse(p) for p in x.split(">", 1))
                placed.append(Placed(phys, face, True))
            else:
                t = Tile.parse(x)
                placed.append(Placed(t, okey if t.is_joker else t, False))
        try:
            ordered = M.check_pair(placed) if pairs else M.classify(placed)[1]
        except M.MeldError:
            continue
        worth = M.value(ordered)
        if best is None or worth > best[0]:
            best = (worth, trial)
    return best[1] if best is not None else list(group)


def layoff_wilds(tiles: list[str], state: HandState, meld: int) -> list[str]:
    """Lay-off tiles with a bare okey written as a face the table meld takes (L2), when one does."""
    m = state.table[meld] if 0 <= meld < len(state.table) else None
    if m is None:
        return list(tiles)
    okey = state.okey
    out = []
    for x in tiles:
        if ">" not in x and Tile.parse(x) == okey and m.fit:
            x = f"{x}>{sorted(m.fit, key=lambda f: -f.number)[0]}"
        out.append(x)
    return out


def charged_discard(state: HandState, seat: int, tile: Tile) -> str | None:
    """The rule that charges this discard (X3: the okey, X4: a tile the table takes), or None.
    A discard that empties the rack is never charged."""
    r = state.rules
    if not r.cezali or len(state.racks[seat]) <= 1:
        return None
    if tile == state.okey:
        return "X3"
    if state.fits_table(tile) is not None:
        return "X4"
    return None


__all__ = ["charged_discard", "layoff_wilds", "with_wilds"]

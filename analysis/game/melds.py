"""What a run, a group and a pair are, and their values (RULES M1-M5, L2)."""

from __future__ import annotations

from collections.abc import Sequence

from .tiles import FACES, Placed, Tile

RUN, GROUP, PAIR = "run", "group", "pair"


class MeldError(ValueError):
    """Tiles that do not form the meld they claim to; ``rule`` is the rule they break."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def classify(ts: Sequence[Placed]) -> tuple[str, list[Placed]]:
    """Return (kind, tiles in canonical order) for a valid meld (M1-M3), else raise MeldError."""
    def text() -> str:
        return " ".join(str(t) for t in ts)

    if len(ts) < 3:
        raise MeldError(f"[{text()}] is no meld: a meld has at least 3 tiles", "M1")
    faces = [t.face for t in ts]
    colours = {f.colour for f in faces}
    numbers = {f.number for f in faces}
    if len(numbers) == 1:
        if len(ts) > 4 or len(colours) != len(ts):
            raise MeldError(f"[{text()}] is no group: one number in 3 or 4 different colours", "M2")
        order = "RYBK"
        return GROUP, sorted(ts, key=lambda t: order.index(t.face.colour))
    if len(colours) == 1:
        nums = sorted(f.number for f in faces)
        if len(set(nums)) != len(nums) or nums[-1] - nums[0] != len(nums) - 1:
            raise MeldError(f"[{text()}] is no run: one colour, consecutive numbers, 1 only low", "M3")
        if len(ts) > 13:
            raise MeldError(f"[{text()}] is no run: at most 13 tiles", "M3")
        return RUN, sorted(ts, key=lambda t: t.face.number)
    raise MeldError(f"[{text()}] is no meld: neither one number (group) nor one colour (run)", "M1")


def check_pair(ts: Sequence[Placed]) -> list[Placed]:
    """A pair (M4): two tiles with the same face; a wild tile may complete it."""
    if len(ts) != 2 or ts[0].face != ts[1].face:
        text = " ".join(str(t) for t in ts)
        raise MeldError(f"[{text}] is no pair: two identical tiles", "M4")
    return list(ts)


def value(ts: Sequence[Placed]) -> int:
    """M5: the sum of the faces the tiles count as."""
    return sum(t.face.number for t in ts)


def fits(kind: str, meld: Sequence[Placed], face: Tile) -> str | None:
    """Where a tile of this face could be laid off (L2): 'low', 'high', 'group', or None."""
    if face.is_joker:
        return None
    if kind == RUN:
        c = meld[0].face.colour
        lo, hi = meld[0].face.number, meld[-1].face.number
        if face.colour != c:
            return None
        if face.number == lo - 1:
            return "low"
        if face.number == hi + 1:
            return "high"
        return None
    if kind == GROUP:
        if len(meld) < 4 and face.number == meld[0].face.number and face.colour not in {t.face.colour for t in meld}:
            return "group"
    return None


def fitting_faces(kind: str, meld: Sequence[Placed]) -> frozenset[Tile]:
    """Every face that :func:`fits` the meld (L2): at most two for a run, the missing colours
    of a group, none for a pair."""
    if kind == RUN:
        first, last = meld[0].face, meld[-1].face
        c, lo, hi = first.colour, first.number, last.number
        if lo > 1:
            return frozenset((_FACE[c, lo - 1], _FACE[c, hi + 1])) if hi < 13 else frozenset((_FACE[c, lo - 1],))
        return frozenset((_FACE[c, hi + 1],)) if hi < 13 else frozenset()
    if kind == GROUP and len(meld) < 4:
        n = meld[0].face.number
        have = {t.face.colour for t in meld}
        return frozenset(_FACE[c, n] for c in "RYBK" if c not in have)
    return frozenset()


_FACE: dict[tuple[str, int], Tile] = {(t.colour, t.number): t for t in FACES}

"""Tiles and their notation (RULES T1-T6, LOG_FORMAT "Tiles").

A physical tile is a :class:`Tile`: a colour letter and a number (``R7``), or the false
okey ``J``. Inside melds and pairs a wild tile says what it stands for: ``R6>K9``; that is a
:class:`Placed` tile. Every conversion between notation and values lives here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

COLOURS = "RYBK"  # kırmızı, sarı, mavi, siyah
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "K": "black"}
JOKER = "J"  # sahte okey
_INTERNED: dict[tuple[str, int], Tile] = {}


class NotationError(ValueError):
    """A tile, meld or pair that cannot be read."""


def brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: error messages quote log values, and a log
    value may be long or deeply nested (the reader bounds both, see analysis.game.log)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deep>"
    return text if len(text) <= limit else text[: limit - 4] + " ..."


_DIGITS = frozenset("0123456789")


@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """A physical tile face: colour in RYBK and number 1-13, or the false okey (colour 'J', 0).

    Tiles are interned: ``Tile("R", 7) is Tile.parse("R7")``, so equality and hashing are by
    identity, which keeps rack and count operations in C (the replay's hot path).
    """

    colour: str
    number: int

    def __new__(cls, colour: str, number: int) -> Tile:
        known = _INTERNED.get((colour, number))
        if known is not None:
            return known
        if not (colour == JOKER and number == 0) and not (colour in COLOURS and 1 <= number <= 13):
            raise NotationError(f"not a tile: {colour}{number} [T1]")
        t = object.__new__(cls)
        _INTERNED[(colour, number)] = t
        return t

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        return (Tile, (self.colour, self.number))

    # ordering by (colour letter, number), as a dataclass with order=True would
    def __lt__(self, other: Tile) -> bool:
        return (self.colour, self.number) < (other.colour, other.number)

    def __le__(self, other: Tile) -> bool:
        return (self.colour, self.number) <= (other.colour, other.number)

    def __gt__(self, other: Tile) -> bool:
        return (self.colour, self.number) > (other.colour, other.number)

    def __ge__(self, other: Tile) -> bool:
        return (self.colour, self.number) >= (other.colour, other.number)

    @property
    def is_joker(self) -> bool:
        return self.colour == JOKER

    @classmethod
    def parse(cls, text: str) -> Tile:
        if not isinstance(text, str):
            raise NotationError(f"tile must be a string, got {brief(text)} [T1]")
        hit = PARSED.get(text)
        if hit is not None:
            return hit
        s = text.strip().upper()
        if s == JOKER:
            return FALSE_OKEY
        # tile numbers are the ASCII digits 1-13 (LOG_FORMAT): 'R²', 'R١' or 'R１' are not tiles
        if len(s) < 2 or s[0] not in COLOURS or not _DIGITS.issuperset(s[1:]):
            raise NotationError(f"not a tile: {brief(text)} [T1]")
        if len(s) > 3 or s[1] == "0" or not 1 <= int(s[1:]) <= 13:
            raise NotationError(f"not a tile: {brief(text)} (numbers are 1-13) [T1]")
        return _TILES[(s[0], int(s[1:]))]

    @property
    def index(self) -> int:
        """0-51 for a face (colour-major), 52 for the false okey: the solver's count-vector slot."""
        return 52 if self.is_joker else COLOURS.index(self.colour) * 13 + self.number - 1

    def __str__(self) -> str:
        return JOKER if self.is_joker else f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


FALSE_OKEY = Tile(JOKER, 0)
_TILES = {(c, n): Tile(c, n) for c in COLOURS for n in range(1, 14)}
FACES: tuple[Tile, ...] = tuple(_TILES[(c, n)] for c in COLOURS for n in range(1, 14))
# the tile of each canonical text, shared by the reader and the engine (a dict hit beats parsing)
PARSED: dict[str, Tile] = {str(t): t for t in FACES} | {JOKER: FALSE_OKEY}
# a tile nobody but its holder saw (a seat-view log's hidden racks, analysis.game.seatview): never
# parsed from a log, worth nothing; interned like every tile so that pickling rebuilds it
HIDDEN: Tile = object.__new__(Tile)
object.__setattr__(HIDDEN, "colour", "?")
object.__setattr__(HIDDEN, "number", 0)
_INTERNED[("?", 0)] = HIDDEN


def tile(text: str) -> Tile:
    return Tile.parse(text)


def tiles(text: str | Iterable[str]) -> list[Tile]:
    """Parse ``"R1 R2 J"`` or a list of strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Tile.parse(t) for t in items]


def full_set() -> Counter[Tile]:
    """The 106 tiles (T1): two of each face and two false okeys."""
    c: Counter[Tile] = Counter({t: 2 for t in FACES})
    c[FALSE_OKEY] = 2
    return c


_FULL = full_set()


def over_copies(held: Counter[Tile]) -> list[tuple[Tile, int]]:
    """The tiles held (counted in ``held``) more often than the set has them (T1), with how often."""
    return [(t, n) for t, n in held.items() if n > _FULL[t]]


def okey_of(indicator: Tile) -> Tile:
    """The okey face for an indicator (T3): same colour, number + 1, 13 wraps to 1."""
    if indicator.is_joker:
        raise NotationError("a false okey cannot be the indicator [T2]")
    return _TILES[(indicator.colour, indicator.number % 13 + 1)]


def fmt(ts: Iterable[object]) -> str:
    return " ".join(str(t) for t in ts)


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile as it lies in a meld or pair: the physical tile and the face it counts as.

    ``wild`` is true for an okey (T4) or a shown indicator twin (O7) standing for ``face``;
    a false okey is never wild and its face is the okey's face (T5).
    """

    physical: Tile
    face: Tile
    wild: bool = False

    def __str__(self) -> str:
        if self.wild:
            return f"{self.physical}>{self.face}"
        return str(self.physical)

    @property
    def value(self) -> int:
        return self.face.number  # T6


def parse_placed(text: str, okey: Tile, twin: Tile | None = None) -> Placed:
    """Read one tile of a meld or pair (LOG_FORMAT "Tiles").

    ``twin`` is the indicator face when the player has shown the indicator twin (O7); it may
    then be written ``R5>B7`` (pairs only: the caller checks where it is used).
    """
    plain = PARSED.get(text) if type(text) is str else None
    if plain is not None and plain is not okey and not plain.is_joker:
        return _PLAIN[plain]  # the common case: a real tile standing for itself
    if not isinstance(text, str):
        raise NotationError(f"tile must be a string, got {brief(text)} [T1]")
    if ">" in text:
        left, _, right = text.partition(">")
        phys = Tile.parse(left)
        face = Tile.parse(right)
        if face.is_joker:
            raise NotationError(f"{brief(text)}: a wild tile stands for a face, not J [T4]")
        if phys.is_joker:
            if face != okey:
                raise NotationError(f"{brief(text)}: a false okey is always {okey} [T5]")
            return Placed(phys, okey, False)
        if phys == okey or (twin is not None and phys == twin):
            return Placed(phys, face, True)
        raise NotationError(f"{brief(text)}: {phys} is not the okey ({okey}) and cannot stand for another tile [T4]")
    phys = Tile.parse(text)
    if phys.is_joker:
        return Placed(phys, okey, False)  # T5
    if phys == okey:
        raise NotationError(f"{brief(text)}: an okey in a meld must say what it stands for, e.g. {okey}>{okey} [T4]")
    return Placed(phys, phys, False)


_PLAIN: dict[Tile, Placed] = {t: Placed(t, t, False) for t in FACES}


def tile_value(t: Tile, okey: Tile) -> int:
    """The value of a physical tile left in a rack (E5): its face; a false okey the okey's face."""
    return okey.number if t.is_joker else t.number

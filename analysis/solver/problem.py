"""The search's problem and answer: count vectors, weights, lay-off slots (L1-L3), placed runs,
groups, pairs and lay-offs."""

from __future__ import annotations

from dataclasses import dataclass, field

NEG = -(1 << 62)
Weights = tuple[int, int, int, int]  # ar, br, aw, bw


@dataclass(frozen=True, slots=True)
class RunSlot:
    """A table run end (L2) that may take 1..cap tiles of ``colour`` at ``numbers[:k]`` (0-based)."""

    meld: int
    colour: int
    numbers: tuple[int, ...]  # outward from the run: for the low end lo-1, lo-2, ...


@dataclass(frozen=True, slots=True)
class GroupSlot:
    """A table group (L2) of ``number`` (0-based) missing ``colours``."""

    meld: int
    number: int
    colours: tuple[int, ...]


@dataclass(slots=True)
class Problem:
    counts: list[int]  # 52 faces
    wilds: int
    weights: Weights
    runs: bool = True  # new runs and groups may be placed
    pairs: bool = False  # new pairs may be placed (O4, O5, L5)
    required: int | None = None  # P2: a real tile of this face must be placed
    run_slots: tuple[RunSlot, ...] = ()
    group_slots: tuple[GroupSlot, ...] = ()


@dataclass(slots=True)
class Solution:
    score: int
    runs: list[tuple[int, int, int, tuple[int, ...]]] = field(default_factory=list)  # colour, a, b, okey numbers
    groups: list[tuple[int, tuple[int, ...], int]] = field(default_factory=list)  # number, real colours, okeys
    pairs: list[tuple[int, int]] = field(default_factory=list)  # face, okeys in it (0..2)
    run_layoffs: list[tuple[RunSlot, int, tuple[bool, ...]]] = field(default_factory=list)  # slot, k, okey flags
    group_layoffs: list[tuple[GroupSlot, tuple[tuple[int, bool], ...]]] = field(default_factory=list)
    used: int = 0
    wilds_used: int = 0


# ---- per-colour run DP ---------------------------------------------------------------------------


"""Types of the compiled search (analysis/solver/kernel.c); analysis.solver.search.search is the way in."""

# (0, number, new group tiles per colour, okeys in new groups, [(table group, colour, okey?)])
# or (1, run end, tiles laid off, okey? per tile)
Chosen = (tuple[int, int, tuple[int, int, int, int], int, list[tuple[int, int, bool]]]
          | tuple[int, int, int, tuple[bool, ...]])

def search(
    counts: bytes,
    wilds: int,
    ar: int,
    br: int,
    aw: int,
    bw: int,
    runs: bool,
    pairs: bool,
    required: int,
    run_slots: list[tuple[int, bytes]],
    group_slots: list[tuple[int, bytes]],
) -> (
    tuple[int, list[Chosen], list[tuple[int, int, int, tuple[int, ...]]], list[tuple[int, int]]] | None
): ...

"""The exact solver: the best points opening, pairs opening, an opened player's turn (lay-offs,
okey swaps), dangerous discards, and :func:`solve`'s JSON answer for one seat.

Layer 2: it imports only :mod:`analysis.game`. Modules:

- :mod:`.problem`, :mod:`.colours`, :mod:`.search` — the placement search over count vectors
  (Python reference), with :mod:`.kernel` (C, built by ``pip install -e .``) doing the same;
- :mod:`.encoding` — physical tiles and table melds to count vectors and slots, and back;
- :mod:`.plans` — ``best_points_opening``, ``best_pairs_opening`` and the plan types;
- :mod:`.pairs` — the exact pairs answer; :mod:`.turn` — ``best_turn``, ``dangerous``, ``solve``;
- :mod:`.quick` — a fast, inexact meld finder (natural runs and groups, then okeys) that bots and
  the chance-to-open estimate use where exactness is not worth its time.
"""

from .plans import PairsPlan, PointsPlan, TurnPlan, best_pairs_opening, best_points_opening, rack_penalty
from .turn import best_turn, dangerous, finishes, solve

__all__ = ["PairsPlan", "PointsPlan", "TurnPlan", "best_pairs_opening", "best_points_opening", "best_turn",
           "dangerous", "finishes", "rack_penalty", "solve"]

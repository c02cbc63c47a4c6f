"""The review: every decision of every seat graded from that seat's own view, the chance to open,
practice positions and the standalone HTML report.

Imports :mod:`analysis.game`, :mod:`analysis.solver` and :mod:`analysis.players`. Modules:
:mod:`.model` (categories, decisions, mistakes, the version digest), :mod:`.options` (what a seat
could do, priced by the solver), :mod:`.grade` (``review_game``), :mod:`.chance`,
:mod:`.practice`, :mod:`.report`.
"""

from .chance import Chance, chance_to_open, opens_with, unseen_tiles
from .grade import review_game, review_hand, split_turns
from .model import (
                    CATEGORIES,
                    REVIEW_RULES,
                    SEVERITY,
                    SOLVER_VERSION,
                    Decision,
                    GameReview,
                    HandReview,
                    Mistake,
                    severity,
)
from .options import Option, clear_caches, exposure, openings, points_upper_bound
from .practice import PRACTICE_CATEGORIES, Grade, best_tiles, grade
from .report import render

__all__ = ["CATEGORIES", "PRACTICE_CATEGORIES", "REVIEW_RULES", "SEVERITY", "SOLVER_VERSION", "Chance", "clear_caches",
           "Decision", "GameReview", "Grade", "HandReview", "Mistake", "Option", "best_tiles", "chance_to_open",
           "exposure", "grade", "openings", "opens_with", "points_upper_bound", "render", "review_game",
           "review_hand", "severity", "split_turns", "unseen_tiles"]

"""The review: every decision of every seat graded from that seat's own view, the chance to open,
practice positions and the standalone HTML report.

Imports :mod:`analysis.game`, :mod:`analysis.solver`, :mod:`analysis.players` and
:mod:`analysis.evaluate`. Modules: :mod:`.model` (categories, decisions, choices, mistakes, the
version digest), :mod:`.options` (what a seat could do, priced by the solver), :mod:`.grade`
(``review_game``, the quick exact pass), :mod:`.deep` (every decision in expected points),
:mod:`.chance`, :mod:`.practice`, :mod:`.report` (HTML and JSON), :mod:`.winprob` (the chance to
win the game from the totals and the hands left).
"""

from .chance import Chance, chance_to_open, opens_with, unseen_tiles
from .grade import review_game, review_hand, split_turns
from .model import (CATEGORIES, CATEGORY_KIND, CONFIRM, DEEP_BUDGET, DEEP_VERSION, FORCED, RATE_OVER, REVIEW_RULES, SEVERITY, SOLVER_VERSION, Choice, Decision, GameReview,
                    HandReview, Mistake, bad_move_rates, severity)
from .moments import Moment, key_moments
from .options import Option, clear_caches, exposure, openings, points_upper_bound
from .practice import PRACTICE_CATEGORIES, Grade, best_tiles, grade
from .report import render

__all__ = ["CATEGORIES", "CATEGORY_KIND", "CONFIRM", "DEEP_BUDGET", "DEEP_VERSION", "FORCED", "PRACTICE_CATEGORIES", "RATE_OVER", "REVIEW_RULES",
           "SEVERITY", "SOLVER_VERSION", "Chance", "Choice", "Decision", "GameReview", "Grade", "HandReview",
           "Mistake", "Moment", "Option", "bad_move_rates", "best_tiles", "chance_to_open", "clear_caches", "exposure", "grade", "key_moments", "openings", "opens_with", "points_upper_bound", "render",
           "review_game", "review_hand", "severity", "split_turns", "unseen_tiles"]

"""The evaluator: expected hand score per candidate decision, from one seat's view."""

from .core import (
                   DEFAULT_BUDGET,
                   PRICE_WORLDS,
                   Candidate,
                   Evaluation,
                   best,
                   candidates,
                   decision_of,
                   discard_candidate,
                   draw_candidate,
                   evaluate,
                   place_candidate,
                   price,
                   take_candidate,
                   unseen_tiles,
)
from .calibration import expected
from .clairvoyant import ClairvoyantBot
from .expert import CarelessExpertBot, DealtExpertBot, ExpertBot, UniformExpertBot

__all__ = ["DEFAULT_BUDGET", "PRICE_WORLDS", "Candidate", "CarelessExpertBot", "ClairvoyantBot", "DealtExpertBot", "Evaluation", "ExpertBot", "best",
           "candidates", "decision_of", "discard_candidate", "draw_candidate", "evaluate", "expected",
           "place_candidate", "price", "take_candidate",
           "UniformExpertBot", "unseen_tiles"]

"""The players: what one seat sees (:class:`View`) and the bots that decide from it.

Layer 3: imports :mod:`analysis.game` and :mod:`analysis.solver`. A bot never sees another rack
or the deck: the game loop hands it a View. Bots: ``random`` (any legal move), ``greedy`` (the
quick meld finder, opens as soon as it can), ``solver`` (the exact solver for openings and turns).
The registry of every bot by name, the expert included, is :mod:`analysis.selfplay.bots`.
"""

from .bots import Bot, GreedyBot, RandomBot, discard_order, greedy_opening, opened_moves
from .solver_bot import (SolverBot, choose_opening, finishing_below, group_text, layoff_events, opening_plans,
                         playable, turn_events)
from .view import Event, View, event, layoff_moves, redact, swap_moves, usefulness

__all__ = ["Bot", "Event", "GreedyBot", "RandomBot", "SolverBot", "View", "choose_opening", "discard_order", "event",
           "finishing_below", "greedy_opening", "group_text", "layoff_events", "layoff_moves", "opened_moves",
           "opening_plans", "playable", "redact", "swap_moves", "turn_events", "usefulness"]

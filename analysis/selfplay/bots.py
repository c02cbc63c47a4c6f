"""Every bot by name: the registry ``istaka simulate --bots`` and the sample draw from."""

from __future__ import annotations

import random

from analysis.evaluate import CarelessExpertBot, ClairvoyantBot, DealtExpertBot, ExpertBot, UniformExpertBot
from analysis.players import Bot, GreedyBot, RandomBot, SolverBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "solver": SolverBot, "expert": ExpertBot,
                              "expert-uniform": UniformExpertBot, "expert-careless": CarelessExpertBot,
                              "expert-dealt": DealtExpertBot, "clairvoyant": ClairvoyantBot}


def make_bot(kind: str, rng: random.Random) -> Bot:
    """A new bot of ``kind`` drawing its randomness from ``rng``; ValueError names the known kinds."""
    try:
        return BOTS[kind](rng)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; bots are {', '.join(BOTS)}") from None


__all__ = ["BOTS", "make_bot"]

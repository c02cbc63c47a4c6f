"""The `solver` bot's decisions (placeholder until analysis.solver lands)."""
from __future__ import annotations
from typing import Any
from .bots import GreedyBot, View
import random
_G = GreedyBot(random.Random(0))
def place(v: View) -> list[dict[str, Any]]:
    return _G.place(v)
def take(v: View) -> bool:
    return _G.take(v)
def declare(v: View) -> bool:
    return _G.declare(v)

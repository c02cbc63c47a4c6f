"""The ``clairvoyant`` bot: the expert's decisions judged in one world, the real one.

It sees every rack and the deck order (the game loop hands it the true hand as ``oracle``) and
prices each candidate of the expert's decisions by one compiled rollout from the true position
(:class:`.fast.Position`). Not a player anyone could be: the limit of what information is worth
to this evaluator. The share of the solver-to-clairvoyant gap the expert closes tells how much
of the information a player can have the expert uses. Without an oracle (a bot played outside
the simulator) it plays as the expert does.
"""

from __future__ import annotations

from typing import Any

from analysis.players import View

from . import fast
from .core import Candidate
from .expert import ExpertBot


class ClairvoyantBot(ExpertBot):
    """The expert with the true racks and deck: one world, the real one."""

    kind = "clairvoyant"
    clairvoyant = True
    oracle: Any = None  # set by the game loop: an object whose ``state`` is the true hand

    def _choose(self, v: View, cands: list[Candidate], what: str, default: int = 0) -> Candidate:
        st = getattr(self.oracle, "state", None)
        if st is None or fast.COMPILED is None or st.deck is None or st.turn != v.seat:
            return super()._choose(v, cands, what, default)
        pos = fast.Position(v.state, v.seat)
        world = pos.world(st.racks, st.deck)
        vals = [pos.value(world, c.kind, c.events, c.tile if c.kind == "discard" else None) for c in cands]
        best = min(range(len(cands)), key=lambda i: (vals[i], i != default))
        return cands[best]


__all__ = ["ClairvoyantBot"]

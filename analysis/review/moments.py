"""Key moments: per player, the 3–5 costliest decisions of a reviewed game, each with
its one-line lesson and the replay step to open. The Review page opens on them and the HTML
report (:mod:`.report`) starts with them; both take them from here.

A deep review's moment is one graded decision (a take, a placing or a discard) in expected
points; a quick review's is one turn, its cost the sum of its findings, shown at its costliest
finding's step. Only decisions that cost something count. The rule: the three costliest; a fourth
and a fifth only when they cost at least :data:`MORE_OVER` points (a "mistake", SEVERITY) or tie
the last one kept. Equal costs go in game order (hand, then step), so the choice is stable.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lesson import REASONS, describe, sentence
from .model import Decision, GameReview, severity
from .words import category_name, definition

MIN_MOMENTS = 3  # always shown when the player has that many costly decisions
MAX_MOMENTS = 5
MORE_OVER = 30.0  # a 4th or 5th moment must cost this many points (SEVERITY's "mistake")
KIND_ORDER = {"show": 0, "take": 1, "place": 2, "discard": 3, "turn": 4}


@dataclass(frozen=True, slots=True)
class Moment:
    """One of a player's costliest decisions: where it was (hand number and its 1-based place
    ``ord`` in the game, the hand's turn, the replay step to open), what kind, what it cost, and
    its lesson in the language asked for."""

    seat: int
    player: str
    ord: int
    hand: int
    turn: int
    step: int
    kind: str  # take, place, discard, show (deep) or turn (quick)
    cost: float
    category: str | None
    lesson: str
    played: str = ""
    best: str = ""

    @property
    def severity(self) -> str:
        return severity(round(self.cost))


def _quick_lesson(d: Decision, lang: str) -> tuple[str, str | None, int]:
    """(lesson, category, step) of a quick-reviewed turn: its costliest finding's name and why."""
    m = max(d.mistakes, key=lambda x: (x.cost, -x.step))
    why = REASONS.get(m.category, {}).get(lang) or definition(m.category, lang)
    name = category_name(m.category, lang)
    return f"{name[0].upper() + name[1:]}: {why}.", m.category, m.step


def candidates(gr: GameReview, lang: str = "en") -> list[Moment]:
    """Every decision of the game that cost something, as a moment (not yet picked)."""
    out: list[Moment] = []
    for h in gr.hands:
        for d in h.decisions:
            name = gr.players[d.seat] if d.seat < len(gr.players) else f"#{d.seat}"
            if gr.depth == "deep":
                for c in d.choices:
                    if c.graded and c.cost > 0:
                        out.append(Moment(d.seat, name, h.ord, h.hand, d.turn, c.step, c.kind, float(c.cost),
                                          c.category, sentence(c, lang), describe(c.played_events, c.played, lang),
                                          describe(c.best_events, c.best, lang)))
            elif d.mistakes and d.cost > 0:
                lesson, cat, step = _quick_lesson(d, lang)
                out.append(Moment(d.seat, name, h.ord, h.hand, d.turn, step, "turn", float(d.cost), cat, lesson))
    return out


def pick(moments: list[Moment]) -> list[Moment]:
    """The key moments among one player's costly decisions, costliest first (module docstring)."""
    ranked = sorted(moments, key=lambda m: (-round(m.cost, 2), m.ord, m.step, KIND_ORDER.get(m.kind, 9)))
    out: list[Moment] = []
    for m in ranked:
        if len(out) >= MAX_MOMENTS:
            break
        if len(out) < MIN_MOMENTS or m.cost >= MORE_OVER or round(m.cost, 2) == round(out[-1].cost, 2):
            out.append(m)
        else:
            break
    return out


def key_moments(gr: GameReview, lang: str = "en") -> list[list[Moment]]:
    """Per seat (0–3), its key moments, costliest first; a seat without a costly decision has none."""
    if lang not in ("tr", "en"):
        raise ValueError(f"lang must be 'tr' or 'en', not {lang!r}")
    every = candidates(gr, lang)
    return [pick([m for m in every if m.seat == s]) for s in range(4)]


__all__ = ["MAX_MOMENTS", "MIN_MOMENTS", "MORE_OVER", "Moment", "candidates", "key_moments", "pick"]

"""The review's model: the mistake categories and the decision kind each grades, severities, the
version digests (quick and deep), and the records a review is made of: a turn's Decision, its
deep Choices and its Mistakes, a hand's and a game's review. How a turn is graded is in
:mod:`.grade` (quick, exact checks) and :mod:`.deep` (expected points).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.evaluate.belief import DEALT, MODEL_FILE
from analysis.evaluate.core import BELIEF

# The grading's own number, bumped by hand when the rules of grading change, and a digest of the
# solver's and the review's sources, so that any change to them re-annotates (`istaka analyze`
# redoes every game annotated by another version).
REVIEW_RULES = 1


def solver_files() -> list[Path]:
    """The sources the quick review depends on: the solver's (its compiled kernel and the search it
    shares with the rollout among them) and the quick review's own."""
    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "solver").glob("*.py")) + [root / "solver" / name for name in ("kernel.c", "kernel_search.h")]
    return files + [root / "review" / name for name in ("model.py", "options.py", "grade.py", "checks.py")]


def _sources_digest() -> str:
    return _digest(solver_files())


def _digest(files: list[Path], start: bytes = b"") -> str:
    """The first 10 hex digits of SHA-256 over ``start`` and the files' bytes (a missing file: its name)."""
    h = hashlib.sha256(start)
    for p in files:
        try:
            h.update(p.read_bytes())
        except OSError:
            h.update(p.name.encode())
    return h.hexdigest()[:10]


SOLVER_VERSION = f"review-{REVIEW_RULES}/{_sources_digest()}"

DEEP_BUDGET = 0.04  # seconds of evaluation per decision on one core (the deep review)
CONFIRM = 4  # a deep-review cost that passes on the pricing worlds is priced again on this many times as many


def belief_models(text: str, belief: str = BELIEF) -> bytes:
    """What of the belief's model file the judge's prices depend on under ``belief``: the fitted
    likelihood ratios (they weigh the table belief's worlds; kept for every belief, so that a
    review's version reads as before), and, when the worlds are dealt from the direct reading, its
    features and coefficients too; not the panel's maps kept in the same file, and not the
    reading's coefficients where they deal no world."""
    try:
        got = json.loads(text)
    except ValueError:
        return b""
    if not isinstance(got, dict):
        return json.dumps(None).encode()
    out = json.dumps(got.get("models"), sort_keys=True).encode()
    if belief == DEALT:
        dealt = got.get(DEALT) if isinstance(got.get(DEALT), dict) else {}
        out += json.dumps({k: dealt.get(k) for k in ("features", "coef")}, sort_keys=True).encode()
    return out


def deep_files() -> list[Path]:
    """The sources a deep review's verdicts depend on, besides the solver's: the evaluator's Python
    and its compiled rollout, and the deep review's own."""
    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "evaluate").glob("*.py")) + [root / "evaluate" / "rollout.c"]
    return files + [root / "review" / name for name in ("deep.py", "kinds.py", "reasons.py", "spots.py")]


def _deep_digest() -> str:
    try:
        text = MODEL_FILE.read_text("utf-8")
    except OSError:
        text = ""
    return _digest(deep_files(), SOLVER_VERSION.encode() + belief_models(text))


# the deep review's version names how its worlds were sampled (the belief, or uniform): a review
# can be repeated either way, and the store keeps which one priced it
DEEP_VERSION = f"deep-{BELIEF}-{_deep_digest()}"

CATEGORIES: dict[str, str] = {
    "missed_opening": "could reach the opening threshold this turn (melds or pairs) and did not open",
    "weaker_opening": "opened with a lower value, or left a higher rack, than the best opening of the same kind",
    "missed_take": "did not take the previous discard though it would have opened, and did not open",
    "missed_layoff": "an opened seat left tiles in its rack that lay-offs or new melds/pairs could place",
    "missed_swap": "an opened seat did not take an okey from the table when the best turn does (S1, S2)",
    "missed_finish": "the best turn finishes the hand and the seat did not finish",
    "okey_discard": "discarded an okey though another tile was free of penalty (X3)",
    "layoff_discard": "discarded a tile a table meld would take though another tile was free of penalty (X4)",
    "fed_opening": "the next player took this discard and opened with it (X5; seen only in hindsight)",
    "okey_kept": "the hand ended with an okey in an opened seat's rack that its last turn could place (E5)",
    "pairs_over_melds": "opened with pairs where a melds opening left a lower exposure",
    "melds_over_pairs": "opened with melds where a pairs opening left a lower exposure",
    "failed_opening": "took back an opening or several lay-offs and was charged for it (X2, X7)",
    "missed_take_finish": "drew where taking the previous discard would have finished the hand",
    "last_discard": "the last discard before the deck ran out kept a higher dead tile (the rest is written, E5)",
    "broke_opening": "an unopened discard broke the seat's best opening, near its threshold, while a tile outside it could go",
    "fed_finish": "the next player took this discard and finished with it at once (seen only in hindsight)",
    "worse_take": "drew where taking the previous discard had a lower expected score, or took where drawing had",
    "worse_placing": "placed (or waited) where another placing had a lower expected score",
    "worse_discard": "discarded a tile where another discard had a lower expected score",
    "worse_show": "showed the gösterge twin, or did not, where the other choice had a lower expected score (O7)",
    "worse_declare": "declared çift, or did not, where the other choice had a lower expected score (O10)",
    "worse_layoffs": "laid off tiles, or held them back, where another set of lay-offs had a lower expected score",
}

# the decision kind each category grades, so that a loss is charged once: at its decision
CATEGORY_KIND: dict[str, str] = {
    "missed_take": "take", "missed_take_finish": "take", "worse_take": "take",
    "missed_opening": "place", "weaker_opening": "place", "missed_layoff": "place", "missed_swap": "place",
    "missed_finish": "place", "pairs_over_melds": "place", "melds_over_pairs": "place",
    "failed_opening": "place", "okey_kept": "place", "worse_placing": "place",
    "okey_discard": "discard", "layoff_discard": "discard", "fed_opening": "discard", "worse_discard": "discard",
    "last_discard": "discard", "broke_opening": "discard", "fed_finish": "discard",
    "worse_show": "show", "worse_declare": "place", "worse_layoffs": "place",
}
GENERIC = {"take": "worse_take", "place": "worse_placing", "discard": "worse_discard", "show": "worse_show"}

# why a decision is forced (its candidates cannot differ): not graded, not counted
FORCED: dict[str, str] = {
    "single": "one legal move",
    "take_returned": "the previous discard cannot be kept: an unopened seat that cannot open with it returns it (P2)",
    "identical": "every candidate scored the same in every ranking and pricing world",
}

# the bad-move rate thresholds: share of graded decisions costing more than these expected points
RATE_OVER = (10, 30, 100)

SEVERITY = ((100, "blunder"), (30, "mistake"), (1, "inaccuracy"), (0, "note"))


def bad_move_rates(costs: list[float]) -> dict[str, float | None]:
    """Per threshold N of :data:`RATE_OVER`, the % of these graded decisions costing more than N
    expected points (``{"10": 12.5, "30": 4.0, "100": 0.0}``; None without decisions)."""
    return {str(n): (100.0 * sum(1 for c in costs if c > n) / len(costs) if costs else None) for n in RATE_OVER}


def severity(cost: int) -> str:
    """blunder (>= 100 points), mistake (>= 30), inaccuracy (> 0), note (0: flagged, no cost)."""
    for floor, name in SEVERITY:
        if cost >= floor:
            return name
    return "note"


@dataclass(frozen=True, slots=True)
class Mistake:
    category: str
    seat: int
    cost: int
    step: int  # the step to look at in the replay (the position before the decision)
    line: int
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return severity(self.cost)


@dataclass
class Choice:
    """One decision of a turn graded in expected points (the deep review): ``kind`` is ``take``
    (draw or take the previous discard), ``place`` (open, meld, lay off, swap, or wait) or
    ``discard``. ``candidates`` are the evaluator's, best first: ``{"move", "expected", "se", "n",
    "events"}``; ``cost`` is the expected points the played move loses to the best (0 when the
    difference is within noise, see :mod:`.deep`)."""

    kind: str
    step: int  # the replay step of the position the seat decided in
    line: int
    played: str
    best: str
    expected_played: float
    expected_best: float
    se: float  # standard error of the played-minus-best difference
    cost: float
    candidates: list[dict[str, Any]] = field(default_factory=list)
    played_events: list[dict[str, Any]] = field(default_factory=list)
    category: str | None = None
    ci: float | None = None  # half-width of the paired interval of played - best (Z standard errors)
    worlds: int = 0  # the fixed pricing worlds both were played on (0: not priced)
    forced: str | None = None  # why the candidates cannot differ (FORCED); such a decision is not graded
    reason: dict[str, Any] | None = None  # what the best line does: {"code": ..., fields} (reasons.py)

    @property
    def best_events(self) -> list[dict[str, Any]]:
        return list(self.candidates[0]["events"]) if self.candidates else []

    @property
    def graded(self) -> bool:
        """A real decision: counted in accuracy, decision counts and rates (forced ones are not)."""
        return self.forced is None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "step": self.step, "line": self.line, "played": self.played, "best": self.best,
                "expected_played": round(self.expected_played, 2), "expected_best": round(self.expected_best, 2),
                "se": round(self.se, 2), "cost": round(self.cost, 2), "category": self.category,
                "candidates": self.candidates, "played_events": self.played_events,
                "ci": None if self.ci is None else round(self.ci, 2), "worlds": self.worlds, "forced": self.forced,
                "reason": self.reason}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Choice:
        return cls(d["kind"], d["step"], d["line"], d["played"], d["best"], d["expected_played"],
                   d["expected_best"], d["se"], d["cost"], list(d.get("candidates") or []),
                   list(d.get("played_events") or []), d.get("category"), d.get("ci"), int(d.get("worlds") or 0),
                   d.get("forced"), d.get("reason"))


@dataclass
class Decision:
    """One turn of one seat: what was played, what was best, and the mistakes found."""

    ord: int
    hand: int
    seat: int
    turn: int  # 0, 1, ... within the hand
    start: int  # step where the seat holds its tiles to play (after the draw or take)
    end: int  # step of its discard (or the hand's last step)
    line: int
    choice: str  # start (the starter's first turn), draw, take, returned (took, gave back, drew)
    take_opens: bool | None  # would the previous discard have opened (None: no discard to take)
    opened_before: bool
    played: dict[str, Any]
    best: dict[str, Any]
    exposure_played: int
    exposure_best: int
    mistakes: list[Mistake] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)  # the deep review's, in the turn's order

    @property
    def cost(self) -> float:
        """Expected points lost (deep review), else the quick pass's exposure cost."""
        if self.choices:
            return sum(c.cost for c in self.choices)
        return sum(m.cost for m in self.mistakes)

    @property
    def agrees(self) -> bool:
        if self.choices:
            return all(c.cost == 0 for c in self.choices)
        return not self.mistakes


@dataclass
class HandReview:
    ord: int
    hand: int
    result: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def mistakes(self) -> list[Mistake]:
        return [m for d in self.decisions for m in d.mistakes]


@dataclass
class GameReview:
    game: str
    variant: str
    players: list[str]
    hands: list[HandReview] = field(default_factory=list)
    version: str = SOLVER_VERSION
    depth: str = "quick"  # or "deep": every decision graded in expected points

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: turns, graded decisions, forced ones (deep: not graded, not counted), agreement
        with the best (%), accuracy (% of graded decisions played at the best), cost, cost per hand,
        hands played, mistakes by category, and the bad-move rates (:func:`bad_move_rates`)."""
        out = []
        n_hands = max(1, sum(1 for h in self.hands if h.decisions))
        for s in range(4):
            ds = [d for d in self.decisions if d.seat == s]
            cats: dict[str, int] = {}
            for d in ds:
                for m in d.mistakes:
                    cats[m.category] = cats.get(m.category, 0) + 1
            cost = sum(d.cost for d in ds)
            forced = 0
            if self.depth == "deep":
                graded = [c.cost for d in ds for c in d.choices if c.graded]
                forced = sum(1 for d in ds for c in d.choices if not c.graded)
            else:
                graded = [float(d.cost) for d in ds]
            hands = sum(1 for h in self.hands if any(d.seat == s for d in h.decisions))
            out.append({"seat": s, "player": self.players[s] if s < len(self.players) else f"#{s}",
                        "decisions": len(ds), "graded": len(graded), "forced": forced,
                        "agreement": 100.0 * sum(d.agrees for d in ds) / len(ds) if ds else None,
                        "accuracy": 100.0 * sum(1 for c in graded if c == 0) / len(graded) if graded else None,
                        "cost": cost, "cost_per_hand": cost / n_hands, "hands": hands,
                        "mistakes": sum(cats.values()), "by_category": cats,
                        "rates": bad_move_rates(graded)})
        return out


# ---- the solver, cached per position and skipped when the verdict cannot change ---------------

"""A small builder for hand-crafted game logs (docs/log-format.md v1) and their expected replay.

It knows tiles and who holds them, nothing of the rules: it keeps every rack, the deck, the
discard pile and the table as multisets and asserts that the 106 tiles (T1) are accounted
for after every event, so a golden log is at least physically possible. Whether a move is
*legal*, and what it scores, is written by hand in the scenarios (docs/rules.md), never computed
here: the point of the corpus is to check the engine against the rules, not against itself.

    f = LogFile()
    g = f.game("g2", variant="101", hands=1)
    h = g.hand(1, starter=0, indicator="Y6", racks={0: "R1 R2 ...", 1: "K9 *"}, deck="B7 K13")
    h.discard(0, "R9"); h.draw(1); ...
    h.expect("finish", finisher=0, kinds=["okey"], scores=[-202, 46, 10, 404])
    f.write(Path("tests/data/golden"), "g2_worked_example")

A rack written with a trailing ``*`` is filled up to the deal size from the unassigned tiles
(deterministically); use that only for players whose rack never decides a score.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GOLDEN_DIR = REPO / "tests" / "data" / "golden"
PLAYERS = ["Ali", "Ayşe", "Mehmet", "Zeynep"]
DEAL = {"101": 21, "101-classic": 21, "51": 14}


def full_set() -> Counter[str]:
    """The 106 tiles (T1)."""
    c: Counter[str] = Counter({f"{col}{n}": 2 for col in "RYBK" for n in range(1, 14)})
    c["J"] = 2
    return c


ALL_TILES = full_set()


def split(text: str | Iterable[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def run(colour: str, lo: int, hi: int) -> str:
    """``run("R", 3, 6)`` -> ``"R3 R4 R5 R6"``."""
    return " ".join(f"{colour}{n}" for n in range(lo, hi + 1))


def physical(placed: str) -> str:
    """The physical tile of a meld entry: ``R6>K9`` -> ``R6``; ``J>R6`` -> ``J``."""
    return placed.split(">")[0]


def face_sum(tiles: str | Iterable[str], okey_face: str | None = None) -> int:
    """Sum of face numbers (for the author's own arithmetic checks only)."""
    total = 0
    for t in split(tiles):
        face = t.split(">")[-1]
        if face == "J":
            assert okey_face, "J needs the okey face"
            face = okey_face
        total += int(face[1:])
    return total


class BuildError(AssertionError):
    pass


class LogFile:
    """The lines of one .jsonl file and the expected replay of its games."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.games: list[Game] = []
        self.exit_code: int | None = None

    def add(self, obj: dict[str, Any] | str) -> int:
        """Append an event (or a raw line); return its 1-based line number."""
        if isinstance(obj, str):
            self.lines.append(obj)
        else:
            self.lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        return len(self.lines)

    def game(self, gid: str, variant: str = "101", rules: dict[str, Any] | None = None,
             hands: int = 1, players: Sequence[str] = PLAYERS, **extra: Any) -> Game:
        g = Game(self, gid, variant, rules, hands, list(players), extra)
        self.games.append(g)
        return g

    def expected(self) -> dict[str, Any]:
        games = [g.expected() for g in self.games if g.expect_game]
        exit_code = self.exit_code
        if exit_code is None:
            exit_code = 0 if all(x["valid"] for x in games) else 1
        return {"exit_code": exit_code, "games": games}

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def write(self, directory: Path, name: str) -> tuple[Path, Path]:
        directory.mkdir(parents=True, exist_ok=True)
        log = directory / f"{name}.jsonl"
        exp = directory / f"{name}.expected.json"
        log.write_text(self.text(), encoding="utf-8")
        exp.write_text(json.dumps(self.expected(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return log, exp


class Game:
    def __init__(self, f: LogFile, gid: str, variant: str, rules: dict[str, Any] | None,
                 hands: int, players: list[str], extra: dict[str, Any]) -> None:
        self.f = f
        self.gid = gid
        self.variant = variant
        self.deal = DEAL.get(variant, 21)
        if rules and "deal" in rules:
            d = rules["deal"]
            self.deal = d[0] if isinstance(d, list) else d
        self.hand_list: list[Hand] = []
        self.match_points: list[int] | None = None
        self.expect_game = True
        self.valid: bool | None = None
        ev: dict[str, Any] = {"type": "game", "game": gid, "variant": variant, "players": players}
        if rules:
            ev["rules"] = rules
        ev["hands"] = hands
        ev["started"] = "2026-11-01T20:00:00+03:00"
        ev["site"] = "istaka-golden"
        ev.update(extra)
        self.line = f.add(ev)

    def hand(self, n: int, starter: int, indicator: str, racks: dict[int, str],
             deck: str = "", deal: int | None = None, seed: int | None = None,
             give_deck: bool = True) -> Hand:
        h = Hand(self, n, starter, indicator, racks, deck, deal or self.deal, seed, give_deck)
        self.hand_list.append(h)
        return h

    def expected(self) -> dict[str, Any]:
        totals = [0, 0, 0, 0]
        hands = []
        for h in self.hand_list:
            if h.exp is None:
                raise BuildError(f"{self.gid} hand {h.n}: no expectation")
            for s in range(4):
                totals[s] += h.exp["scores"][s]
            for seat, pts, _rule in h.exp["penalties"]:
                totals[seat] += pts
            hands.append(h.exp)
        valid = self.valid
        if valid is None:
            valid = all(x["result"] != "invalid" for x in hands)
        return {"game": self.gid, "variant": self.variant, "valid": valid, "totals": totals,
                "match_points": self.match_points, "hands": hands}


class Hand:
    def __init__(self, game: Game, n: int, starter: int, indicator: str, racks: dict[int, str],
                 deck: str, deal: int, seed: int | None, give_deck: bool) -> None:
        self.g = game
        self.n = n
        self.starter = starter
        self.indicator = indicator
        self.exp: dict[str, Any] | None = None
        pool = ALL_TILES.copy()
        pool[indicator] -= 1
        want: dict[int, list[str]] = {}
        fill: set[int] = set()
        for s in range(4):
            items = split(racks.get(s, "*"))
            if items and items[-1] == "*":
                fill.add(s)
                items = items[:-1]
            want[s] = items
            for t in items:
                pool[t] -= 1
        front = split(deck)
        for t in front:
            pool[t] -= 1
        bad = {t: -c for t, c in pool.items() if c < 0}
        if bad:
            raise BuildError(f"{game.gid} hand {n}: tiles used more than twice: {bad}")
        rest = sorted(pool.elements(), key=lambda t: (t == "J", t[0], int(t[1:]) if t != "J" else 0))
        random.Random(seed if seed is not None else f"{game.gid}/{n}").shuffle(rest)
        for s in range(4):
            size = deal + (1 if s == starter else 0)
            if s in fill:
                need = size - len(want[s])
                if need < 0:
                    raise BuildError(f"{game.gid} hand {n}: seat {s} has {len(want[s])} > {size}")
                want[s] += rest[:need]
                rest = rest[need:]
            elif len(want[s]) != size:
                raise BuildError(f"{game.gid} hand {n}: seat {s} rack has {len(want[s])} tiles, needs {size}")
        self.racks = [Counter(want[s]) for s in range(4)]
        self.deck = front + rest
        self.pile: list[str] = []
        self.last_drawn = ""
        self.table: Counter[str] = Counter()
        self.turn_placed: dict[int, list[str]] = {s: [] for s in range(4)}
        ev: dict[str, Any] = {"type": "hand", "game": game.gid, "hand": n, "starter": starter,
                              "indicator": indicator, "racks": [want[s] for s in range(4)]}
        if give_deck:
            ev["deck"] = list(self.deck)
        self.line = game.f.add(ev)
        self.conserve()

    # -- bookkeeping -----------------------------------------------------------------------
    def conserve(self) -> None:
        c: Counter[str] = Counter(self.deck) + Counter(self.pile) + self.table + Counter([self.indicator])
        for r in self.racks:
            c += r
        if c != ALL_TILES:
            raise BuildError(f"{self.g.gid} hand {self.n}: tiles not conserved: "
                             f"extra {dict(c - ALL_TILES)}, missing {dict(ALL_TILES - c)}")

    def rack(self, seat: int) -> list[str]:
        return sorted(self.racks[seat].elements())

    def _out(self, seat: int, tiles: Iterable[str]) -> None:
        for t in tiles:
            if self.racks[seat][t] <= 0:
                raise BuildError(f"{self.g.gid} hand {self.n}: seat {seat} does not hold {t} "
                                 f"(rack {' '.join(self.rack(seat))})")
            self.racks[seat][t] -= 1
        self.racks[seat] = +self.racks[seat]

    def ev(self, type_: str, seat: int | None = None, **fields: Any) -> int:
        e: dict[str, Any] = {"type": type_, "game": self.g.gid, "hand": self.n}
        if seat is not None:
            e["seat"] = seat
        e.update(fields)
        return self.g.f.add(e)

    # -- events ----------------------------------------------------------------------------
    def discard(self, seat: int, tile: str, check: bool = True) -> int:
        if check:
            self._out(seat, [tile])
            self.pile.append(tile)
            self.turn_placed[seat] = []
            self.conserve()
        return self.ev("discard", seat, tile=tile)

    def draw(self, seat: int, tile: str | None = None, check: bool = True) -> int:
        if check:
            top = self.deck.pop(0)
            if tile is not None and tile != top:
                raise BuildError(f"{self.g.gid} hand {self.n}: draw {tile} but deck top is {top}")
            tile = top
            self.racks[seat][tile] += 1
            self.conserve()
        assert tile is not None
        self.last_drawn = tile
        return self.ev("draw", seat, tile=tile)

    def take(self, seat: int, tile: str | None = None, check: bool = True) -> int:
        if check:
            top = self.pile.pop()
            if tile is not None and tile != top:
                raise BuildError(f"take {tile} but the last discard is {top}")
            tile = top
            self.racks[seat][tile] += 1
            self.conserve()
        assert tile is not None
        return self.ev("take", seat, tile=tile)

    def ret(self, seat: int, tile: str, check: bool = True) -> int:
        if check:
            self._out(seat, [tile])
            self.pile.append(tile)
            self.conserve()
        return self.ev("return", seat, tile=tile)

    def show(self, seat: int, tile: str | None = None, check: bool = True) -> int:
        tile = tile or self.indicator
        if check and self.racks[seat][tile] <= 0:
            raise BuildError(f"seat {seat} cannot show {tile}: not held")
        return self.ev("show", seat, tile=tile)

    def declare(self, seat: int) -> int:
        return self.ev("declare", seat, what="pairs")

    def _place(self, seat: int, groups: Sequence[str | Sequence[str]], check: bool) -> list[list[str]]:
        out = [split(m) for m in groups]
        if check:
            phys = [physical(t) for m in out for t in m]
            self._out(seat, phys)
            self.table.update(phys)
            self.turn_placed[seat] += phys
            self.conserve()
        return out

    def open(self, seat: int, melds: Sequence[str] | None = None, pairs: Sequence[str] | None = None,
             check: bool = True) -> int:
        if melds is not None:
            return self.ev("open", seat, melds=self._place(seat, melds, check))
        assert pairs is not None
        return self.ev("open", seat, pairs=self._place(seat, pairs, check))

    def meld(self, seat: int, melds: Sequence[str] | None = None, pairs: Sequence[str] | None = None,
             check: bool = True) -> int:
        if melds is not None:
            return self.ev("meld", seat, melds=self._place(seat, melds, check))
        assert pairs is not None
        return self.ev("meld", seat, pairs=self._place(seat, pairs, check))

    def layoff(self, seat: int, meld: int, tiles: str, check: bool = True) -> int:
        ts = self._place(seat, [tiles], check)[0]
        return self.ev("layoff", seat, meld=meld, tiles=ts)

    def swap(self, seat: int, meld: int, tiles: str, gets: str, check: bool = True) -> int:
        """Give ``tiles`` to table meld ``meld`` and take the physical okey(s) ``gets``."""
        ts = split(tiles)
        if check:
            self._out(seat, ts)
            self.table.update(ts)
            for t in split(gets):
                if self.table[t] <= 0:
                    raise BuildError(f"swap: {t} not on the table")
                self.table[t] -= 1
                self.racks[seat][t] += 1
            self.table = +self.table
            self.conserve()
        return self.ev("swap", seat, meld=meld, tiles=ts)

    def takeback(self, seat: int, check: bool = True) -> int:
        if check:
            for t in self.turn_placed[seat]:
                self.table[t] -= 1
                self.racks[seat][t] += 1
            self.table = +self.table
            self.turn_placed[seat] = []
            self.conserve()
        return self.ev("takeback", seat)

    def penalty(self, seat: int, points: int, reason: str) -> int:
        return self.ev("penalty", seat, points=points, reason=reason)

    def end(self, reason: str, scores: Sequence[int] | None = None) -> int:
        fields: dict[str, Any] = {"reason": reason}
        if scores is not None:
            fields["scores"] = list(scores)
        return self.ev("end", None, **fields)

    def cycle(self, seats: Iterable[int]) -> None:
        """Each seat in turn draws the deck's top tile and discards it."""
        for s in seats:
            self.draw(s)
            self.discard(s, self.last_drawn)

    # -- expectation -----------------------------------------------------------------------
    def expect(self, result: str, finisher: int | None = None, kinds: Iterable[str] = (),
               scores: Sequence[int] = (0, 0, 0, 0), penalties: Iterable[tuple[int, int, str]] = (),
               error: tuple[int, str] | None = None) -> None:
        assert len(scores) == 4
        self.exp = {
            "hand": self.n,
            "result": result,
            "finisher": finisher,
            "finish_kinds": sorted(kinds),
            "scores": list(scores),
            "penalties": sorted([list(p) for p in penalties]),
            "error": None if error is None else {"line": error[0], "rule": error[1]},
        }


# -- running the CLI ---------------------------------------------------------------------------

def replay(path: Path | str, *extra: str) -> tuple[int, dict[str, Any] | None, str]:
    """Run ``python -m analysis.cli replay PATH --json``; return (exit code, JSON or None, stderr)."""
    proc = subprocess.run([sys.executable, "-m", "analysis.cli", "replay", str(path), "--json", *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    try:
        data = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        data = None
    return proc.returncode, data, proc.stderr


def hand_view(h: dict[str, Any]) -> dict[str, Any]:
    """The parts of a replayed hand that the golden files pin down."""
    err = h.get("error")
    return {
        "hand": h.get("hand"),
        "result": h.get("result"),
        "finisher": h.get("finisher"),
        "finish_kinds": sorted(h.get("finish_kinds") or []),
        "scores": h.get("scores"),
        "penalties": sorted([[p["seat"], p["points"], p["rule"]] for p in h.get("penalties") or []]),
        "error": None if not err else {"line": err.get("line"), "rule": err.get("rule")},
    }

"""Hostile taps on the Play page, at scale.

    python bench/fuzz_play.py [--taps 5000] [--seed 34]

Games of a person against three greedy bots (``101``, ``101-classic``, ``51`` and partners, seeded)
are played through the page's own tap handlers (:mod:`dashboard.state.play_state`: ``act`` behind
every button, ``discard`` behind a rack tile, ``place`` and ``layoff`` behind the build buttons)
on a scratch data folder, by a scripted person who draws, opens when the quick finder can, and
discards. Before each of its taps, hostile ones are sent:

- ``take``: an illegal take (a tile that is not the previous discard, a take with nothing to take
  or after the draw, the okey, P1-P4);
- ``held``: tiles not held (a discard, an opening, a per, a lay-off or an okey swap with a tile
  the rack does not hold, or more copies than it holds; T-rules, O-rules, L2, S2);
- ``seat``: a move for a bot's seat, or out of turn;
- ``junk``: a field of the wrong type, a huge number, deep nesting, unknown fields
  (bench/fuzz_entries.py's ``hostile``), and build texts that do not parse;
- ``stale``: a tap sent by a page still showing an earlier step (the move it offered then);
- ``double``: the person's tap just applied, sent again.

Each must be refused with one line (the page's message; the engine's refusal names its rule,
``[P1]``), and leave the game's file byte for byte as it was. A hostile tap that turns out legal
(a random tile the rack does hold) is played and counted. The same taps also go straight to
:meth:`analysis.selfplay.table.PlayGame.person`: refused with a ``RecordError``, the game unchanged.

Prints the taps per class, refused, legal after all, refusals without a rule ID by class, and
the findings; exit 1 on any finding.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ.pop("ISTAKA_MODE", None)

import streamlit as st  # noqa: E402

from analysis.game import HandState, Tile, full_set  # noqa: E402
from analysis.game.record import RecordError  # noqa: E402
from analysis.players import View, discard_order, greedy_opening  # noqa: E402
from analysis.selfplay import PlayGame, new_game  # noqa: E402
from dashboard.state import play_games, play_state as ps  # noqa: E402
from fuzz_entries import JUNK, hostile  # noqa: E402

VARIANTS = ("101", "101-classic", "51", "partners")
BUILD_JUNK = ["R1 R2 | Z9", "K13>R1 J", "ı" * 300, "| | |", "R1 R1 R1 R1 R1", "J J J", "R0 R14", "r1 y1 b1",
              "R1>R1>R1", "R1 R2 R3 | " * 30, "\x00", "K13>"]
CLASSES = ("take", "held", "seat", "junk", "stale", "double")
Event = dict[str, Any]


class Tally:
    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.legal: Counter[str] = Counter()
        self.no_rule: Counter[str] = Counter()
        self.no_rule_msgs: dict[str, str] = {}
        self.notes: list[str] = []


def _print(g: PlayGame) -> bytes:
    return json.dumps(g.to_dict(), sort_keys=True, default=str).encode()


def _file(db: str, gid: str) -> bytes:
    p = play_games.folder(db) / f"{gid}.json"
    return p.read_bytes() if p.exists() else b""


def _not_held(s: HandState, seat: int, rnd: random.Random, n: int = 1) -> list[str]:
    """``n`` tiles the seat's rack does not hold (a face it holds none of)."""
    held = {str(t) for t in s.racks[seat]}
    faces = sorted({str(t) for t in full_set().elements()} - held)
    return [rnd.choice(faces) for _ in range(n)]


def hostile_taps(g: PlayGame, rnd: random.Random) -> list[tuple[str, Event]]:
    """Hostile moves for the person's present step, by class."""
    s = g.state()
    assert s is not None
    seat = s.turn
    rack = [str(t) for t in s.racks[seat]]
    out: list[tuple[str, Event]] = []
    # illegal takes
    prev = (seat - 1) % 4
    top = str(s.discards[prev][-1]) if s.takeable == prev and s.discards[prev] else None
    wrong = [x for x in _not_held(s, seat, rnd, 3) + rack if x != top]
    out.append(("take", {"type": "take", "seat": seat, "tile": rnd.choice(wrong)}))
    if s.phase == "play" and top is not None:
        out.append(("take", {"type": "take", "seat": seat, "tile": top}))  # after the draw
    if top is None:
        out.append(("take", {"type": "take", "seat": seat, "tile": rnd.choice(rack)}))  # nothing to take
    out.append(("take", {"type": "take", "seat": seat, "tile": str(s.okey)}))
    # tiles not held
    x = _not_held(s, seat, rnd, 3)
    out.append(("held", {"type": "discard", "seat": seat, "tile": x[0]}))
    out.append(("held", {"type": "open", "seat": seat, "melds": [[x[0], x[1], x[2]]]}))
    out.append(("held", {"type": "open", "seat": seat, "pairs": [[x[0], x[0]]] * 5}))
    many = rnd.choice(rack)
    out.append(("held", {"type": "open", "seat": seat, "melds": [[many] * 3]}))
    melds = [m.index for m in s.table if m is not None]
    on = rnd.choice(melds) if melds else 0
    out.append(("held", {"type": "layoff", "seat": seat, "meld": on, "tiles": [x[1]]}))
    out.append(("held", {"type": "swap", "seat": seat, "meld": on, "tiles": [x[2]]}))
    out.append(("held", {"type": "meld", "seat": seat, "melds": [[x[0], x[1], x[2]]]}))
    # a bot's seat, out of turn
    bot = next(k for k in range(4) if not g.is_person(k))
    out.append(("seat", {"type": "draw" if s.phase == "draw" else "discard", "seat": bot,
                         **({} if s.phase == "draw" else {"tile": str(s.racks[bot][0])})}))
    out.append(("seat", {"type": "discard", "seat": rnd.choice([-1, 4, "0", None, 2**40]), "tile": rack[0]}))
    # junk
    true = {"type": "draw", "seat": seat} if s.phase == "draw" else {"type": "discard", "seat": seat, "tile": rack[0]}
    for _ in range(2):
        out.append(("junk", hostile(true, rnd)))
    return out


def _person_move(g: PlayGame) -> Event:
    """The scripted person's next tap at this step: draw; open with the quick finder's opening;
    discard its least useful tile."""
    s = g.state()
    assert s is not None
    seat = s.turn
    if s.phase == "draw":
        return {"type": "draw", "seat": seat}
    if s.opened[seat] is None and s.turn_base is None:
        ev = greedy_opening(View.of(s, seat))
        if ev is not None:
            return dict(ev)
    return {"type": "discard", "seat": seat, "tile": str(discard_order(View.of(s, seat), danger=True)[0])}


class Fuzz:
    def __init__(self, db: str, rnd: random.Random, tally: Tally) -> None:
        self.db, self.rnd, self.t = db, rnd, tally
        self.stale: list[tuple[ps.Step, Event]] = []  # taps the page offered at earlier steps

    def tap(self, cls: str, gid: str, step: ps.Step, ev: Event, *, straight: bool = True) -> bool:
        """A hostile tap through the page's handler (and straight to the game): refused in one line,
        the file unchanged; or legal after all. True when it was played."""
        t = self.t
        t.sent[cls] += 1
        before = _file(self.db, gid)
        g0 = play_games.load(self.db, gid)
        assert g0 is not None
        if straight and cls not in ("stale", "double"):  # the library: a RecordError, nothing changed
            g = PlayGame.from_dict(json.loads(json.dumps(g0.to_dict())))
            fp = _print(g)
            try:
                g.person(json.loads(json.dumps(ev, default=str)))
                legal_lib = True
            except RecordError as e:
                legal_lib = False
                if "\n" in str(e):
                    t.notes.append(f"{cls}: a two-line refusal from the game: {str(e)[:120]!r}")
                if _print(g) != fp:
                    t.notes.append(f"{cls}: a refused move changed the game: {json.dumps(ev, default=str)[:160]}")
            except Exception as e:  # noqa: BLE001 - what this bench looks for
                t.notes.append(f"{cls}: {type(e).__name__} from the game on {json.dumps(ev, default=str)[:160]}: {e}")
                return False
        st.session_state.pop(ps.MSG, None)
        try:
            if ev.get("type") == "discard" and cls not in ("seat", "junk"):
                ps.discard(self.db, gid, step, int(ev["seat"]), str(ev["tile"]))
                played = ps.MSG not in st.session_state
            else:
                played = ps.act(self.db, gid, step, ev)
        except Exception as e:  # noqa: BLE001
            t.notes.append(f"{cls}: {type(e).__name__} from the page's tap on {json.dumps(ev, default=str)[:160]}: {e}")
            return False
        said = st.session_state.pop(ps.MSG, None)
        if played:
            if cls in ("stale", "double"):
                t.notes.append(f"{cls}: a tap from an earlier step was played: {json.dumps(ev, default=str)[:160]}")
            elif straight and not legal_lib:
                t.notes.append(f"{cls}: the page played what the game refuses: {json.dumps(ev, default=str)[:160]}")
            t.legal[cls] += 1
            return True
        t.refused[cls] += 1
        if said is None or "\n" in said[1].strip():
            t.notes.append(f"{cls}: the refusal is not one line: {said!r}"[:200])
        elif not _ruled(said[1]):
            t.no_rule[cls] += 1
            t.no_rule_msgs.setdefault(cls, said[1][:160])
        if _file(self.db, gid) != before:
            t.notes.append(f"{cls}: a refused tap changed the game file: {json.dumps(ev, default=str)[:160]}")
        if straight and cls not in ("stale", "double") and legal_lib:
            t.notes.append(f"{cls}: the game takes what the page refused: {json.dumps(ev, default=str)[:160]}")
        return False

    def build_taps(self, gid: str, step: ps.Step, seat: int) -> None:
        """Build texts that do not parse or hold tiles not held, through the build buttons."""
        t = self.t
        key = "pl_build~fuzz"
        for fn, args in ((ps.place, ("open", "melds")), (ps.place, ("open", "pairs")), (ps.place, ("meld", "melds")),
                         (ps.layoff, ("layoff",)), (ps.layoff, ("swap",))):
            st.session_state[key] = self.rnd.choice(BUILD_JUNK)
            st.session_state["pl_on~fuzz"] = self.rnd.choice([0, 1, 99, -1, "x", None])
            before = _file(self.db, gid)
            t.sent["junk"] += 1
            st.session_state.pop(ps.MSG, None)
            try:
                if fn is ps.place:
                    ps.place(self.db, gid, step, seat, args[0], args[1], key)
                else:
                    ps.layoff(self.db, gid, step, seat, args[0], key, "pl_on~fuzz")
            except Exception as e:  # noqa: BLE001
                t.notes.append(f"build {args} {st.session_state[key][:40]!r}: {type(e).__name__}: {e}"[:200])
                continue
            said = st.session_state.pop(ps.MSG, None)
            if _file(self.db, gid) != before:
                t.legal["junk"] += 1  # a text that was a legal move after all
                return
            t.refused["junk"] += 1
            if said is None or "\n" in said[1].strip():
                t.notes.append(f"build {args}: the refusal is not one line: {said!r}"[:200])
            elif not _ruled(said[1]):
                t.no_rule["junk"] += 1
                t.no_rule_msgs.setdefault("junk", said[1][:160])

    def person_turn(self, gid: str, budget: int) -> int:
        """Hostile taps, then the person's own tap (then a double tap of it); taps sent."""
        g = play_games.load(self.db, gid)
        assert g is not None
        step = ps.step_of(g)
        sent = 0
        for cls, ev in hostile_taps(g, self.rnd):
            if self.tap(cls, gid, step, ev):
                return sent + 1  # legal after all: the game went its own way
            sent += 1
        s = g.state()
        assert s is not None
        if s.phase == "play" and self.rnd.random() < 0.3:
            self.build_taps(gid, step, s.turn)
            sent += 5
            if ps.step_of(play_games.load(self.db, gid)) != step:  # type: ignore[arg-type]
                return sent
        for old_step, old_ev in self.rnd.sample(self.stale, min(2, len(self.stale))):
            self.tap("stale", gid, old_step, old_ev)
            sent += 1
        g = play_games.load(self.db, gid)
        assert g is not None
        s = g.state()
        assert s is not None
        tries = [_person_move(g)] + [{"type": "discard", "seat": s.turn, "tile": str(x)}
                                     for x in discard_order(View.of(s, s.turn), danger=True)]
        for mine in tries:  # an opening the engine refuses (O1 ...): the person discards instead
            st.session_state.pop(ps.MSG, None)
            if ps.act(self.db, gid, step, mine):
                break
        else:
            self.t.notes.append(f"none of the person's own moves was taken at step {step}: "
                                f"{st.session_state.get(ps.MSG)}"[:200])
            raise RuntimeError("stuck")
        st.session_state.pop(ps.MSG, None)
        self.stale.append((step, mine))
        self.stale = self.stale[-6:]
        self.tap("double", gid, step, mine)
        return sent + 2


def _ruled(text: str) -> bool:
    """Does a refusal name its rule (``[P1]``, a rule ID the page links)?"""
    import re

    return bool(re.search(r"\b[TDPMOLSXEG][0-9]{1,2}\b", text))


def fuzz_play(taps: int, seed: int) -> Tally:
    rnd = random.Random(seed)
    t = Tally()
    with tempfile.TemporaryDirectory(prefix="istaka-fuzz-play-") as d:
        db = str(Path(d) / "fuzz.duckdb")
        f = Fuzz(db, rnd, t)
        sent, k = 0, 0
        while sent < taps:
            k += 1
            variant = VARIANTS[k % len(VARIANTS)]
            seat = rnd.randrange(4)
            seats = ["greedy"] * 4
            seats[seat] = "person"
            g = new_game(f"oyun-20261205-{k:06d}", variant=variant, hands=2, seats=seats, names=list("abcd"),
                         seed=f"fz-{seed}-{k}", starter=rnd.randrange(4))
            play_games.save(db, g)
            f.stale = []
            for _ in range(400):
                play_games.change(db, g.id, PlayGame.bots_until_person)
                g2 = play_games.load(db, g.id)
                assert g2 is not None
                if g2.over:
                    if g2.game_over:
                        break
                    old = ps.step_of(g2)
                    ps.next_hand(db, g.id, old)
                    t.sent["double"] += 1  # "next hand" tapped twice: the second is refused
                    before = _file(db, g.id)
                    st.session_state.pop(ps.MSG, None)
                    ps.next_hand(db, g.id, old)
                    if _file(db, g.id) != before:
                        t.notes.append("a second 'next hand' tap dealt another hand")
                    else:
                        t.refused["double"] += 1
                    st.session_state.pop(ps.MSG, None)
                    f.stale = []
                    continue
                try:
                    sent += f.person_turn(g.id, taps - sent)
                except RuntimeError:
                    break
                if sent >= taps:
                    break
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taps", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=34)
    args = ap.parse_args()
    t0 = time.perf_counter()
    t = fuzz_play(args.taps, args.seed)
    print(f"{sum(t.sent.values())} hostile taps in {time.perf_counter() - t0:.1f} s")
    for c in CLASSES:
        print(f"  {c:7s} sent {t.sent[c]:5d}  refused {t.refused[c]:5d}  legal after all {t.legal[c]:4d}  "
              f"refused without a rule ID {t.no_rule[c]:4d}  {t.no_rule_msgs.get(c, '')!r}")
    print(f"{len(t.notes)} findings")
    for n in t.notes[:20]:
        print("  " + n.replace("\n", " | "))
    return 1 if t.notes else 0


if __name__ == "__main__":
    sys.exit(main())

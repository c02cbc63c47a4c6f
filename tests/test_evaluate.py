"""The evaluator and the expert bot: seat view only, and the forced cases."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from analysis.evaluate import ExpertBot, best, candidates, decision_of, evaluate, expert
from analysis.evaluate.exact import best_placement
from analysis.evaluate.sim import code
from analysis.game import (
    HandState,
    Opening,
    TableMeld,
    Tile,
    apply,
    check_conservation,
    full_set,
    melds,
    new_hand,
    okey_of,
    parse_placed,
    preset,
    resolve,
)
from analysis.players import View
from analysis.selfplay import GameSpec, Player, play_game
from analysis.solver import best_points_opening


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


def position(*, rack: str, seat: int = 0, sizes: dict[int, int], table: Sequence[tuple[int, str]] = (),
             opened: dict[int, int] | None = None, known: dict[int, str] | None = None, discards: dict[int, str] | None = None,
             phase: str = "play", takeable: int | None = None, deck: int = 12, indicator: str = "B9",
             variant: str = "101", seed: int = 0) -> HandState:
    """A consistent hand: ``table`` melds (owner, tiles), the unseen rest dealt at random to the
    other racks (``known`` tiles first) and the deck; what is left over lies in seat 2's pile."""
    rules = resolve(variant)
    ind = Tile.parse(indicator)
    okey = okey_of(ind)
    pool = full_set()
    pool.subtract([ind])
    own = tiles(rack)
    pool.subtract(own)
    tab = []
    for i, (owner, text) in enumerate(table):
        ps = [parse_placed(x, okey) for x in text.split()]
        kind, ordered = melds.classify(ps)
        pool.subtract(p.physical for p in ordered)
        tab.append(TableMeld(i, owner, kind, tuple(ordered), (owner,) * len(ordered)))
    piles: list[list[Tile]] = [[], [], [], []]
    for s, text in (discards or {}).items():
        piles[s] = tiles(text)
        pool.subtract(piles[s])
    racks: list[list[Tile]] = [[], [], [], []]
    racks[seat] = own
    for s, text in (known or {}).items():
        racks[s] = tiles(text)
        pool.subtract(racks[s])
    assert all(n >= 0 for n in pool.values())
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    for s, n in sizes.items():
        k = n - len(racks[s])
        racks[s] += rest[:k]
        rest = rest[k:]
    dk, rest = rest[:deck], rest[deck:]
    piles[2] = rest + piles[2]
    ops = tuple(Opening("points", v) if (opened or {}).get(s) else None for s, v in
                ((s, (opened or {}).get(s, 0)) for s in range(4)))
    st = HandState(rules=rules, hand=1, starter=0, indicator=ind, okey=okey,
                   racks=tuple(tuple(r) for r in racks), deck=tuple(dk), deck_count=len(dk),
                   discards=tuple(tuple(p) for p in piles), table=tuple(tab), opened=ops,
                   started=(True,) * 4, turn=seat, phase=phase, takeable=takeable)
    check_conservation(st)
    return st


def test_sampling_reads_only_the_seat_view() -> None:
    """Re-dealing the hidden racks and the deck (same sizes, same public table) changes nothing."""
    rec = play_game(GameSpec("hid", tuple(Player(f"P{k}", "solver") for k in range(4)), "101", None, "h", hands=1))
    ev = next(e for e in rec.events if e["type"] == "hand")
    rules = resolve("101")
    st = new_hand(rules, 1, ev["starter"], Tile.parse(ev["indicator"]), [tiles(" ".join(r)) for r in ev["racks"]],
                  tiles(" ".join(ev["deck"])))
    n = 0
    for e in rec.events:
        if e["type"] in ("hand", "penalty", "end", "game"):
            continue
        st = apply(st, {k: x for k, x in e.items() if k not in ("game", "hand", "t")})
        n += 1
        if e["type"] == "discard" and n > 12 and not st.over:
            break
    seat = st.turn
    st = apply(st, {"type": "draw", "seat": seat, "tile": str(st.deck[0])})
    hidden = [t for s in range(4) if s != seat for t in st.racks[s]] + list(st.deck)
    random.Random(5).shuffle(hidden)
    racks = []
    pos = 0
    for s in range(4):
        if s == seat:
            racks.append(st.racks[s])
        else:
            racks.append(tuple(hidden[pos:pos + len(st.racks[s])]))
            pos += len(st.racks[s])
    other = HandState(**{**{f: getattr(st, f) for f in st.__dataclass_fields__}, "racks": tuple(racks),
                         "deck": tuple(hidden[pos:])})
    assert other.racks != st.racks and other.deck != st.deck
    v1, v2 = View.of(st, seat), View.of(other, seat)
    cs = candidates(v1, "discard")
    assert len(cs) > 1
    a = evaluate(v1, cs, seed=3, budget=10.0, min_worlds=12, max_worlds=12)
    b = evaluate(v2, candidates(v2, "discard"), seed=3, budget=10.0, min_worlds=12, max_worlds=12)
    assert [(e.candidate.label, e.values) for e in a] == [(e.candidate.label, e.values) for e in b]
    c = evaluate(v1, cs, seed=4, budget=10.0, min_worlds=12, max_worlds=12)
    assert [e.values for e in a] != [e.values for e in c]  # the seed does change the worlds


def test_a_discard_that_lets_the_next_player_finish_is_worse() -> None:
    # seat 1 has opened and holds R5 R6 (seen taken) and one more tile: R7 lets him finish at once;
    # a safe discard keeps seat 0 in the hand, with K11 K12 to lay off on his next turn
    st = position(rack="R7 K11 K12 Y5", sizes={1: 3, 2: 8, 3: 8}, known={1: "R5 R6"},
                  table=[(1, "Y13 B13 R13"), (0, "R10 R11 R12"), (0, "K8 K9 K10")],
                  opened={0: 110, 1: 120})
    v = View.of(st, 0)
    ev = {e.candidate.label: e for e in evaluate(v, candidates(v, "discard"), seed=1, budget=5.0, min_worlds=60,
                                                  max_worlds=60, known={1: tiles("R5 R6")})}
    assert set(ev["discard R7"].values) == {11 + 12 + 5}  # he takes it and finishes in every world
    m, se, _ = ev["discard R7"].diff(ev["discard Y5"])
    assert m > 3 * se
    assert best(list(ev.values())).candidate.label != "discard R7"


def test_taking_a_finishing_discard_beats_drawing() -> None:
    st = position(rack="R5 R6 K9", sizes={1: 8, 2: 8, 3: 8}, table=[(0, "K1 K2 K3"), (1, "Y13 B13 K13")],
                  opened={0: 110, 1: 120}, discards={3: "R7"}, phase="draw", takeable=3)
    v = View.of(st, 0)
    assert decision_of(v) == "draw"
    evs = evaluate(v, candidates(v), seed=2, budget=5.0, min_worlds=30, max_worlds=30)
    by = {e.candidate.kind: e for e in evs}
    assert by["take"].mean < by["draw"].mean
    assert by["take"].mean <= -101  # he finishes for sure
    assert ExpertBot(random.Random(0)).take(v)


def test_okey_is_not_discarded_when_a_free_tile_exists() -> None:
    # indicator B9: the okey is B10
    st = position(rack="B10 Y2 K7 R12 R13", sizes={1: 10, 2: 10, 3: 10}, table=[(1, "Y13 B13 K13")],
                  opened={1: 120})
    v = View.of(st, 0)
    evs = evaluate(v, candidates(v, "discard"), seed=3, budget=5.0, min_worlds=30, max_worlds=30)
    by = {e.candidate.label: e for e in evs}
    assert best(evs).candidate.label != "discard B10"
    assert by["discard B10"].mean > by["discard Y2"].mean
    assert ExpertBot(random.Random(0), worlds=24).discard(v) != Tile.parse("B10")


def test_the_finishing_move_is_chosen_with_one_tile_left() -> None:
    st = position(rack="R5 R6 R7 K9", sizes={1: 8, 2: 8, 3: 8}, table=[(0, "K1 K2 K3"), (1, "Y13 B13 K13")],
                  opened={0: 110, 1: 120})
    v = View.of(st, 0)
    cs = candidates(v, "place")
    evs = evaluate(v, cs, seed=4, budget=5.0, min_worlds=20, max_worlds=20)
    assert best(evs).candidate.label == "best turn"
    bot = ExpertBot(random.Random(0), worlds=24)
    s = st
    for e in bot.place(View.of(s, 0)):
        s = apply(s, e)
    assert s.racks[0] == (Tile.parse("K9"),)
    t = bot.discard(View.of(s, 0))
    s = apply(s, {"type": "discard", "seat": 0, "tile": str(t)})
    assert s.over and s.finisher == 0 and s.scores is not None and s.scores[0] == -101


def test_the_rollout_model_opens_by_the_exact_solver() -> None:
    """The model's meld finder (evaluate/exact.py) is the solver's best points opening (O1, P2, P5):
    the same value, the melds made of the rack's own tiles, the rest kept."""
    rng = random.Random(9)
    okey = Tile.parse("R5")
    rules = preset("101")
    pool = [t for t in full_set().elements()]
    for _ in range(300):
        rack = rng.sample(pool, rng.choice((8, 14, 21, 22)))
        c = [0] * 53
        for t in rack:
            c[code(t, okey)] += 1
        take = rng.choice(rack) if rng.random() < 0.3 else None
        if take is not None and take == okey:
            take = None
        req = -1 if take is None else code(take, okey)
        got = best_placement(c, okey.number, req)
        rest = list(rack)
        if take is not None:
            rest.remove(take)
        plan = best_points_opening(rest, okey, rules=rules, take=take)
        if got is None:
            assert take is not None and not plan.melds
            continue
        value, melds, left = got
        assert value == plan.value
        assert min(left) >= 0 and sum(left) >= 1  # P5: a tile to discard
        placed = sum(m[3] - m[2] + 1 if m[0] == 0 else m[3] for m in melds)
        assert placed + sum(left) == len(rack)
        if take is not None and melds:
            assert left[req] < c[req]  # P2: the taken face is in the opening


def test_expert_plays_legal_hands_in_every_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert, "WORLDS", 8)  # legality, not strength: few worlds
    for variant, rules in (("101", None), ("51", None), ("101-classic", {"esli": True})):
        bots = ("expert", "solver", "greedy", "solver")
        rec = play_game(GameSpec(f"ex-{variant}", tuple(Player(f"P{k}", b) for k, b in enumerate(bots)), variant, rules,
                                 "legal", hands=1))
        assert rec.refused == 0 and rec.finals[-1].over

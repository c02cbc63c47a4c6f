"""Self-play: whole games played by bots through the rules engine, written as LOG_FORMAT v1.

Every move goes through :func:`analysis.engine.apply`, so a bot can never play an illegal move
into a log: what the engine refuses is counted in ``refused`` and replaced by a safe legal
move. The ``penalty`` and ``end`` events are the engine's. The shuffle is ``random.Random``
seeded per game from the run's seed and the game's number, so a game is the same whether it
is played alone, in a batch, or in another process.
"""

from __future__ import annotations

import gzip
import io
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from analysis.game import HandState, IllegalMove, apply, new_hand, process_pool
from analysis.game import dumps
from analysis.game import Rules, resolve
from analysis.game import Tile, full_set
from analysis.players import Bot, View

from .bots import make_bot

Event = dict[str, Any]

# mean think time in milliseconds per decision (a log's `t`); a player's speed scales them
THINK_MS = {"show": 1500, "declare": 2500, "draw": 1800, "take": 2600, "return": 1500,
            "open": 14000, "meld": 7000, "layoff": 3500, "swap": 4500, "takeback": 3000,
            "discard": 3200}


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's player: a name, a bot strength and how fast he thinks (1.0 = average)."""

    name: str
    bot: str = "greedy"
    speed: float = 1.0


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything that fixes one simulated game."""

    game: str
    players: tuple[Player, ...]
    variant: str = "101"
    rules: Mapping[str, Any] | None = None
    seed: str = "0"
    started: str | None = None
    site: str = "istaka-selfplay"
    hands: int | None = None


@dataclass
class GameRecord:
    spec: GameSpec
    events: list[Event] = field(default_factory=list)
    refused: int = 0  # bot moves the engine refused (a bot bug; replaced by a safe move)
    hands_played: int = 0
    void_hands: int = 0
    finals: list[HandState] = field(default_factory=list)  # each hand's last engine state

    def lines(self) -> list[str]:
        return [dumps(e) + "\n" for e in self.events]


class _Hand:
    """One hand being played: the engine state, the events written, the clock."""

    def __init__(self, rec: GameRecord, rules: Rules, number: int, starter: int, rng: random.Random,
                 bots: Sequence[Bot], players: Sequence[Player]) -> None:
        self.rec = rec
        self.rules = rules
        self.number = number
        self.rng = rng
        self.bots = bots
        self.players = players
        self.clock = 0
        tiles = sorted(full_set().elements())
        rng.shuffle(tiles)
        indicator = tiles.pop()
        while indicator.is_joker:  # T2: put back and draw another
            tiles.insert(rng.randrange(len(tiles) + 1), indicator)
            indicator = tiles.pop()
        racks: list[list[Tile]] = []
        pos = 0
        for s in range(4):
            n = rules.dealt_starter if s == starter else rules.deal
            racks.append(sorted(tiles[pos:pos + n]))
            pos += n
        deck = tiles[pos:]
        self.state: HandState = new_hand(rules, number, starter, indicator, racks, deck)
        for bot in bots:  # the clairvoyant bound reads the true hand; no other bot does
            if getattr(bot, "clairvoyant", False):
                bot.oracle = self  # type: ignore[attr-defined]
        self._write({"type": "hand", "starter": starter, "indicator": str(indicator),
                     "racks": [[str(t) for t in r] for r in racks], "deck": [str(t) for t in deck]})

    # ---- writing -----------------------------------------------------------------------------
    def _write(self, ev: Event, *, think: bool = False) -> None:
        out = {"type": ev["type"], "game": self.rec.spec.game, "hand": self.number}
        out.update({k: v for k, v in ev.items() if k != "type"})
        if think:
            seat = ev["seat"]
            mean = THINK_MS.get(ev["type"], 2000) * self.players[seat].speed
            self.clock += max(300, int(self.rng.lognormvariate(0.0, 0.45) * mean))
            out["t"] = self.clock
        self.rec.events.append(out)

    def play(self, ev: Event) -> None:
        """Apply a seat's move through the engine and write it, with any penalty it caused."""
        before = len(self.state.penalties)
        self.state = apply(self.state, ev)
        self._write(ev, think=True)
        for p in self.state.penalties[before:]:
            self._write({"type": "penalty", "seat": p.seat, "points": p.points, "reason": p.rule,
                         "t": self.clock})

    def try_play(self, ev: Event) -> bool:
        try:
            self.play(ev)
            return True
        except IllegalMove:
            self.rec.refused += 1
            return False

    # ---- the hand ----------------------------------------------------------------------------
    def run(self) -> HandState:
        r = self.rules
        st = self.state
        if r.gosterge:
            for k in range(4):
                seat = (st.starter + k) % 4
                if st.indicator in st.racks[seat] and self.bots[seat].show(View.of(self.state, seat)):
                    self.try_play({"type": "show", "seat": seat, "tile": str(st.indicator)})
        self.turns()
        self._write({"type": "end", "reason": self.state.result, "scores": list(self.state.scores or (0,) * 4)})
        return self.state

    def turns(self, limit: int | None = None) -> None:
        """Turns until the hand ends, or ``limit`` of them; takes stop after 200 so that bots that
        keep taking each other's discards cannot stall a hand (the deck always runs out)."""
        ply = 0
        while not self.state.over and (limit is None or ply < limit):
            ply += 1
            if ply > 400:
                raise RuntimeError(f"hand {self.number} of {self.rec.spec.game} does not end")
            self._turn(self.state.turn, ply, may_take=ply <= 200)

    def _turn(self, seat: int, ply: int, may_take: bool = True) -> None:
        """One turn; ``may_take`` false forces draws, so bots that keep taking each other's
        discards cannot stall a hand forever (the deck always runs out)."""
        bot = self.bots[seat]
        s = self.state
        if (s.rules.declare_pairs and not s.declared[seat] and s.opened[seat] is None
                and bot.declare(View.of(s, seat, ply))):
            self.try_play({"type": "declare", "seat": seat, "what": "pairs"})
        if self.state.phase == "draw":
            v = View.of(self.state, seat, ply)
            t = v.takeable()
            if t is None or not may_take or not bot.take(v) or not self.try_play({"type": "take", "seat": seat, "tile": str(t)}):
                self._draw(seat)
        for _ in range(60):
            if self.state.over:
                return  # E3: a void hand ends with the opening
            moves = bot.place(View.of(self.state, seat, ply))
            if not moves:
                break
            if not all(self.try_play(m) for m in moves):
                break
        if self.state.over:
            return
        t = bot.discard(View.of(self.state, seat, ply))
        if self.try_play({"type": "discard", "seat": seat, "tile": str(t)}):
            return
        self._rescue(seat)

    def _draw(self, seat: int) -> None:
        deck = self.state.deck
        assert deck is not None and deck, "a turn begins with a draw only while the deck holds tiles"
        self.play({"type": "draw", "seat": seat, "tile": str(deck[0])})

    def _rescue(self, seat: int) -> None:
        """A refused discard: take back what was placed (O6), return a taken tile (P2), then
        throw the least costly tile."""
        s = self.state
        if s.turn_base is not None and (s.opened_this_turn or s.took_unopened):
            self.play({"type": "takeback", "seat": seat})
        s = self.state
        if s.took is not None and s.took_unopened:
            self.play({"type": "return", "seat": seat, "tile": str(s.took)})
            self._draw(seat)
        s = self.state
        rack = s.racks[seat]
        order = sorted(rack, key=lambda t: (t == s.okey, s.fits_table(t) is not None, -t.number))
        for t in order:
            if self.try_play({"type": "discard", "seat": seat, "tile": str(t)}):
                return
        raise RuntimeError(f"seat {seat} has no legal discard in {self.rec.spec.game} hand {self.number}")


def play_game(spec: GameSpec) -> GameRecord:
    """Play one whole game (G1); void hands (E3) are played again under the same number."""
    rules = resolve(spec.variant, spec.rules)
    hands = spec.hands or rules.hands
    rng = random.Random(f"istaka:{spec.seed}:{spec.game}")
    bots = [make_bot(p.bot, random.Random(rng.getrandbits(64))) for p in spec.players]
    rec = GameRecord(spec)
    header: Event = {"type": "game", "game": spec.game, "variant": spec.variant}
    if spec.rules:
        header["rules"] = dict(spec.rules)
    header["players"] = [p.name for p in spec.players]
    header["hands"] = hands
    if spec.started:
        header["started"] = spec.started
    header["site"] = spec.site
    header["bots"] = [p.bot for p in spec.players]  # an extra field: kept and ignored by readers
    rec.events.append(header)
    starter = rng.randrange(4)
    number = 1
    voids = 0
    while number <= hands:
        for b in bots:
            b.new_deal()
        h = _Hand(rec, rules, number, starter, rng, bots, spec.players)
        end = h.run()
        rec.finals.append(end)
        rec.hands_played += 1
        if end.result == "void" and voids < 20:
            voids += 1
            rec.void_hands += 1
            continue  # E3: the same hand again, same number and starter
        voids = 0
        number += 1
        starter = (starter + 1) % 4
    return rec


def play_on(state: HandState, bots: Sequence[str], seed: int | str = 0, game: str = "play-on",
            turns: int | None = None) -> HandState:
    """The hand of ``state`` played on to its end by ``bots`` (one kind per seat), every move
    through the engine as in :func:`play_game`; ``seed`` fixes the bots' choices. The state's
    racks and deck are the truth the hand is played on (a world sampled from a seat's view, say),
    and the last state is returned (``scores`` the hand's). With ``turns``, play stops after that
    many turns (the seat to move first finishes the turn it is in), or at the hand's end."""
    if len(bots) != 4:
        raise ValueError(f"four bots, one per seat, got {len(bots)}")
    if state.deck is None:
        raise ValueError("a hand is played on only from a state that holds its deck")
    rng = random.Random(f"istaka:play-on:{seed}")
    players = tuple(Player(f"P{s}", b) for s, b in enumerate(bots))
    h = _Hand.__new__(_Hand)  # the hand as dealt is ``state``: no deal, no header
    h.rec, h.rules, h.number, h.rng, h.clock = GameRecord(GameSpec(game, players)), state.rules, state.hand, rng, 0
    h.bots = [make_bot(b, random.Random(rng.getrandbits(64))) for b in bots]
    h.players = players
    h.state = state
    h.turns(turns)  # a seat that has drawn places and discards
    return h.state


# ---- batches ---------------------------------------------------------------------------------

DEFAULT_BOTS = ("greedy", "greedy", "greedy", "greedy")


def specs(n: int, *, variant: str = "101", rules: Mapping[str, Any] | None = None,
          bots: Sequence[str] = DEFAULT_BOTS, seed: int | str = 0, hands: int | None = None,
          names: Sequence[str] | None = None, site: str = "istaka-selfplay",
          start: datetime | None = None) -> list[GameSpec]:
    """``n`` game specs for one run; game ``i`` depends only on (seed, i)."""
    if len(bots) != 4:
        raise ValueError(f"four bots, one per seat, got {len(bots)}")
    names = list(names) if names else [f"{b}-{i + 1}" for i, b in enumerate(bots)]
    t0 = start or datetime(2026, 1, 1, 19, 0, tzinfo=UTC)
    out = []
    for i in range(n):
        when = (t0 + timedelta(minutes=45 * i)).isoformat()
        players = tuple(Player(names[s], bots[s]) for s in range(4))
        out.append(GameSpec(f"sim-{seed}-{i + 1}", players, variant, dict(rules) if rules else None,
                            str(seed), when, site, hands))
    return out


def _play_light(spec: GameSpec) -> GameRecord:
    """A worker's game: without the final states, which the parent does not need."""
    rec = play_game(spec)
    rec.finals = []
    return rec


Mapper = Callable[[Callable[[GameSpec], GameRecord], Sequence[GameSpec]], Iterable[GameRecord]]


def run(game_specs: Sequence[GameSpec], *, jobs: int = 1, progress: bool = False,
        mapper: Mapper | None = None) -> Iterator[GameRecord]:
    """Play the games in order (``jobs`` > 1: in worker processes, results still in order).

    ``mapper(fn, specs)`` plays them elsewhere instead, in order (``istaka simulate --cluster``
    passes a Dask cluster's map, which shows its own progress): a game depends only on its spec.
    """
    if mapper is not None:
        yield from mapper(_play_light, game_specs)
        return
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=len(game_specs), unit="game", desc="simulate", leave=False)
    try:
        if jobs > 1 and len(game_specs) > 1:
            with process_pool(jobs) as ex:
                for rec in ex.map(_play_light, game_specs, chunksize=1):
                    if bar is not None:
                        bar.update(1)
                    yield rec
        else:
            for spec in game_specs:
                rec = play_game(spec)
                if bar is not None:
                    bar.update(1)
                yield rec
    finally:
        if bar is not None:
            bar.close()


def write_records(records: Iterable[GameRecord], path: str) -> tuple[int, int]:
    """Write games to ``path`` (.jsonl, or .jsonl.gz with a fixed header so bytes are stable).
    Returns (games, refused moves)."""
    games = refused = 0
    with open(path, "wb") as raw:
        fh: Any = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if path.endswith(".gz") else raw
        with io.TextIOWrapper(fh, encoding="utf-8", newline="\n") as out:
            for rec in records:
                out.writelines(rec.lines())
                games += 1
                refused += rec.refused
    return games, refused

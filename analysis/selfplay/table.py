"""A person at the table with bots: a game played one move at a time (the dashboard's Play page).

A :class:`PlayGame` is a :class:`~analysis.game.record.Recording` of every rack (a full v1 log)
whose deals come from its seed and whose bot seats move by themselves: :meth:`PlayGame.person`
applies one event of a person's seat (checked by the engine; a refusal names its rule and leaves
the game unchanged), :meth:`PlayGame.bot_turn` plays the whole turn of the bot whose turn it is,
with the same decisions :mod:`analysis.selfplay.simulate` asks a bot for. The log's ``game``
header names the people (``"people": [0]``) and each seat's bot. No Streamlit here.

A bot is rebuilt for each turn with a generator seeded from the game's seed, the hand and the
events so far, so a game picked up after a reload plays on exactly as it would have.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from analysis.evaluate import ExpertBot
from analysis.game import HandState, full_set
from analysis.game.record import Recording, RecordError
from analysis.players import Bot, View

from .bots import BOTS, make_bot

Event = dict[str, Any]

# the expert's strength for people, as sampled worlds per decision (the default is the strongest)
LEVELS: dict[str, int] = {"easy": 16, "medium": 40, "strong": 96}
PLAY_BOTS = ("random", "greedy", "solver", "expert")
VARIANTS = ("101", "101-classic", "51", "partners")  # "partners": 101 with G4 / O11 / E8
MAX_PLIES = 400  # a hand that does not end is a bot's bug (the deck always runs out)
# a person's moves and the fields each carries besides type and seat (a draw's tile is the deck's)
PERSON_MOVES: dict[str, tuple[str, ...]] = {
    "show": ("tile",), "declare": ("what",), "draw": ("tile",), "take": ("tile",), "return": ("tile",),
    "open": ("melds", "pairs"), "meld": ("melds", "pairs"), "layoff": ("meld", "tiles"), "swap": ("meld", "tiles"),
    "takeback": (), "discard": ("tile",)}


def table_rules(variant: str, hands: int | None = None) -> tuple[str, dict[str, Any] | None]:
    """A variant as the page names it (``partners`` is 101 eşli) to a preset and rule overrides."""
    base, over = ("101", {"esli": True}) if variant == "partners" else (variant, {})
    if hands is not None:
        over["hands"] = hands
    return base, (over or None)


def deal(seed: str, hand: int, attempt: int, rules_deal: int, starter: int) -> tuple[str, list[list[str]], list[str]]:
    """A hand's deal from the game's seed: the gösterge (never a false okey, T2), the four racks
    (the starter one tile more, D1) and the deck in drawing order."""
    rng = random.Random(f"istaka-play:{seed}:{hand}:{attempt}")
    tiles = sorted(full_set().elements())
    rng.shuffle(tiles)
    indicator = tiles.pop()
    while indicator.is_joker:  # T2: put back and draw another
        tiles.insert(rng.randrange(len(tiles) + 1), indicator)
        indicator = tiles.pop()
    racks, pos = [], 0
    for s in range(4):
        n = rules_deal + 1 if s == starter else rules_deal
        racks.append(sorted(str(t) for t in tiles[pos:pos + n]))
        pos += n
    return str(indicator), racks, [str(t) for t in tiles[pos:]]


@dataclass
class PlayGame(Recording):
    """A game with people and bots (every rack known). ``seats[s]``: ``"person"`` or a bot kind;
    ``levels[s]``: the expert's strength at that seat (``easy``, ``medium``, ``strong``)."""

    seats: list[str] = field(default_factory=lambda: ["person", "greedy", "greedy", "greedy"])
    levels: list[str | None] = field(default_factory=lambda: [None, None, None, None])
    seed: str = "0"
    table: str = "101"  # the variant as chosen (``partners`` included)
    hinted: bool = False  # a person asked for a hint in this game (the game is marked)
    deck: list[str] = field(default_factory=list)
    voids: int = 0  # void hands dealt again under the same number (E3)
    stored: int = 0  # finished hands imported into the store so far
    dset: str | None = None  # the duplicate set whose deals these are (analysis.selfplay.sets)

    # ---- who sits where ----------------------------------------------------------------------
    @property
    def people(self) -> list[int]:
        return [s for s in range(4) if self.seats[s] == "person"]

    def is_person(self, seat: int) -> bool:
        return self.seats[seat] == "person"

    def header(self) -> dict[str, Any]:
        h = super().header()
        h["site"] = "Istaka Oyna"
        h["people"] = self.people
        h["bots"] = [None if b == "person" else b for b in self.seats]
        if self.hinted:
            h["hints"] = True
        if self.dset:
            h["set"] = self.dset
        return h

    def current(self) -> dict[str, Any]:
        return {**super().current(), "deck": list(self.deck)}

    def _hand_events(self, h: dict[str, Any], result: str | None) -> list[dict[str, Any]]:
        out = super()._hand_events(h, result)
        if h.get("deck") is not None:
            out[0]["deck"] = list(h["deck"])  # the full log's deck: every draw is known (D1)
        return out

    # ---- dealing -----------------------------------------------------------------------------
    def deal_hand(self) -> None:
        """Deal the hand in progress from the seed and accept it (D1, T2)."""
        rules = self.table_rules()
        self.indicator, self.racks, self.deck = deal(self.seed, self.hand, self.voids, rules.deal, self.starter)
        self.deal()

    def next_hand(self) -> None:
        """The next hand (D2; a void hand again under its number, E3), dealt at once."""
        void = self.hand_result().result == "void"
        super().next_hand()
        self.voids = self.voids + 1 if void else 0
        self.deck = []
        self.deal_hand()

    def _settle(self) -> None:
        """At a hand's end its scores are the engine's (E4-E8), written in the log's ``end``."""
        s = self.state()
        if s is not None and s.over:
            self.scores = list(s.scores or (0, 0, 0, 0))

    # ---- moves -------------------------------------------------------------------------------
    def ply(self) -> int:
        return sum(1 for e in self.events if e.get("type") == "discard")

    def person(self, event: Event) -> HandState:
        """A person's move, checked by the engine (a refusal: RecordError with the rule, nothing
        changed): only the moves of :data:`PERSON_MOVES` with their own fields. A draw's tile is
        the deck's next (the page does not know it)."""
        s = self.state()
        if s is None or s.over:
            raise RecordError("the hand is over", "E1")
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat <= 3 or not self.is_person(seat):
            raise RecordError(f"seat {seat} is not a person's seat")
        kind = event.get("type")
        if not isinstance(kind, str) or kind not in PERSON_MOVES:
            raise RecordError(f"a person's move is one of {', '.join(PERSON_MOVES)}, not {str(kind)[:40]!r}")
        extra = sorted(str(k)[:40] for k in event if k not in ("type", "seat", *PERSON_MOVES[kind]))
        if extra:  # kept out of the game's file (a NaN or a stray field there would lose the game)
            raise RecordError(f"a {kind} move has no field {extra[0]!r}")
        if kind != "show" and seat != s.turn:
            raise RecordError(f"it is seat {s.turn}'s turn, not seat {seat}'s", "P1")
        ev = dict(event)
        if ev.get("type") == "draw":
            if not s.deck:
                raise RecordError("the deck is empty", "E1")
            ev["tile"] = str(s.deck[0])
        new = self.add(ev)
        self._settle()
        return new

    def add(self, event: dict[str, Any]) -> HandState:
        """One event through the engine (as :meth:`Recording.add`), then a ``penalty`` event for
        each penalty it charged, as the engine wrote it (the log carries every penalty or none)."""
        before = self.state()
        new = super().add(event)
        n = len(before.penalties) if before is not None else 0
        for p in new.penalties[n:]:
            new = super().add({"type": "penalty", "seat": p.seat, "points": p.points, "reason": p.rule})
        return new

    def bot_to_move(self) -> int | None:
        """The bot seat whose turn it is (None: the hand is over or a person is to move)."""
        s = self.state()
        if s is None or s.over or self.is_person(s.turn):
            return None
        return s.turn

    def _bot(self, seat: int) -> Bot:
        rng = random.Random(f"istaka-play:{self.seed}:{self.hand}:{self.voids}:{len(self.events)}")
        kind = self.seats[seat]
        if kind == "expert":
            return ExpertBot(rng, worlds=LEVELS.get(self.levels[seat] or "strong", LEVELS["strong"]))
        return make_bot(kind, rng)

    def _try(self, ev: Event) -> bool:
        try:
            self.add(ev)
            return True
        except RecordError:
            return False

    def bot_turn(self) -> list[Event]:
        """The whole turn of the bot to move (as :mod:`.simulate` plays it): the O7 show, the O10
        declaration, draw or take, its placings, its discard. The events it played, in order."""
        seat = self.bot_to_move()
        if seat is None:
            return []
        first = len(self.events)
        bot = self._bot(seat)
        ply = self.ply()

        def view() -> View:
            return View.of(self.state(), seat, ply)  # type: ignore[arg-type]

        s = self.state()
        assert s is not None
        if s.rules.gosterge and not s.started[seat] and not s.shown[seat] and s.indicator in s.racks[seat] \
                and bot.show(view()):
            self._try({"type": "show", "seat": seat, "tile": str(s.indicator)})
        s = self.state()
        assert s is not None
        if s.rules.declare_pairs and not s.declared[seat] and s.opened[seat] is None and bot.declare(view()):
            self._try({"type": "declare", "seat": seat, "what": "pairs"})
        s = self.state()
        assert s is not None
        if s.phase == "draw":
            v = view()
            t = v.takeable()
            if t is None or ply > MAX_PLIES // 2 or not bot.take(v) or \
                    not self._try({"type": "take", "seat": seat, "tile": str(t)}):
                self._draw(seat)
        for _ in range(60):
            if self.over:
                break
            moves = bot.place(view())
            if not moves or not all(self._try(m) for m in moves):
                break
        if not self.over:
            t = bot.discard(view())
            if not self._try({"type": "discard", "seat": seat, "tile": str(t)}):
                self._rescue(seat)
        self._settle()
        return self.events[first:]

    def _draw(self, seat: int) -> None:
        s = self.state()
        assert s is not None and s.deck, "a turn begins with a draw only while the deck holds tiles"
        self.add({"type": "draw", "seat": seat, "tile": str(s.deck[0])})

    def _rescue(self, seat: int) -> None:
        """A refused discard (a bot's bug): take back what was placed (O6), return a taken tile
        (P2), then throw the least costly tile."""
        s = self.state()
        assert s is not None
        if s.turn_base is not None and (s.opened_this_turn or s.took_unopened):
            self.add({"type": "takeback", "seat": seat})
            s = self.state()
            assert s is not None
        if s.took is not None and s.took_unopened:
            self.add({"type": "return", "seat": seat, "tile": str(s.took)})
            self._draw(seat)
            s = self.state()
            assert s is not None
        order = sorted(s.racks[seat], key=lambda t: (t == s.okey, s.fits_table(t) is not None, -t.number))
        for t in order:
            if self._try({"type": "discard", "seat": seat, "tile": str(t)}):
                return
        raise RecordError(f"seat {seat} has no legal discard in hand {self.hand}")

    def bots_until_person(self, limit: int = MAX_PLIES) -> list[Event]:
        """Every bot turn up to a person's turn or the hand's end."""
        out: list[Event] = []
        for _ in range(limit):
            if self.bot_to_move() is None:
                break
            out += self.bot_turn()
        return out

    # ---- keeping it --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "kind": "play", "seats": self.seats, "levels": self.levels, "seed": self.seed,
                "table": self.table, "hinted": self.hinted, "deck": self.deck, "voids": self.voids,
                "stored": self.stored, "dset": self.dset}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlayGame:
        base = Recording.from_dict(d)
        g = cls(base.id)
        for k, v in base.to_dict().items():
            setattr(g, k, v)
        seats, levels = d.get("seats"), d.get("levels")
        if not (isinstance(seats, list) and len(seats) == 4 and all(x == "person" or x in BOTS for x in seats)):
            raise RecordError(f"game {g.id}: field 'seats' has the wrong shape")
        if not (isinstance(levels, list) and len(levels) == 4 and all(x is None or x in LEVELS for x in levels)):
            raise RecordError(f"game {g.id}: field 'levels' has the wrong shape")
        deck = d.get("deck", [])
        if not (isinstance(deck, list) and all(isinstance(x, str) for x in deck)):
            raise RecordError(f"game {g.id}: field 'deck' has the wrong shape")
        g.seats, g.levels, g.deck = list(seats), list(levels), list(deck)
        g.seed, g.table = str(d.get("seed", "0")), str(d.get("table", g.variant))
        g.hinted, g.voids = bool(d.get("hinted", False)), int(d.get("voids", 0) or 0)
        g.stored = int(d.get("stored", 0) or 0)
        g.dset = d["dset"] if isinstance(d.get("dset"), str) else None
        return g


def new_game(gid: str, *, variant: str = "101", hands: int | None = None, seats: list[str],
             levels: list[str | None] | None = None, names: list[str], seed: str, starter: int = 0,
             started: str | None = None) -> PlayGame:
    """A new game, its first hand dealt. ``seats``: ``"person"`` or a bot of :data:`PLAY_BOTS`
    per seat (at least one person); ``hands`` within G1's range (1 to 100)."""
    if len(seats) != 4 or any(x != "person" and x not in PLAY_BOTS for x in seats):
        raise RecordError(f"four seats, each 'person' or one of {', '.join(PLAY_BOTS)}")
    if "person" not in seats:
        raise RecordError("at least one seat is a person's")
    if variant not in VARIANTS:
        raise RecordError(f"unknown table {variant!r}; tables are {', '.join(VARIANTS)}")
    base, over = table_rules(variant, hands)
    g = PlayGame(gid, variant=base, rules=over, players=[n.strip() or f"#{k}" for k, n in enumerate(names)],
                 view=None, starter=starter, seats=list(seats), levels=list(levels or [None] * 4),
                 seed=str(seed), table=variant, started=started)
    g.table_rules()  # G1: a hand count out of range is refused here
    g.deal_hand()
    return g


__all__ = ["LEVELS", "PERSON_MOVES", "PLAY_BOTS", "VARIANTS", "PlayGame", "deal", "new_game", "table_rules"]

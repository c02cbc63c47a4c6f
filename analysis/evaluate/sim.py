"""The Python rollout model: the reference and the baseline of ``bench/evaluate.py``, and the
evaluator's model where the compiled one (:mod:`.fast`, ``rollout.c``) is not built
(``ISTAKA_PURE=1``, no C compiler) or ``evaluate(..., model="python")`` asks for it. Racks as face
counts, a simple policy that opens and places by the exact solver's search (:mod:`.exact`) and
discards by the ``solver`` bot's heuristic.

This is not the rules engine. The engine (``apply``) plays every real move; this model only
plays the *imagined* rest of a hand after a candidate decision, thousands of times a second.
Tiles are codes 0-51 (faces, colour-major as ``Tile.index``; a false okey is the okey's face,
T5) and 52 for a physical okey (wild, T4). A rack is a list of 53 counts.

What the model keeps from the rules: draws and takes (P1-P3), openings by points or pairs with
escalation (O1-O3, O11), siler (O8), O9, lay-offs onto runs and groups (L1, L2), finishes and
exhausted decks (E1, E2, E4), the penalties X3, X4, X5 and hand-end scoring (E5-E8).
What it leaves out (documented assumptions, all played by the compiled model): okey swaps (S1),
lay-offs of okeys, lay-offs in the opening turn (so openings that need them, O1/L6, are not
seen), the L3 cap, X2/X6/X7, declaring (O10 is honoured as a condition only), indicator twins
(O7) and voids (E3); siler (O8) of a placing candidate is lost (the engine writes it at the
discard, after the model took over). The policy is the same for every seat and reads only that
seat's own rack and the table.
"""

from __future__ import annotations

from analysis.game import FinishInfo, HandState, multiplier

from .exact import Meld, best_placement

WILD = 52
RUN, GROUP, PAIRK = 0, 1, 2


def code(t, okey) -> int:  # type: ignore[no-untyped-def]
    if t is okey:
        return WILD
    if t.is_joker:
        return okey.index
    return t.index


class Sim:
    """One imagined hand in progress (mutable; cheap to copy)."""

    __slots__ = (
        "deck",
        "declared",
        "dp",
        "finisher",
        "fit",
        "last",
        "oi",
        "okv",
        "opened",
        "opval",
        "otturn",
        "over",
        "pen",
        "r",
        "racks",
        "scores",
        "table",
        "takeable",
        "turn",
    )

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.r, s.oi, s.okv = self.r, self.oi, self.okv
        s.racks = [list(c) for c in self.racks]
        s.deck, s.dp = self.deck, self.dp
        s.table = [list(m) if m is not None else None for m in self.table]
        s.fit = list(self.fit)
        s.opened, s.opval, s.pen = list(self.opened), list(self.opval), list(self.pen)
        s.turn, s.last, s.takeable, s.otturn = self.turn, self.last, self.takeable, self.otturn
        s.declared, s.over, s.scores, s.finisher = self.declared, self.over, self.scores, self.finisher
        return s

    # ---- construction from an engine state ---------------------------------------------------
    @classmethod
    def from_state(cls, st: HandState, racks: list[list[int]], deck: list[int]) -> Sim:
        """``racks``: every seat's counts (the hidden ones sampled); ``deck``: sampled order."""
        s = cls.__new__(cls)
        r = st.rules
        s.r = r
        s.oi = st.okey.index
        s.okv = st.okey.number
        s.racks = racks
        s.deck, s.dp = deck, 0
        tab: list[list[int] | None] = []
        for m in st.table:
            if m is None:
                tab.append(None)
            elif m.kind == "run":
                f0 = m.tiles[0].face
                tab.append([RUN, "RYBK".index(f0.colour), f0.number, m.tiles[-1].face.number])
            elif m.kind == "group":
                mask = 0
                for p in m.tiles:
                    mask |= 1 << "RYBK".index(p.face.colour)
                tab.append([GROUP, m.tiles[0].face.number, mask, len(m.tiles)])
            else:
                tab.append([PAIRK, 0, 0, 0])
        s.table = tab
        s.fit = [-1] * 53
        s._refit()
        s.opened = [0 if o is None else (1 if o.kind == "points" else 2) for o in st.opened]
        s.opval = [0 if o is None else o.value for o in st.opened]
        pen = [0, 0, 0, 0]
        for p in st.penalties:
            pen[p.seat] += p.points
        s.pen = pen
        s.turn = st.turn
        s.takeable = st.takeable if st.takeable is not None and st.discards[st.takeable] else -1
        s.last = code(st.discards[s.takeable][-1], st.okey) if s.takeable >= 0 else -1
        if s.last == WILD:
            s.takeable = -1  # P3
        s.otturn = st.opened_this_turn
        s.declared = st.declared
        s.over = st.over
        s.scores = st.scores
        s.finisher = st.finisher
        return s

    def _refit(self) -> None:
        fit = self.fit
        for i in range(53):
            fit[i] = -1
        for i, m in enumerate(self.table):
            if m is None:
                continue
            k = m[0]
            if k == RUN:
                b = m[1] * 13
                if m[2] > 1:
                    fit[b + m[2] - 2] = i
                if m[3] < 13:
                    fit[b + m[3]] = i
            elif k == GROUP and m[3] < 4:
                n = m[1] - 1
                for col in range(4):
                    if not m[2] >> col & 1:
                        fit[col * 13 + n] = i

    # ---- thresholds (O1-O3, O11) -------------------------------------------------------------
    def _thr(self, seat: int, kind: int) -> int:
        r = self.r
        if kind == 1:
            base, esc = r.open_points, r.katlamali
        else:
            base, esc = r.open_pairs, r.katlamali and r.pairs_escalating
        if not esc:
            return base
        partner = (seat + 2) % 4
        if r.esli and self.opened[partner]:
            return base
        best = 0
        for k in range(4):
            if k != seat and self.opened[k] == kind and not (r.esli and k == partner):
                best = max(best, self.opval[k])
        return max(base, best + 1)

    # ---- the policy --------------------------------------------------------------------------
    def wants(self, p: int, t: int) -> bool:
        """Would seat ``p`` take tile ``t`` (the previous discard)?"""
        c = self.racks[p]
        op = self.opened[p]
        if op == 1:
            return self.fit[t] >= 0 or _makes_meld(c, t)
        if op == 2:
            return c[t] == 1 or self.fit[t] >= 0
        if not (c[t] or _connected(c, t)):
            return False
        c[t] += 1
        try:
            got = best_placement(c, self.okv, t)
            if got is None:
                return False  # the tile would not be in any opening (P2)
            value, _, left = got
            if value >= self._thr(p, 1):
                return True
            return self.r.open_below_finishing == "yes" and sum(left) == 1
        finally:
            c[t] -= 1

    def start_turn(self, p: int, take: bool | None = None) -> int:
        """Draw or take; returns the tile taken (or -1 for a draw)."""
        prev = (p - 1) % 4
        t = self.last if self.takeable == prev else -1
        if t >= 0 and self.opened[prev] == 2 and not self.r.pairs_discard_takeable:
            t = -1  # P4
        if take is None:
            take = t >= 0 and self.wants(p, t)
        if take and t >= 0:
            self.racks[p][t] += 1
            self.takeable = -1
            self.otturn = False
            return t
        x = self.deck[self.dp]
        self.dp += 1
        self.racks[p][x] += 1
        self.takeable = -1
        self.otturn = False
        return -1

    def place(self, p: int, took: int = -1) -> list[int] | None:
        """Open or place the best placement of the exact search (:mod:`.exact`); returns the loose
        tiles' counts (unopened)."""
        c = self.racks[p]
        r = self.r
        if self.opened[p] == 0:
            got = best_placement(c, self.okv, took)
            thr = self._thr(p, 1)
            if got is not None:
                value, melds, left = got
                fin_ok = sum(left) == 1 and (r.open_below_finishing == "yes" or (
                    r.open_below_finishing == "elden" and not any(self.opened)))
            if got is not None and melds and (value >= thr or fin_ok):
                self._lay(p, melds, left)
                self.opened[p] = 1
                self.opval[p] = value
                self.otturn = True
                if r.siler and value >= r.siler_points:
                    self.pen[p] -= r.penalty_unit
                if took >= 0 and r.cezali and r.x5:
                    face = self.oi if took == WILD else took
                    self.pen[(p - 1) % 4] += r.x5_factor * (face % 13 + 1)
            elif not self._pairs_open(p, took):
                if took >= 0:  # P2: could not open with it: give it back and draw
                    c[took] -= 1
                    x = self.deck[self.dp]
                    self.dp += 1
                    c[x] += 1
                    return self.place(p, -1)
                return left if got is not None else list(c)
            if not r.layoff_opening_turn:
                return None
        elif self.opened[p] == 1:
            got = best_placement(c, self.okv)
            if got is not None and got[1]:
                self._lay(p, got[1], got[2])
        else:
            n = sum(c)
            for f in range(52):
                if c[f] >= 2 and n > 2:
                    c[f] -= 2
                    n -= 2
        self._layoffs(p)
        return None

    def _pairs_open(self, p: int, took: int) -> bool:
        c = self.racks[p]
        r = self.r
        if r.declare_pairs and not self.declared[p]:
            return False
        nat = 0
        singles = 0
        for f in range(52):
            nat += c[f] >> 1
            singles += c[f] & 1
        w = c[WILD]
        n = nat + min(w, singles)
        size = sum(c)
        if 2 * n >= size:
            n = (size - 1) // 2
        if n < self._thr(p, 2):
            return False
        if took >= 0 and c[took] < 2 and not (w and took != WILD):
            return False
        left = n
        for f in range(52):  # natural pairs first
            while c[f] >= 2 and left:
                c[f] -= 2
                left -= 1
        for f in sorted(range(52), key=lambda i: -(i % 13)):
            if not left or not c[WILD]:
                break
            if c[f] == 1:
                c[f] = 0
                c[WILD] -= 1
                left -= 1
        self.opened[p] = 2
        self.opval[p] = n
        self.otturn = True
        if r.siler and n >= r.siler_pairs:
            self.pen[p] -= r.penalty_unit
        if took >= 0 and r.cezali and r.x5:
            face = self.oi if took == WILD else took
            self.pen[(p - 1) % 4] += r.x5_factor * (face % 13 + 1)
        return True

    def _lay(self, p: int, melds: list[Meld], left: list[int]) -> None:
        """Put ``melds`` on the table from seat ``p``'s rack, which keeps ``left``."""
        self.racks[p][:] = left
        for m in melds:
            self.table.append(list(m))
        self._refit()

    def _layoffs(self, p: int) -> None:
        c = self.racks[p]
        fit = self.fit
        n = sum(c)
        changed = True
        while changed and n > 1:
            changed = False
            for f in range(52):
                if c[f] and fit[f] >= 0 and n > 1:
                    m = self.table[fit[f]]
                    c[f] -= 1
                    n -= 1
                    if m[0] == RUN:
                        num = f % 13 + 1
                        if num < m[2]:
                            m[2] = num
                        else:
                            m[3] = num
                    else:
                        m[2] |= 1 << (f // 13)
                        m[3] += 1
                    self._refit()
                    changed = True

    def choose_discard(self, p: int, loose: list[int] | None) -> int:
        """The least useful tile: no lay-off-able tile (X4), outside the melds being built, few
        neighbours (the ``solver`` heuristic's order); low first while unopened, high once opened."""
        c = self.racks[p]
        sign = -1 if self.opened[p] != 0 else 1
        x4 = 1_000_000 if self.r.cezali else 0
        fit = self.fit
        best = -1
        bkey = 1 << 60
        for f in range(52):
            k = c[f]
            if not k:
                continue
            n = f % 13
            use = 1 if k >= 2 else 0
            if n >= 1 and c[f - 1]:
                use += 3
            if n >= 2 and c[f - 2]:
                use += 1
            if n <= 11 and c[f + 1]:
                use += 3
            if n <= 10 and c[f + 2]:
                use += 1
            g = (c[n] > 0) + (c[13 + n] > 0) + (c[26 + n] > 0) + (c[39 + n] > 0) - 1
            key = use * 100 + 2 * g * 100 + 50 + sign * n
            if fit[f] >= 0:
                key += x4
            if loose is not None and not loose[f]:
                key += 100_000
            if key < bkey:
                bkey, best = key, f
        return WILD if best < 0 else best

    def discard(self, p: int, t: int) -> None:
        c = self.racks[p]
        c[t] -= 1
        r = self.r
        fin = sum(c) == 0
        if not fin and r.cezali and (t == WILD or self.fit[t] >= 0):
            self.pen[p] += r.penalty_unit  # X3 / X4
        if fin:
            kinds = []
            if t == WILD:
                kinds.append("okey")
            others = any(self.opened[k] for k in range(4) if k != p)
            if self.otturn and not others:
                kinds.append("elden")
            if self.opened[p] == 2:
                kinds.append("pairs")
            self._score(p, tuple(kinds), others)
            return
        self.last = t
        self.takeable = p if t != WILD else -1
        self.turn = (p + 1) % 4
        if self.dp >= len(self.deck):
            self._score(None, (), True)

    def _score(self, fin: int | None, kinds: tuple[str, ...], others: bool) -> None:
        r = self.r
        sc = [0, 0, 0, 0]
        self.over = True
        self.finisher = fin
        if fin is None:
            if not any(self.opened):
                self.scores = tuple(sc)
                return
            fm = om = 1
        else:
            fm, om = multiplier(r, FinishInfo("finish", fin, kinds, others))
        for k in range(4):
            if k == fin:
                sc[k] = -r.finisher_bonus * fm
            elif fin is not None and r.esli and k == (fin + 2) % 4:
                sc[k] = 0
            elif not self.opened[k]:
                sc[k] = r.unopened_penalty * om
            else:
                c = self.racks[k]
                v = c[WILD] * self.okv
                for f in range(52):
                    if c[f]:
                        v += c[f] * (f % 13 + 1)
                if self.opened[k] == 2:
                    v *= 2
                sc[k] = v * om + c[WILD] * r.okey_in_rack
        self.scores = tuple(sc)

    # ---- whole turns ---------------------------------------------------------------------------
    def finish_turn(self, p: int, took: int = -1, placed: bool = False) -> None:
        loose = None
        if not placed:
            loose = self.place(p, took)
        elif self.opened[p] == 0:
            cc = self.racks[p]
            got = best_placement(cc, self.okv)
            loose = got[2] if got is not None else list(cc)
        c = self.racks[p]
        if sum(c) == 1:
            t = next(i for i in range(53) if c[i])
        else:
            t = self.choose_discard(p, loose)
        self.discard(p, t)

    def play_out(self) -> None:
        guard = 0
        while not self.over and guard < 200:
            p = self.turn
            took = self.start_turn(p)
            self.finish_turn(p, took)
            guard += 1

    def value(self, seat: int) -> int:
        """The seat's hand score (its team's in partner games): end scores plus penalties."""
        sc = self.scores or (0, 0, 0, 0)
        v = sc[seat] + self.pen[seat]
        if self.r.esli:
            q = (seat + 2) % 4
            v += sc[q] + self.pen[q]
        return v


def _connected(c: list[int], t: int) -> bool:
    if t == WILD:
        return True
    n = t % 13
    if (n >= 1 and c[t - 1]) or (n <= 11 and c[t + 1]) or (n >= 2 and c[t - 2]) or (n <= 10 and c[t + 2]):
        return True
    return sum(1 for oc in range(4) if c[oc * 13 + n]) >= 2


def _makes_meld(c: list[int], t: int) -> bool:
    if t == WILD:
        return True
    n = t % 13
    if n >= 2 and c[t - 1] and c[t - 2]:
        return True
    if 1 <= n <= 11 and c[t - 1] and c[t + 1]:
        return True
    if n <= 10 and c[t + 1] and c[t + 2]:
        return True
    return sum(1 for oc in range(4) if oc * 13 + n != t and c[oc * 13 + n]) >= 2


__all__ = ["WILD", "Sim", "code"]

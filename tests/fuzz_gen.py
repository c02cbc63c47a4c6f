"""A seeded mutation generator over the sample games, for tests/test_fuzz_cli.py and
bench/fuzz.py.

Each mutated game is a *unit*: the first hand of a sample game under its own id, written as
bytes lines, with one mutation of a class listed in ``CLASSES`` (wrong types, deep nesting,
huge and negative numbers, non-ASCII digits, unicode, invalid UTF-8, byte-order marks, broken,
cut, swapped or duplicated lines, deep unknown fields, overflowing dates, long strings). A
mutation never writes another unit's game id, so a damaged unit may only hurt itself: every
unit that replays cleanly in a file of its own must be stored when imported next to the others.

``positions`` does the same for ``istaka solve --batch`` lines.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"

Event = dict[str, Any]
Unit = list[bytes]  # the lines of one game, without newlines

_BASE: list[list[Event]] = []


def base_games() -> list[list[Event]]:
    """The sample's games cut to their first hand (void replays included), as event dicts; every
    third one also as a seat-view log of one seat (``istaka view``)."""
    if not _BASE:
        games: dict[str, list[Event]] = {}
        with gzip.open(SAMPLE, "rt", encoding="utf-8") as fh:
            for line in fh:
                ev = json.loads(line)
                games.setdefault(ev["game"], []).append(ev)
        for evs in games.values():
            out = [dict(evs[0], hands=1)]
            for ev in evs[1:]:
                if ev.get("hand", 1) > 1:
                    break
                out.append(ev)
            _BASE.append(out)
        _BASE.extend(seat_view(g, k % 4) for k, g in enumerate(list(_BASE)) if k % 3 == 0)
    return _BASE


def seat_view(evs: list[Event], seat: int) -> list[Event]:
    """A full game's events as ``seat`` saw them (analysis.game.cut, what ``istaka view`` writes)."""
    from analysis.game.cut import cut_view
    from analysis.game.log import read_lines

    (g,) = read_lines([json.dumps(e, ensure_ascii=False) for e in evs], "base").games
    return copy.deepcopy(cut_view(g, seat).content())


def dumps(ev: Any) -> bytes:
    return json.dumps(ev, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# ---- values that break things ---------------------------------------------------------------

HUGE = [2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**63 + 7, 2**64 - 1, 2**64, 10**20, -1, -5, -2**31 - 1,
        -2**63, -2**63 - 1, 0, 40000, 1.5, -0.0, 1e308, True]
RAW_NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "1" * 5000, "-" + "9" * 400, "0x10", "01", "+1", "1.", ".5"]
BAD_TILES = ["R²", "R١", "R١٢", "R１", "Ｒ5", "R" + "1" * 5000, "R" + "0" * 300 + "5", "R 5", "r5", "R05", "R5\u200b",
             "\u0000", "R-1", "R14", "J1", "", "J>R5", "R5>", ">", "R5>>R6", "K13>J", "Y٣>Y4", "R1" * 50]
UNICODE = ["Ayşe 🀄", "עלי", "‮Ali", "A\u0301li", "\u200b", "\u0000", "x" * 20_001, "![x](http://127.0.0.1:9/x.png)",
           "[click](http://example.com)", "<b>bold</b>", "a&b#c?d", "$x^2$", ":red[alarm]", "**", "\\", "\n\n# H",
           "İstanbul", "ﬀ", "\U0001f600" * 100]
DATES = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00", "2026-13-45T99:99:99", "99999-01-01",
         "2026-09-07T21:30:00+99:00", "", "2026-09-07", "now", "0000-00-00", "1970-01-01T00:00:00Z" * 50]
WRONG_TYPES: list[Any] = [None, True, 0, -1, 3.5, "", "x", [], [1], ["a", "b"], {}, {"a": 1}, [[1]], [None]]
INVALID_UTF8 = [b"\xff", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80", b"\xf8\x88\x80\x80\x80"]
GARBAGE = [b"{", b"}", b"[", b"null", b'"x"', b"123", b"{}", b"[]", b'{"type":"draw"', b"\x00", b"{,}",
           b'{"type":"game"}', b'{"game":5}', b"\xef\xbb\xbf", b" \t ", b"{" * 3000]


def deep(depth: int, leaf: Any = 1, dicts: bool = False) -> Any:
    x = leaf
    for _ in range(depth):
        x = {"a": x} if dicts else [x]
    return x


def deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


# ---- mutations of one unit ------------------------------------------------------------------

def _pick_event(evs: list[Event], rnd: random.Random, header: bool = True) -> int:
    return rnd.randrange(0 if header else 1, len(evs))


def _field(ev: Event, rnd: random.Random) -> str:
    keys = [k for k in ev if k != "game"] or ["type"]
    return rnd.choice(sorted(keys))


def m_wrong_type(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    i = _pick_event(evs, rnd)
    ev = evs[i]
    k = _field(ev, rnd)
    ev[k] = copy.deepcopy(rnd.choice(WRONG_TYPES))
    return evs


def m_type_field(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    ev = evs[_pick_event(evs, rnd)]
    ev["type"] = rnd.choice([[], ["draw"], {"t": 1}, 5, None, "bogus", "DRAW", "game", "hand", "end", "draw"])
    return evs


def m_rules(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    opt = rnd.choice(["deal", "hands", "open_points", "katlamali", "open_below_finishing", "multipliers", "x5_factor",
                      "unopened", "bogus", "penalty_unit", "finisher_bonus"])
    val = rnd.choice([["a", "b"], [1], [21, 22], [2**63, 2**63 + 1], "x", None, {"a": 1}, deep(rnd.choice([30, 70])),
                      rnd.choice(HUGE), -3, 27, 26, 0])
    evs[0]["rules"] = {opt: val} if rnd.random() < 0.9 else rnd.choice(WRONG_TYPES + [deep(80, dicts=True)])
    return evs


def m_deep(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    """Nesting written as text (up to 3,000 deep), where a field or an unknown field goes."""
    i = _pick_event(evs, rnd)
    ev = evs[i]
    depth = rnd.choice([20, 63, 64, 65, 100, 255, 300, 1000, 3000])
    where = rnd.choice(["rules", "tile", "racks", "note", "melds", "scores", "players", "type"])
    ev = dict(ev)
    ev[where] = "@@DEEP@@"
    evs[i] = ev
    lines = [dumps(e) for e in evs]
    lines[i] = lines[i].replace(b'"@@DEEP@@"', deep_text(depth).encode())
    return lines


def m_deep_unknown(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    ev = evs[_pick_event(evs, rnd)]
    ev[rnd.choice(["note", "meta", "zz"])] = deep(rnd.choice([10, 60, 200, 254, 255, 300]), dicts=rnd.random() < 0.5)
    return evs


def m_number(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    cands = [(i, k) for i, ev in enumerate(evs) for k, v in ev.items()
             if isinstance(v, (int, float)) or (k == "scores" and isinstance(v, list))]
    i, k = rnd.choice(cands)
    ev = evs[i]
    if rnd.random() < 0.25:  # written as text: past what a JSON number parser takes
        ev[k] = "@@NUM@@"
        lines = [dumps(e) for e in evs]
        lines[i] = lines[i].replace(b'"@@NUM@@"', rnd.choice(RAW_NUMBERS).encode())
        return lines
    v = rnd.choice(HUGE)
    if k == "scores" and isinstance(ev[k], list) and ev[k]:
        ev[k][rnd.randrange(len(ev[k]))] = v
    else:
        ev[k] = v
    return evs


def m_points(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    """Huge numbers where the store keeps them: a penalty's points, end scores, hands, hand."""
    cands = [i for i, ev in enumerate(evs) if ev["type"] in ("penalty", "end", "hand", "game")]
    i = rnd.choice(cands)
    ev = evs[i]
    v = rnd.choice([2**63, 2**63 + 1, 2**64 - 1, 2**63 - 1, 2**31, -2**31 - 1, 2**40, -2**63])
    if ev["type"] == "penalty":
        ev["points"] = v
    elif ev["type"] == "end":
        ev["scores"] = [v, 0, 0, 0]
    elif ev["type"] == "game":
        ev[rnd.choice(["hands", "rules"])] = v if rnd.random() < 0.5 else None
        if ev.get("rules") is None:
            ev["rules"] = {rnd.choice(["open_points", "x5_factor", "unopened_penalty", "hands"]): v}
        if ev.get("hands") is None:
            ev.pop("hands")
    else:
        ev["hand"] = v
    return evs


def m_tile(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    cands = [i for i, ev in enumerate(evs) if any(k in ev for k in ("tile", "indicator", "racks", "melds", "tiles"))]
    ev = evs[rnd.choice(cands)]
    bad = rnd.choice(BAD_TILES)
    for k in ("tile", "indicator"):
        if k in ev:
            ev[k] = bad
            return evs
    for k in ("racks", "melds", "pairs"):
        if k in ev and ev[k] and ev[k][0]:
            ev[k][0][rnd.randrange(len(ev[k][0]))] = bad
            return evs
    if ev.get("tiles"):
        ev["tiles"][0] = bad
    return evs


def m_unicode(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    s = rnd.choice(UNICODE)
    what = rnd.choice(["players", "site", "reason", "what", "id", "started", "note"])
    if what == "players":
        evs[0]["players"] = [s, "Ali", "Emre", "Elif"]
    elif what == "id":  # the whole game renamed, still its own id
        gid = evs[0]["game"] + "-" + s
        for ev in evs:
            ev["game"] = gid
    elif what in ("site", "started"):
        evs[0][what] = s
    else:
        ev = evs[_pick_event(evs, rnd)]
        ev[what] = s
    return evs


def m_date(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    evs[0]["started"] = rnd.choice(DATES)
    return evs


def m_long(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    n = rnd.choice([10_001, 100_000, 1_100_000])
    ev = evs[_pick_event(evs, rnd)]
    ev[rnd.choice(["note", "site", "reason"])] = "ş" * (n // 2) if rnd.random() < 0.5 else "x" * n
    return evs


def m_utf8(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    lines = [dumps(e) for e in evs]
    i = rnd.randrange(len(lines))
    b = lines[i]
    bad = rnd.choice(INVALID_UTF8)
    if rnd.random() < 0.5 and b'"t":' in b:  # inside a value the reader would not need
        lines[i] = b.replace(b'"t":', b'"x":"' + bad + b'","t":', 1)
    else:
        at = rnd.randrange(len(b) + 1)
        lines[i] = b[:at] + bad + b[at:]
    return lines


def m_broken(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    lines = [dumps(e) for e in evs]
    i = rnd.randrange(len(lines))
    c = rnd.random()
    if c < 0.5:
        lines[i] = lines[i][: rnd.randrange(len(lines[i]))]  # a cut line (the header too)
    elif c < 0.75:
        lines[i] = rnd.choice(GARBAGE)
    else:
        lines.insert(i, rnd.choice(GARBAGE))
    return lines


def m_lines(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    lines = [dumps(e) for e in evs]
    i = rnd.randrange(len(lines))
    c = rnd.random()
    if c < 0.35 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif c < 0.5:
        j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif c < 0.7:
        lines.insert(i, lines[i])
    elif c < 0.85:
        del lines[i]
    else:
        lines[i] = lines[i] + b"\r" if rnd.random() < 0.5 else b"  " + lines[i] + b"\t"
        lines.insert(i, b"")
    return lines


def m_bom(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    lines = [dumps(e) for e in evs]
    i = 0 if rnd.random() < 0.7 else rnd.randrange(len(lines))
    lines[i] = b"\xef\xbb\xbf" + lines[i]
    return lines


def m_rules_twice(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    """An option given twice, once by an alias, in either order."""
    name, alias, values = rnd.choice([("katlamali", "escalating", [True, False]), ("cezali", "cezalı", [True, False]),
                                      ("open_points", "threshold", [101, 120]), ("hands", "hand_count", [7, 11]),
                                      ("esli", "teams", [False, True])])
    pair = [(name, rnd.choice(values)), (alias, rnd.choice(values))]
    rnd.shuffle(pair)
    evs[0]["rules"] = dict(pair)
    return evs


def m_rules_bound(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    """A whole-number option at, just past or far past its bound (rules.MAX_OPTION)."""
    from analysis.game.rules import MAX_OPTION

    name = rnd.choice(sorted(MAX_OPTION))
    top = MAX_OPTION[name][0]
    evs[0]["rules"] = {name: rnd.choice([top, top + 1, 10**18, 3 * 10**9, 2**31, 2**63 - 1])}
    return evs


def m_view(evs: list[Event], rnd: random.Random) -> list[Event] | Unit:
    """Seat-view logs gone wrong: a bad or other ``view``, racks that should be hidden
    shown or the other way round, a hidden draw with a tile, the viewer's without, a hidden seat
    throwing a tile the viewer holds, a deck, a broken ``end.racks``."""
    if "view" not in evs[0]:
        gid = evs[0]["game"]
        evs = seat_view(evs, rnd.randrange(4))
        for ev in evs:
            ev["game"] = gid
    view = evs[0]["view"]
    hand = next((i for i, e in enumerate(evs) if e["type"] == "hand"), None)
    c = rnd.randrange(7)
    draws = [e for e in evs if e["type"] == "draw"]
    if c == 0 or hand is None:
        evs[0]["view"] = rnd.choice([(view + 1) % 4, 4, -1, "0", None, 2**63, [0]])
    elif c == 1:
        racks = evs[hand]["racks"]
        s = rnd.randrange(4)
        racks[s] = None if racks[s] is not None else ["R1"] * rnd.choice([0, 14, 21, 22])
    elif c == 2 and any(e.get("seat") != view for e in draws):
        rnd.choice([e for e in draws if e.get("seat") != view])["tile"] = rnd.choice(["R1", "J", "K13", "R٣"])
    elif c == 3 and any(e.get("seat") == view for e in draws):
        rnd.choice([e for e in draws if e.get("seat") == view]).pop("tile", None)
    elif c == 4:
        mine = evs[hand]["racks"][view] or ["R1"]
        hidden = [e for e in evs if e["type"] == "discard" and e.get("seat") != view]
        if hidden:
            rnd.choice(hidden)["tile"] = rnd.choice(mine)
    elif c == 5:
        evs[hand]["deck"] = rnd.choice([[], ["R1"], None])
    else:
        ends = [e for e in evs if e["type"] == "end"] or [evs[-1]]
        rnd.choice(ends)["racks"] = rnd.choice([None, [], [["R1"]] * 4, [None] * 4, "x", [[1]] * 4, [["R1"] * 30] * 4])
    return evs


CLASSES: dict[str, Callable[[list[Event], random.Random], list[Event] | Unit]] = {
    "wrong_type": m_wrong_type, "type_field": m_type_field, "rules": m_rules, "deep": m_deep,
    "deep_unknown": m_deep_unknown, "number": m_number, "store_int": m_points, "tile": m_tile,
    "unicode": m_unicode, "date": m_date, "long_string": m_long, "invalid_utf8": m_utf8,
    "broken_line": m_broken, "lines": m_lines, "bom": m_bom, "rules_twice": m_rules_twice,
    "rules_bound": m_rules_bound, "seat_view": m_view,
}


def unit(rnd: random.Random, gid: str, kind: str | None, pool: list[list[Event]] | None = None) -> tuple[Unit, str]:
    """One game under id ``gid``, mutated by class ``kind`` (None: left clean)."""
    evs = copy.deepcopy(rnd.choice(pool or base_games()))
    for ev in evs:
        ev["game"] = gid
    if kind is None:
        return [dumps(e) for e in evs], "clean"
    out = CLASSES[kind](evs, rnd)
    lines = out if out and isinstance(out[0], bytes) else [dumps(e) for e in out]  # type: ignore[arg-type]
    return lines, kind  # type: ignore[return-value]


def units(seed: int, mutations: int, clean: int = 0, prefix: str = "fz",
          max_events: int | None = None, classes: Sequence[str] | None = None) -> list[tuple[str, Unit, str]]:
    """``mutations`` mutated units (the classes in turn, or only ``classes``) and ``clean``
    unmutated ones, shuffled: (game id, lines, class). ``max_events``: only sample hands this
    short (a faster run)."""
    rnd = random.Random(seed)
    pool = [g for g in base_games() if max_events is None or len(g) <= max_events] or base_games()
    unknown = sorted(set(classes or ()) - set(CLASSES))
    if unknown:
        raise ValueError(f"no mutation class {', '.join(unknown)}; the classes are {', '.join(CLASSES)}")
    kinds: list[str | None] = [k for k, _ in zip(_cycle(list(classes or CLASSES)), range(mutations))]
    kinds += [None] * clean
    rnd.shuffle(kinds)
    out = []
    for i, k in enumerate(kinds):
        gid = f"{prefix}{seed}-{i}"
        lines, kind = unit(rnd, gid, k, pool)
        out.append((gid, lines, kind))
    return out


def _cycle(xs: list[str]) -> Any:
    while True:
        yield from xs


def file_bytes(us: list[tuple[str, Unit, str]], bom: bool = False) -> bytes:
    body = b"".join(b + b"\n" for _, lines, _ in us for b in lines)
    return (b"\xef\xbb\xbf" if bom else b"") + body


# ---- solve --batch lines --------------------------------------------------------------------

def _position(rnd: random.Random, i: int) -> dict[str, Any]:
    g = rnd.choice([g for g in base_games() if "view" not in g[0]])  # every rack known
    hand = next(ev for ev in g if ev["type"] == "hand")
    seat = rnd.randrange(4)
    rack = list(hand["racks"][seat])[:21]
    pos: dict[str, Any] = {"id": i, "rack": rack, "indicator": hand["indicator"], "variant": g[0]["variant"]}
    if g[0].get("rules"):
        pos["rules"] = g[0]["rules"]
    c = rnd.random()
    if c < 0.2 and hand.get("deck"):
        pos["take"] = hand["deck"][0]
        pos["rack"] = rack[:20]
    elif c < 0.35:
        pos["table"] = [["K11", "K12", "K13"], {"tiles": ["Y7", "B7", "R7"], "owner": 2}]
        pos["opened"] = {"kind": "points", "value": 120}
        pos["rack"] = [t for t in rack if t not in ("K11", "K12", "K13", "Y7", "B7", "R7")][:14]
    elif c < 0.45:
        pos["openings"] = [{"kind": "points", "value": 110}]
    if pos["variant"] == "51":
        pos["rack"] = pos["rack"][:14]
    return pos


def positions(seed: int, n: int) -> list[bytes]:
    """``n`` lines for ``istaka solve --batch``: about a third left sound, the rest mutated."""
    rnd = random.Random(seed)
    out: list[bytes] = []
    keys = ["rack", "indicator", "variant", "rules", "take", "table", "opened", "openings", "threshold",
            "pairs_threshold", "shown", "opened_this_turn", "end_counts", "next_rack", "id"]
    allt = [f"{c}{k}" for c in "RYBK" for k in range(1, 14)] * 2 + ["J", "J"]
    for i in range(n):
        pos = _position(rnd, i)
        c = rnd.random()
        if c < 0.3:
            out.append(dumps(pos))
            continue
        k = rnd.choice(keys)
        c = rnd.random()
        if c < 0.35:
            pos[k] = copy.deepcopy(rnd.choice(WRONG_TYPES + [[1], [[1]], 5, {"kind": []}, [{"value": "x"}],
                                                             [[0, "high", "x"]], [[0, "high"]]]))
        elif c < 0.5:
            pos[k] = rnd.choice(HUGE)
        elif c < 0.6:
            pos[k] = rnd.choice(BAD_TILES)
        elif c < 0.7:
            rack = allt[:]
            rnd.shuffle(rack)
            pos["rack"] = rack[: rnd.choice([22, 23, 28, 40, 60, 80, 106])]
        elif c < 0.78:
            pos[k] = "@@DEEP@@"
            b = dumps(pos).replace(b'"@@DEEP@@"', deep_text(rnd.choice([50, 65, 1000, 5000])).encode())
            out.append(b)
            continue
        elif c < 0.86:
            b = dumps(pos)
            at = rnd.randrange(len(b))
            out.append(b[:at] + rnd.choice(INVALID_UTF8) + b[at:] if rnd.random() < 0.6 else b[:at])
            continue
        elif c < 0.92:
            out.append(rnd.choice(GARBAGE[:-3]))
            continue
        else:
            pos["id"] = rnd.choice(UNICODE[:8] + [[1, 2], {"a": "b"}, None, 2**64 - 1])
        out.append(dumps(pos))
    return out


# ---- hostile files: a whole file is the attack, not one game ----------------------
#
# Each class makes (file name, bytes) from the clean body of a few good games, which it puts
# *before* the attack: the check (tests/fuzz_check.py check_files) then asserts no traceback, no
# hang, bounded memory, and every good game before the attack read and stored (the last game
# before a cut may be charged with it). A new input kind adds its classes here: a function
# (rnd, good body) -> (name, bytes), registered in FILE_CLASSES.


def f_gzip_bomb(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    filler = rnd.choice([b"\n", b" ", b"{}\n", b"\x00"])
    return "bomb.jsonl.gz", gzip.compress(good + filler * rnd.choice([4 << 20, 32 << 20]), 9)


def f_endless_line(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    body = good + b'{"type":"game","game":"endless","players":["' + b"A" * rnd.choice([2 << 20, 6 << 20])
    return "endless.jsonl", body + (b'"]}\n' if rnd.random() < 0.5 else b"")


def f_bomb_one_line(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    return "bombline.jsonl.gz", gzip.compress(good + b'{"game":"x","t":"' + b"9" * (8 << 20), 9)


def f_binary(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    head = rnd.choice([b"\x89PNG\r\n\x1a\n", b"%PDF-1.7\n", b"PK\x03\x04", b"\x7fELF", b"GIF89a", b""])
    return "photo.jsonl", head + bytes(rnd.getrandbits(8) for _ in range(rnd.choice([500, 20_000])))


def f_gzip_named_plain(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    return "packed.jsonl", gzip.compress(good)


def f_glob_name(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    return rnd.choice(["kahve [eylül].jsonl", "a*b?.jsonl", "[!x].jsonl", "{a,b}.jsonl"]), good


def f_long_name(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    return "u" * rnd.choice([200, 249]) + ".jsonl", good  # NAME_MAX is 255


def f_many_errors(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    return "noise.jsonl", good + rnd.choice([b"{}\n", b"[]\n", b"x\n", b'{"game":1}\n']) * rnd.choice([5_000, 50_000])


# legal input whose replay grows with the square of its events where the reader keeps no bound
# (tests/hostile_logs.py; bench/memory.py measures them at full size)
def f_takeback_flood(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    from hostile_logs import takeback_flood

    return "takebacks.jsonl.gz", gzip.compress(good + takeback_flood(rnd.choice([2_000, 8_000])).encode())


def f_take_discard(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    from hostile_logs import take_discard_flood

    return "passround.jsonl.gz", gzip.compress(good + take_discard_flood(2, rnd.choice([400, 990])).encode())


def f_sheet_flood(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    head = {"type": "game", "game": "flood-sheet", "variant": "101", "players": ["A", "B", "C", "D"], "sheet": True}
    res = {"type": "result", "game": "flood-sheet", "finisher": None, "kind": "exhausted", "opened": [None] * 4,
           "left": [0, 0, 0, 0], "penalties": []}
    rows = [head] + [res | {"hand": i} for i in range(1, rnd.choice([5_000, 32_699]))]
    return "sheet.jsonl.gz", gzip.compress(good + b"".join(dumps(x) + b"\n" for x in rows))


def f_huge_player_name(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    head = {"type": "game", "game": "named", "variant": "101", "players": ["x" * rnd.choice([200, 9_999]), "B", "C", "D"]}
    return "names.jsonl", good + dumps(head) + b"\n"


def f_surrogates(rnd: random.Random, good: bytes) -> tuple[str, bytes]:
    line = rnd.choice([b'{"type":"game","game":"s\\ud800","variant":"101","players":["A","B","C","D"]}',
                       b'{"type":"game","game":"s2","variant":"101","players":["\\udfff","B","C","D"]}'])
    return "surrogates.jsonl", good + line + b"\n"


def f_junk_after_complete(rnd: random.Random, good: bytes) -> tuple[str, bytes, set[str]]:
    """A complete game (its planned last hand ended), then more junk than the errors listed, some
    naming it: the game is kept, its reason never cut."""
    whole = (Path(__file__).parent / "data" / "golden" / "normal_finish.jsonl").read_bytes()
    gid = json.loads(whole.split(b"\n", 1)[0])["game"]
    junk = b"x\n" * 150 + dumps({"type": "draw", "game": gid}) + b"\n"
    return "junk.jsonl", good + whole + junk * rnd.choice([1, 5]), {gid}


FILE_CLASSES: dict[str, Callable[[random.Random, bytes], tuple[Any, ...]]] = {
    "gzip_bomb": f_gzip_bomb, "endless_line": f_endless_line, "bomb_one_line": f_bomb_one_line,
    "binary": f_binary, "gzip_named_plain": f_gzip_named_plain, "glob_name": f_glob_name,
    "long_name": f_long_name, "many_errors": f_many_errors, "takeback_flood": f_takeback_flood,
    "take_discard": f_take_discard, "sheet_flood": f_sheet_flood, "huge_player_name": f_huge_player_name,
    "surrogates": f_surrogates, "junk_after_complete": f_junk_after_complete,
}
# not files of bytes: paths the check opens as they are (a FIFO it makes, a device)
SPECIAL_PATHS = ("fifo", "/dev/zero", "/dev/urandom")
# what each class may keep: "all" the good games, "prefix" the good games but the last before the attack
KEEPS = {"gzip_bomb": "prefix", "endless_line": "all", "bomb_one_line": "prefix", "binary": "none",
         "gzip_named_plain": "none", "glob_name": "all", "long_name": "all", "many_errors": "all",
         "takeback_flood": "all", "take_discard": "all", "sheet_flood": "all", "huge_player_name": "all",
         "surrogates": "all", "junk_after_complete": "all"}


def hostile_files(seed: int, n: int, games: int = 3) -> list[tuple[str, str, bytes, set[str]]]:
    """``n`` hostile files, the classes in turn: (class, file name, bytes, good game ids before the attack)."""
    rnd = random.Random(seed)
    out = []
    kinds = list(FILE_CLASSES)
    for i in range(n):
        kind = kinds[i % len(kinds)]
        pool = [g for g in base_games() if len(g) <= 60] or base_games()
        ids, body = [], b""
        for k in range(games):
            evs = copy.deepcopy(rnd.choice(pool))
            gid = f"hf{seed}-{i}-{k}"
            for ev in evs:
                ev["game"] = gid
            ids.append(gid)
            body += b"".join(dumps(e) + b"\n" for e in evs)
        name, data, *more = FILE_CLASSES[kind](rnd, body)  # more: games besides the good ones it must keep
        keep = {"all": set(ids), "prefix": set(ids[:-1]), "none": set()}[KEEPS[kind]] | (more[0] if more else set())
        out.append((kind, name, data, keep))
    return out

"""Seeded score-sheet logs for the fuzz suite (tests/fuzz_check.py, bench/fuzz.py) and
tests/test_fuzz_sheets.py.

:func:`sheet_game` makes a valid random sheet (any preset, partners or not, cezali or not) and
writes each hand's ``scores`` as worked out here straight from the rule texts (E4-E8, with or
without the hand's penalties, as tables do), an oracle apart from the engine's scorer.
:func:`units` mutates such sheets with the generic classes of tests/fuzz_gen.py and with
``sheet_field``, a result field given a value the format or the rules refuse.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import fuzz_gen

Event = dict[str, Any]
PRESET_OPTIONS = {  # (variant, overrides) a table plays
    "101": None, "101-esli": {"esli": True}, "101-cezasiz": {"cezali": False},
    "101-classic": None, "51": None, "51-esli": {"esli": True},
}
NAMES = ["Ali", "Ayşe", "Mehmet", "Zeynep", "Can", "Elif", "Emre", "İpek"]


def _rules(variant: str, over: dict[str, Any] | None) -> dict[str, Any]:
    from analysis.game import resolve

    return resolve(variant, over).to_dict()


def oracle(r: dict[str, Any], ev: Event) -> list[int]:
    """A hand's written scores from the rule texts (E4-E8), in-game penalties excluded."""
    kind = ev["kind"]
    kinds = set(kind) if isinstance(kind, list) else {kind}
    opened, left, okeys = ev["opened"], ev["left"], ev.get("okeys_left", [0, 0, 0, 0])
    if "void" in kinds:
        return [0, 0, 0, 0]
    fin = ev["finisher"]
    if fin is not None and opened[fin] == "pairs":
        kinds.add("pairs")  # E6: the finisher opened with pairs, whatever the sheet calls it

    def rack(s: int, mult: int) -> int:
        return (left[s] * (2 if opened[s] == "pairs" else 1)) * mult + okeys[s] * r["okey_in_rack"]

    if "exhausted" in kinds:
        if all(o is None for o in opened):
            return [0, 0, 0, 0]  # E4
        return [r["unopened_penalty"] if opened[s] is None else rack(s, 1) for s in range(4)]
    others = any(opened[s] for s in range(4) if s != fin)
    if r["multipliers"] == "E7":  # [003]
        fm = (2 if "pairs" in kinds else 1) * (2 if "okey" in kinds else 1)
        om = fm * (1 if others else 2)
    else:  # [004]: 2 for each of okey, elden, pairs
        fm = om = 2 ** len(kinds & {"okey", "elden", "pairs"})
    out = []
    for s in range(4):
        if s == fin:
            out.append(-r["finisher_bonus"] * fm)
        elif r["esli"] and s == (fin + 2) % 4:
            out.append(0)  # E8
        elif opened[s] is None:
            out.append(r["unopened_penalty"] * om)
        else:
            out.append(rack(s, om))
    return out


def _penalties(rnd: random.Random, r: dict[str, Any], opened: list[str | None]) -> list[Event]:
    rules = []
    if r["cezali"]:
        rules += ["X1", "X2", "X3", "X4"] + ["X5"] * r["x5"] + ["X6"] * r["x6"] + ["X7"] * r["x7"]
    if r["siler"] and any(opened):
        rules.append("O8")
    out = []
    for _ in range(rnd.choice([0, 0, 0, 1, 1, 2])):
        if not rules:
            break
        rule = rnd.choice(rules)
        if rule == "O8":
            seat = rnd.choice([s for s in range(4) if opened[s]])
            out.append({"seat": seat, "rule": "O8", "points": -101})
        else:
            pts = r["x5_factor"] * rnd.randint(1, 13) if rule == "X5" else r["penalty_unit"]
            out.append({"seat": rnd.randrange(4), "rule": rule, "points": pts})
    return out


def _result(rnd: random.Random, r: dict[str, Any], gid: str, hand: int) -> Event:
    opened: list[str | None] = [rnd.choice(["points", "points", "points", "pairs", None, None]) for _ in range(4)]
    c = rnd.random()
    ev: Event = {"type": "result", "game": gid, "hand": hand}
    if c < 0.05 and r["void_all_pairs"]:
        ev.update(finisher=None, kind="void", opened=["pairs"] * 4, left=[None] * 4)
        return ev
    if c < 0.2:
        fin, kind = None, "exhausted"
    else:
        fin = rnd.randrange(4)
        kinds = []
        if rnd.random() < 0.25:
            kinds.append("okey")
        if rnd.random() < 0.2:
            kinds.append("elden")
            opened = [o if s == fin else None for s, o in enumerate(opened)]
        if opened[fin] is None:
            opened[fin] = rnd.choice(["points", "points", "pairs"])
        if opened[fin] == "pairs" and rnd.random() < 0.6:
            kinds.append("pairs")
        kind = kinds if len(kinds) > 1 else (kinds[0] if kinds else "normal")
        if rnd.random() < 0.2:
            opened[fin] = None if "pairs" not in kinds else opened[fin]  # the sheet leaves it empty
    left = [None if s == fin or (opened[s] is None and rnd.random() < 0.5) else rnd.randint(0, 120)
            for s in range(4)]
    okeys = [1 if s != fin and opened[s] and rnd.random() < 0.1 else 0 for s in range(4)]
    ev.update(finisher=fin, kind=kind, opened=opened, left=left)
    if any(okeys):
        ev["okeys_left"] = okeys
    ev["penalties"] = _penalties(rnd, r, opened)
    if rnd.random() < 0.8:
        sc = oracle(r, ev)
        if rnd.random() < 0.5:  # tables write a row with or without its penalties
            for p in ev["penalties"]:
                sc[p["seat"]] += p["points"]
        ev["scores"] = sc
    return ev


def sheet_game(rnd: random.Random, gid: str) -> list[Event]:
    """A valid random score sheet whose written scores are the rule texts'."""
    name = rnd.choice(sorted(PRESET_OPTIONS))
    variant = name.split("-esli")[0].split("-cezasiz")[0]
    over = PRESET_OPTIONS[name]
    r = _rules(variant, over)
    n = rnd.choice([3, 5, 7, 11])
    head: Event = {"type": "game", "game": gid, "variant": variant, "players": rnd.sample(NAMES, 4),
                   "hands": n, "sheet": True}
    if over:
        head["rules"] = dict(over)
    evs = [head]
    hand = 1
    while hand <= n:
        ev = _result(rnd, r, gid, hand)
        evs.append(ev)
        if ev["kind"] != "void":  # E3: a void hand is played again with its number
            hand += 1
    return evs


BAD_FIELDS: list[tuple[str, Any]] = [
    ("kind", "bogus"), ("kind", []), ("kind", ["normal", "okey"]), ("kind", ["okey", "okey"]), ("kind", 3),
    ("opened", ["points", None, None]), ("opened", ["open", None, None, None]), ("left", [-1, 0, 0, 0]),
    ("left", ["x", 0, 0, 0]), ("left", [2**63, 0, 0, 0]), ("finisher", 4), ("finisher", -1), ("finisher", "0"),
    ("okeys_left", [3, 0, 0, 0]), ("penalties", [{"seat": 5, "rule": "X3", "points": 101}]),
    ("penalties", [{"seat": 0, "rule": "X9", "points": 101}]), ("penalties", [{"seat": 0, "rule": "X5", "points": 7}]),
    ("penalties", [{"seat": 0, "rule": "X3", "points": 2**63}]), ("penalties", {"seat": 0}),
    ("scores", [1, 2, 3]), ("scores", [0, 0, 0, 999]), ("kind", "elden"), ("hand", 99), ("kind", "void"),
]


def m_sheet_field(evs: list[Event], rnd: random.Random) -> list[Event]:
    i = rnd.randrange(1, len(evs))
    k, v = rnd.choice(BAD_FIELDS)
    evs[i][k] = copy.deepcopy(v)
    return evs


# the generic classes that apply to any log, and the sheet's own
SHEET_CLASSES = {k: f for k, f in fuzz_gen.CLASSES.items() if k != "tile"} | {"sheet_field": m_sheet_field}


def units(seed: int, mutations: int, clean: int = 0, prefix: str = "sh") -> list[tuple[str, fuzz_gen.Unit, str]]:
    """Like :func:`fuzz_gen.units`, over score sheets: (game id, lines, class)."""
    rnd = random.Random(seed * 7919 + 23)
    names = list(SHEET_CLASSES)
    kinds: list[str | None] = [names[k % len(names)] for k in range(mutations)] + [None] * clean
    rnd.shuffle(kinds)
    out = []
    for i, k in enumerate(kinds):
        gid = f"{prefix}{seed}-{i}"
        evs = sheet_game(rnd, gid)
        if k is None:
            out.append((gid, [fuzz_gen.dumps(e) for e in evs], "clean"))
            continue
        res = SHEET_CLASSES[k](evs, rnd)
        lines = res if res and isinstance(res[0], bytes) else [fuzz_gen.dumps(e) for e in res]  # type: ignore[union-attr]
        out.append((gid, lines, k))  # type: ignore[arg-type]
    return out

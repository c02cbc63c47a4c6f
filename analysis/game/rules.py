"""Rule presets and options (docs/rules.md "Presets").

Glossary of the Turkish terms used across Istaka:

- **per**: a meld, either a **seri** (run, one colour, consecutive) or a **grup** (group, one
  number, different colours).
- **çift**: a pair of identical tiles; opening with pairs is *çiftten açmak*.
- **işlemek**: laying off tiles onto a meld on the table; an *işler taş* is a tile that could be.
- **gösterge**: the indicator tile turned up before the deal; showing its twin is also *gösterge*.
- **okey**: the wild tile (indicator + 1); **sahte okey**: the false okey ``J``, never wild.
- **elden** (kafa): finishing in the turn one first opens while nobody else has opened.
- **katlamalı**: escalating thresholds; **cezalı**: in-game penalties; **eşli**: partners.
- **siler**: a big opening that strikes 101 off the opener's score.

A :class:`Rules` value fixes every option; a log's ``rules`` object overrides single options on
top of its ``variant`` preset (:func:`resolve`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .tiles import brief


class RulesError(ValueError):
    """An unknown preset, an unknown option, or a value an option cannot take."""


@dataclass(frozen=True, slots=True)
class Rules:
    variant: str = "101"
    deal: int = 21  # D1: tiles dealt to each player; the starter gets one more
    open_points: int = 101  # O1
    katlamali: bool = True  # O2: points openings escalate
    open_pairs: int = 5  # O3
    pairs_escalating: bool = True  # O3: pairs openings escalate (only while katlamali)
    gosterge: bool = True  # O7: the indicator twin can be shown
    layoff_opening_turn: bool = True  # L6
    run_end_cap: bool = True  # L3: at most two tiles per run end per turn
    declare_pairs: bool = False  # O10
    open_below_finishing: str = "no"  # O9: "no", "elden" (only while nobody opened) or "yes"
    siler: bool = True  # O8
    siler_points: int = 150
    siler_pairs: int = 7
    cezali: bool = True  # X1
    penalty_unit: int = 101  # X1
    x5: bool = True  # X5: a discard that lets the next player open
    x5_factor: int = 10  # X5: 10 x the tile's value (some tables 20)
    x6: bool = True  # X6 / S3: your okey taken from the table
    x7: bool = False  # X7: several lay-offs taken back
    pairs_discard_takeable: bool = True  # P4: a pairs opener's discards may be taken
    unopened_penalty: int = 202  # E5
    okey_in_rack: int = 101  # E5
    finisher_bonus: int = 101  # E5: written as minus this
    multipliers: str = "E6"  # E6 or E7
    void_all_pairs: bool = True  # E3
    hands: int = 11  # G1
    match_points: bool = False  # G3
    esli: bool = False  # G4, O11, E8

    @property
    def dealt_starter(self) -> int:
        return self.deal + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


PRESETS: dict[str, Rules] = {
    "101": Rules(),
    "101-classic": Rules(
        variant="101-classic",
        katlamali=False,
        pairs_escalating=False,
        gosterge=False,
        layoff_opening_turn=False,
        run_end_cap=False,
        declare_pairs=True,
        open_below_finishing="elden",
        siler=False,
        x5=False,
        x6=False,
        x7=True,
        pairs_discard_takeable=False,
        match_points=True,
    ),
    "51": Rules(
        variant="51",
        deal=14,
        open_points=51,
        open_pairs=4,
        pairs_escalating=False,
        gosterge=False,
        layoff_opening_turn=False,
        run_end_cap=False,
        open_below_finishing="yes",
        siler=False,
        penalty_unit=51,
        x5=False,
        x6=False,
        unopened_penalty=102,
        okey_in_rack=51,
        finisher_bonus=51,
        multipliers="E7",
        void_all_pairs=False,
    ),
}

# Other names tables and tools use for the same options.
ALIASES: dict[str, str] = {
    "escalating": "katlamali",
    "katlamalı": "katlamali",
    "penalties": "cezali",
    "cezalı": "cezali",
    "partners": "esli",
    "eşli": "esli",
    "teams": "esli",
    "unopened": "unopened_penalty",
    "unopened_points": "unopened_penalty",
    "hand_count": "hands",
    "hands_per_game": "hands",
    "indicator_twin": "gosterge",
    "gösterge": "gosterge",
    "threshold": "open_points",
    "opening_threshold": "open_points",
    "pairs_to_open": "open_pairs",
    "layoff_in_opening_turn": "layoff_opening_turn",
    "run_end_limit": "run_end_cap",
    "declare": "declare_pairs",
    "okey_penalty": "okey_in_rack",
    "x5_multiplier": "x5_factor",
}

_O9_VALUES = ("no", "elden", "yes")
MAX_DEAL = 26  # 4 x 26 + 1 + the indicator = 106 (T1, D1)
# The largest value a whole-number option takes, with its rule: far past what any table plays, and
# small enough that every score, exposure and review cost of a game fits the store's INTEGER
# columns (a threshold of 10**18 was stored, then broke `istaka analyze` for every game).
MAX_OPTION: dict[str, tuple[int, str]] = {
    "open_points": (10_000, "O1"), "siler_points": (10_000, "O8"), "siler_pairs": (53, "O8"),
    "open_pairs": (53, "O3"), "penalty_unit": (10_000, "X1"), "x5_factor": (100, "X5"),
    "unopened_penalty": (10_000, "E5"), "okey_in_rack": (10_000, "E5"), "finisher_bonus": (10_000, "E5"),
    "hands": (100, "G1"),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[str(name)]
    except KeyError:
        raise RulesError(f"unknown variant {brief(name)}; presets are {', '.join(PRESETS)}") from None


def resolve(variant: str = "101", overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset ``variant`` with ``overrides`` applied; unknown names are an error."""
    base = preset(variant)
    if not overrides:
        return base
    if not isinstance(overrides, Mapping):
        raise RulesError(f"rules must be an object of option overrides, got {type(overrides).__name__}")
    types = {f.name: f.type for f in fields(Rules)}
    changes: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, value in overrides.items():
        name = ALIASES.get(key, key)
        if name == "variant" or name not in types:
            raise RulesError(f"unknown rule option {brief(key)}; options are {', '.join(n for n in types if n != 'variant')}")
        if name in given:  # the last would win, so the key order would change the rules the checksum ignores
            raise RulesError(f"rule option {name!r} is given twice (as {brief(given[name])} and {brief(key)}); "
                             f"give it once")
        given[name] = key
        if name == "deal" and isinstance(value, list):
            if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                    or value[1] != value[0] + 1):
                raise RulesError(f"option 'deal' as a list is [others, starter] with starter = others + 1, "
                                 f"got {brief(value)} [D1]")
            value = value[0]
        if name == "finisher_bonus" and isinstance(value, int) and not isinstance(value, bool):
            value = abs(value)
        changes[name] = _check(name, types[name], value)
    return replace(base, **changes)


def _check(name: str, typ: Any, value: Any) -> Any:
    if typ in (bool, "bool"):
        if not isinstance(value, bool):
            raise RulesError(f"rule option {name!r} takes true or false, got {brief(value)}")
        return value
    if typ in (int, "int"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(f"rule option {name!r} takes a whole number >= 0, got {brief(value)}")
        if name == "deal" and not 1 <= value <= MAX_DEAL:
            raise RulesError(f"rule option 'deal' takes 1 to {MAX_DEAL} (four racks, the starter's extra tile "
                             f"and the indicator come from 106 tiles), got {brief(value)} [D1]")
        if name == "hands" and value < 1:
            raise RulesError(f"rule option 'hands' must be at least 1, got {brief(value)} [G1]")
        top, rule = MAX_OPTION.get(name, (None, ""))
        if top is not None and value > top:
            raise RulesError(f"rule option {name!r} takes at most {top:,}, got {brief(value)} [{rule}]")
        return value
    if name == "open_below_finishing":
        if isinstance(value, bool):
            value = "yes" if value else "no"
        if value not in _O9_VALUES:
            raise RulesError(f"rule option {name!r} takes one of {_O9_VALUES}, got {brief(value)} [O9]")
        return value
    if name == "multipliers":
        if value not in ("E6", "E7"):
            raise RulesError(f"rule option 'multipliers' takes 'E6' or 'E7', got {brief(value)}")
        return value
    raise RulesError(f"rule option {name!r} cannot be set")

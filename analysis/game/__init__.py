"""The game: tiles, rules presets, melds, the engine, scoring, the log format and replay.

The lowest layer: it imports nothing else from ``analysis``. Everything a higher layer or the
dashboard needs is named here; the modules are

- :mod:`.tiles` — ``Tile`` and its notation (T1, T2), the okey and the false okey;
- :mod:`.rules` — ``Rules`` and the presets ``101``, ``101-classic``, ``51``;
- :mod:`.melds` — runs, groups and pairs (M1-M4), what a meld takes (L2);
- :mod:`.state` — ``HandState`` (immutable), openings, thresholds (O1-O3, O11), penalties;
- :mod:`.moves`, :mod:`.placing`, :mod:`.engine` — ``apply(state, event) -> state``;
- :mod:`.scoring` — hand-end scores (E4-E8), totals and match points (G1-G4);
- :mod:`.lines` — a file's lines as bytes, damage and limits;
  :mod:`.log` — the v1 log reader and writer; :mod:`.replay` — a whole game, hand by hand;
  :mod:`.seatview` — seat-view logs (hidden racks); :mod:`.cut` — a full log as one seat's view;

  :mod:`.sheet` — score-sheet logs: one result per hand, checked and scored (E4-E8);
- :mod:`.procs` — worker processes for ``--jobs`` that end with their parent.
"""

from .engine import apply
from .lines import MAX_DEPTH, MAX_LINE_BYTES, MAX_STRING, FileUnreadable, parse_line
from .log import GameLog, LogFormatError, ReadError, ReadResult, dumps, read_file, write, write_events
from .melds import MeldError, check_pair, classify
from .procs import bounded_map, process_pool
from .replay import GameResult, HandResult, Step, read_and_replay, replay_game
from .rules import PRESETS, Rules, RulesError, preset, resolve
from .scoring import (FinishInfo, ScoreLine, explain_hand, explain_state, match_points, multiplier, score_hand,
                      team_totals)
from .state import (SEATS, HandState, IllegalMove, Opening, Penalty, TableMeld, check_conservation, evolve,
                    new_hand)
from .tiles import (COLOURS, FACES, FALSE_OKEY, HIDDEN, NotationError, Placed, Tile, brief, full_set, okey_of,
                    over_copies, parse_placed, tile_value)

__all__ = [
    "COLOURS", "FACES", "FALSE_OKEY", "HIDDEN", "MAX_DEPTH", "MAX_LINE_BYTES", "MAX_STRING", "PRESETS", "SEATS",
    "FileUnreadable", "FinishInfo", "GameLog", "GameResult", "HandResult", "HandState", "IllegalMove",
    "LogFormatError", "MeldError", "NotationError", "Opening", "Penalty", "Placed", "ReadError",
    "ReadResult", "Rules", "RulesError", "ScoreLine", "Step", "TableMeld", "Tile", "apply", "bounded_map", "brief",
    "check_conservation", "check_pair", "classify", "dumps", "evolve", "explain_hand", "explain_state",
    "full_set", "match_points",
    "multiplier", "new_hand", "okey_of", "over_copies", "parse_line", "parse_placed", "preset", "process_pool",
    "read_and_replay", "read_file", "replay_game", "resolve", "score_hand", "team_totals", "tile_value",
    "write", "write_events",
]

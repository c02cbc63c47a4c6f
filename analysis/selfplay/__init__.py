"""Self-play: the game loop that drives the engine with bots, seeding, the bot registry and the
sample set.

Imports :mod:`analysis.game`, :mod:`analysis.solver` and :mod:`analysis.players`. Every move goes
through ``analysis.game.apply``, so a self-play log is legal by construction and replays the same.
"""

from .bots import BOTS, make_bot
from .match import match as duplicate_match
from .match import paired_ci
from .sample import CAST, SAMPLE_GAMES, SAMPLE_SEED, SAMPLE_TABLES, sample_specs
from . import sets
from .table import LEVELS, PLAY_BOTS, VARIANTS, PlayGame, new_game
from .simulate import GameRecord, GameSpec, Player, play_game, play_on, run, specs, write_records

__all__ = ["BOTS", "CAST", "LEVELS", "PLAY_BOTS", "VARIANTS", "PlayGame", "new_game", "sets", "SAMPLE_GAMES", "SAMPLE_SEED", "SAMPLE_TABLES", "GameRecord", "GameSpec", "Player", "play_on",
           "duplicate_match", "make_bot", "paired_ci", "play_game", "run", "sample_specs", "specs", "write_records"]

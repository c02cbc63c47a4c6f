"""The reader's messages in the page's words (dashboard.words.read_errors): every kind of line the
reader refuses, as the reader words it today, has plain words in Turkish and in English, so a
change of the library's wording cannot slip back to parser English on the page."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from store_logs import make_game

from analysis.game import read_file
from dashboard.words.read_errors import plain

HEAD = {"type": "game", "game": "b", "variant": "101", "players": ["A", "B", "C", "D"]}
BAD_LINES = {  # a line of game "b" -> what the reader says of it
    "not JSON": '{"type":"draw","game":"b","hand":1,"seat":0,"tile":tru}',
    "lacks a field": '{"type":"draw","game":"b","hand":1,"seat":0}',
    "wrong value": '{"type":"draw","game":"b","hand":1,"seat":0,"tile":5}',
    "wrong seat": '{"type":"draw","game":"b","hand":1,"seat":7,"tile":"R1"}',
    "unknown type": '{"type":"jump","game":"b","hand":1}',
    "not an object": "[1, 2]",
    "not UTF-8": b'{"type":"draw","game":"b","hand":1,"seat":0,"tile":"R\xff"}',
}


def _messages(tmp_path: Path) -> list[str]:
    good = "\n".join(json.dumps(e) for e in make_game("ok", seed=2)).encode()
    body = [json.dumps(HEAD).encode()] + [x if isinstance(x, bytes) else x.encode() for x in BAD_LINES.values()]
    body += [b'{"type":"draw","game":"b","hand":1,"seat":0}'] * 25  # past the bound of bad lines listed per game
    body += [json.dumps({"type": "draw", "game": "late", "hand": 1, "seat": 0, "tile": "R1"}).encode()]
    plain_file = tmp_path / "bad.jsonl"
    plain_file.write_bytes(good + b"\n" + b"\n".join(body) + b"\n")
    cut = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress(good + b"\n" + good.replace(b'"ok"', b'"ok2"'))
    cut.write_bytes(whole[:-30])
    out = [e.message for e in read_file(plain_file).errors] + [e.message for e in read_file(cut).errors]
    assert len(out) >= len(BAD_LINES) + 3, out
    return out


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_every_reader_message_has_plain_words(tmp_path: Path, lang: str) -> None:
    for msg in _messages(tmp_path):
        said = plain(msg, lang)
        assert said != msg, f"no words for the reader's message: {msg}"
        for parser in ("not JSON", "column", "lacks field", ", got ", "event before", "compressed file ends"):
            assert parser not in said, (msg, said)


def test_a_line_after_a_games_last_hand_is_said_with_its_game() -> None:
    msg = "a draw event; after the last hand of game 'g1': the line is not read, the game is kept"
    assert plain(msg, "tr") == ("'g1' oyununun son eli bittikten sonra gelen bir çekiş olayı: bu satır okunmadı, "
                                "oyun alındı.")
    assert plain(msg, "en").startswith("A 'draw' event after the last hand of game 'g1' ended")

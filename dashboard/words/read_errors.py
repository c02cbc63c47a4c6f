"""The log reader's messages (analysis.game.log and .lines, as ``istaka import`` stores them) in
the page's language and in plain words: what is wrong with the line, not how the parser saw it.

Each kind of message the reader writes has a pattern here and its words in the locale section
``read_errors``; the library keeps its own English for the CLI. A message no pattern knows (an
engine's illegal move, which names its rule) is shown as the library wrote it.
"""

from __future__ import annotations

import re

from dashboard.words.i18n import lookup
from dashboard.words.locale import table

STRINGS: dict[str, tuple[str, str]] = table("read_errors")

# (pattern of the reader's message, key of its words); the named groups fill the words
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^not JSON: .*? at column (?P<col>\d+)$", "rd_not_json"),
    (r"^not JSON\b", "rd_not_json_any"),
    (r"^not UTF-8: byte (?P<byte>0x[0-9A-Fa-f]{2}) at column (?P<col>\d+)", "rd_not_utf8"),
    (r"^a line of (?P<size>[\d,]+) bytes; the reader's limit is (?P<limit>[\d,]+)", "rd_line_long"),
    (r"^an event is a JSON object, got (?P<got>\w+)", "rd_not_object"),
    (r"^(?P<type>\w+) event lacks field '(?P<field>[^']+)'", "rd_lacks"),
    (r"^event lacks field '(?P<field>[^']+)'", "rd_lacks_any"),
    (r"^field '(?P<field>[^']+)' of a (?P<type>\w+) event must be (?P<want>.+), got (?P<got>.+)$", "rd_field_bad"),
    (r"^field '(?P<field>[^']+)' must be (?P<want>.+), got (?P<got>.+)$", "rd_field_bad_any"),
    (r"^unknown event type (?P<got>.+)$", "rd_unknown_type"),
    (r"^(?P<type>\w+) event before the game's 'game' event", "rd_before_header"),
    (r"^game id (?P<got>.+) seen again \(first at line (?P<first>\d+)\)", "rd_seen_again"),
    (r"^game (?P<got>.+) is already stored with different content", "rd_conflict"),
    (r"^the compressed file ends early \(truncated\)", "rd_truncated"),
    (r"^the compressed file ends early: its gzip trailer is missing", "rd_no_trailer"),
    (r"^the compressed data is damaged after this line", "rd_gz_damaged"),
    (r"^the compressed data inflates more than (?P<ratio>\d+) times", "rd_bomb"),
    (r"^the file holds more than (?P<limit>[\d,]+) bytes", "rd_file_big"),
    (r"^(?P<n>[\d,]+) more bad lines in this game are not listed \(the first (?P<shown>\d+) are\)", "rd_more_game"),
    (r"^(?P<n>[\d,]+) more errors in this file are not listed \(the first (?P<shown>\d+) are\)", "rd_more_file"),
))
AFTER_END = re.compile(r"; after the last hand of game (?P<game>.+): the line is not read, the game is kept$")
# what a field must hold, as the reader says it (log._need), and its words
WANTS = {"a tile": "rd_w_tile", "a list of tiles": "rd_w_tiles", "a seat 0-3": "rd_w_seat",
         "a whole number": "rd_w_number", "a hand number >= 1": "rd_w_hand", "a table meld index": "rd_w_meld",
         "a string": "rd_w_string", "a preset name": "rd_w_preset", "4 whole numbers": "rd_w_four"}


def t(key: str, lang: str, **fields: object) -> str:
    """The string ``key`` of the reader's words in ``lang`` (Turkish unless ``en``)."""
    return lookup(STRINGS, key, lang, **fields)


def plain(message: str, lang: str) -> str:
    """The reader's ``message`` in plain words of ``lang``; one no pattern knows, as it is."""
    text = str(message)
    after = AFTER_END.search(text)
    if after is not None:
        text = text[: after.start()]
    out = text
    for pat, key in PATTERNS:
        m = pat.search(text)
        if m is None:
            continue
        fields = {k: v for k, v in m.groupdict().items() if v is not None}
        if "type" in fields:
            fields["type"] = event_name(fields["type"], lang)
        if "field" in fields:
            fields["field"] = field_name(fields["field"], lang)
        if key.startswith("rd_field_bad"):
            want = WANTS.get(fields.get("want", ""))
            if want is None:
                key += "_plain"  # a requirement without words of its own: the value is named, not it
            else:
                fields["want"] = t(want, lang)
        out = t(key, lang, **fields)
        break
    if after is None:
        return out
    game = after["game"]
    if out == text and text.startswith("a "):  # "a draw event" past the last hand: said in full
        return t("rd_event", lang, type=event_name(text.split()[1], lang), game=game)
    return out + " " + t("rd_after_end", lang, game=game)


def event_name(kind: str, lang: str) -> str:
    """An event type as the page names it (Turkish: in words; English: the log's own name)."""
    key = f"rd_ev_{kind}"
    return t(key, lang) if key in STRINGS else repr(kind)


def field_name(name: str, lang: str) -> str:
    """A field as the page names it (Turkish: in words; English: the log's own name, quoted)."""
    key = f"rd_f_{name}"
    return t(key, lang) if key in STRINGS else repr(name)


def where(line: object, game: object, field: object, rule: object, lang: str) -> str:
    """"Line 12 · game g1 · field 'tile' · rule X4": the parts a row has."""
    parts = []
    if line not in (None, ""):
        parts.append(t("rd_line", lang, line=line))
    if game not in (None, ""):
        parts.append(t("rd_game", lang, game=game))
    if field not in (None, ""):
        parts.append(t("rd_field", lang, field=field_name(str(field), lang)))
    if rule not in (None, ""):
        parts.append(t("rd_rule", lang, rule=rule))
    return " · ".join(parts)

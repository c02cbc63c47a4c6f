"""Seeded random and hostile note texts for tests/test_notes.py and
bench/notes.py: any code point (control characters, lone surrogates, the private use area,
astral planes), combining marks, right-to-left and zero-width characters, HTML, Markdown, SQL,
format fields, CRLF line breaks, outer white space, and lengths around the 2,000-character bound."""

from __future__ import annotations

import random
import re

PIECES = (
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[link](javascript:alert(1))", "![x](http://e.x)",
    "**bold** _it_ `code` # head", "'); DROP TABLE notes; --", "\" OR 1=1 --", "{n} {0} %s %(x)s {{}}",
    "\u202eevil\u202c", "\u200b\u200d\ufeff", "e\u0301\u0301\u0301", "İıŞşĞğÜüÖöÇç", "🀄🂡👍🏽‍", "\U0010ffff",
    "\ud800", "\udfff", "\x00", "\x07", "\x1b[31m", "\x7f", "\x85", "\r\n", "\r", "\n", "\t", "  ", "\u3000",
    "--", "!?", "??", "\\", "\\n", "NaN", "None", "null", "0", "-1", "1e309",
)


REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # as analysis/store/notes.py
SAFE_PIECES = tuple(p for p in PIECES if not REFUSED.search(p))
WORDS = "abcçdefgğhıijklmnoöprsştuüvyz ,.!?"
LATIN_C1 = "".join(map(chr, range(0x20, 0x300)))
LATIN = REFUSED.sub("", LATIN_C1)


def _code_point(rng: random.Random, safe: bool) -> str:
    while True:
        c = chr(rng.randint(0, 0x10FFFF))  # any code point, surrogates included
        if not safe or not REFUSED.match(c):
            return c


def _corpus(seed: int) -> str:
    """200,000 characters of Turkish letters and Latin ones with their marks (nothing refused)."""
    rng = random.Random(seed)
    return "".join("".join(rng.choices(WORDS, k=60) + rng.choices(LATIN, k=rng.randint(0, 20))) for _ in range(2_800))


def one_text(rng: random.Random, corpus: str) -> str:
    """A text of 0..2,100 characters, often near the bound, with hostile pieces at random places;
    half of them hold no character the store refuses (so that their length is what is tried)."""
    kind = rng.random()
    safe = rng.random() < 0.5
    if kind < 0.1:
        return rng.choice(SAFE_PIECES if safe else PIECES)
    target = rng.choice((0, 1, 2, 50, 500, 1_999, 2_000, 2_001, 2_100)) if kind < 0.4 else rng.randint(0, 2_100)
    at = rng.randrange(len(corpus) - 2_100)
    parts = list(corpus[at: at + target])
    for _ in range(rng.randint(0, 8) if parts else 0):
        r = rng.random()
        s = (rng.choice(SAFE_PIECES if safe else PIECES) if r < 0.6 else _code_point(rng, safe) if r < 0.9
             else rng.choice(LATIN if safe else LATIN_C1))
        parts.insert(rng.randrange(len(parts) + 1), s)
    out = "".join(parts)
    return out[:target] if rng.random() < 0.7 else out


def texts(n: int, seed: int = 24) -> list[str]:
    rng, corpus = random.Random(seed), _corpus(seed)
    return [one_text(rng, corpus) for _ in range(n)]


def marks(n: int, seed: int = 5) -> list[object]:
    """Mostly good marks, some bad ones (unknown strings, other types)."""
    rng = random.Random(seed)
    good: list[object] = ["", "!!", "!", "?!", "?", "??", " ? ", None]
    bad: list[object] = ["!?", "?!?", "x", 3, b"!", "\x00", "‼", "\ud800"]
    return [rng.choice(bad if rng.random() < 0.1 else good) for _ in range(n)]

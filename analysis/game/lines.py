"""Lines of a log file as the reader takes them (LOG_FORMAT "What a reader must do with bad input").

Bytes, not text: a byte that is not UTF-8 makes only its own line unreadable, and the line
numbers are real file lines. A UTF-8 byte-order mark is skipped. A gzip file that ends early (or
whose data breaks) gives every line before the damage, then a :class:`Damage` saying so. The
limits below bound what one line may hold, so that no value can exhaust the reader, the error
messages or the store: a line past them is unreadable, and only its game with it.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

loads: Callable[[bytes | str], Any]
try:  # orjson parses several times faster; the standard library is the fallback
    from orjson import loads
except ImportError:  # pragma: no cover
    loads = json.loads

MAX_LINE_BYTES = 1_000_000  # one event line
MAX_STRING = 10_000  # characters in one JSON string
MAX_DEPTH = 64  # nesting of JSON arrays and objects (an event itself is depth 1)
BOM = b"\xef\xbb\xbf"
_NAME = re.compile(rb'"game"\s*:\s*"((?:[^"\\\n]|\\.){1,10000})"')
_CHUNK = 1 << 20


class FileUnreadable(OSError):
    """A file whose encoding cannot be read from its start (not gzip, a broken gzip header)."""


@dataclass
class Damage:
    """Where a compressed file stops making sense; ``complete``: only its trailer is missing."""

    message: str
    complete: bool = False


def _limits(ev: Any) -> tuple[str, str | None] | None:
    """The first limit a parsed event breaks: (message, top-level field), else None."""
    stack: list[tuple[Any, int, str | None]] = [(ev, 1, None)]
    while stack:
        x, depth, top = stack.pop()
        if isinstance(x, str):
            if len(x) > MAX_STRING:
                return f"a string of {len(x):,} characters; the reader's limit is {MAX_STRING:,}", top
        elif isinstance(x, (list, dict)):
            if depth > MAX_DEPTH:
                return f"JSON nested deeper than {MAX_DEPTH} levels (the reader's limit)", top
            if isinstance(x, dict):
                for k, v in x.items():
                    if len(k) > MAX_STRING:
                        return f"a key of {len(k):,} characters; the reader's limit is {MAX_STRING:,}", top
                    stack.append((v, depth + 1, k if top is None else top))
            else:
                stack.extend((v, depth + 1, top) for v in x)
    return None


def named_game(raw: bytes) -> str | None:
    """The game a line that cannot be read names (``"game": "..."`` in its text), if any."""
    m = _NAME.search(raw)
    if m is None:
        return None
    try:
        name = loads(b'"' + m.group(1) + b'"')  # orjson refuses lone surrogates (\ud800)
        name.encode("utf-8")
    except (ValueError, UnicodeError):
        return None
    return name if isinstance(name, str) and name else None


def parse_line(raw: bytes | str) -> tuple[Any, str | None, str | None]:
    """(event, None, None), or (event or None, why the line cannot be read, the field at fault):
    the event is there when only a limit was broken."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_LINE_BYTES:
        return None, f"a line of {len(raw):,} bytes; the reader's limit is {MAX_LINE_BYTES:,}", None
    if raw.startswith(BOM):
        raw = raw[3:]
    try:
        ev = loads(raw)
    except (ValueError, RecursionError) as e:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as u:
            return None, f"not UTF-8: byte 0x{raw[u.start]:02X} at column {u.start + 1}", None
        if isinstance(e, json.JSONDecodeError):
            return None, f"not JSON: {e.msg} at column {e.colno}", None
        return None, f"not JSON: {str(e).split(':')[0]}", None
    if len(raw) > MAX_STRING or raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        hit = _limits(ev)
        if hit is not None:  # the event still says which game (or position id) it belongs to
            return ev, hit[0], hit[1]
    return ev, None, None


def open_text(path: str | Path) -> TextIO:
    """A log file as text (gzip by its suffix), for tools that read it themselves."""
    p = Path(path)
    if p.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(p, "rb"), encoding="utf-8")
    return open(p, encoding="utf-8")


def raw_lines(path: Path, raw: bytes | None = None) -> Iterator[bytes | Damage]:
    """A file's lines as bytes (without the newline); a damaged .gz yields a :class:`Damage` last.
    ``raw``: the file's bytes, read elsewhere."""
    if path.suffix != ".gz":
        with open(path, "rb") if raw is None else io.BytesIO(raw) as fh:
            for b in fh:
                yield b[:-1] if b.endswith(b"\n") else b
        return
    with open(path, "rb") if raw is None else io.BytesIO(raw) as fh:
        d = zlib.decompressobj(31)
        fed = started = False  # fed: the current gzip member has begun
        tail = b""
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            data = chunk
            while data:
                if not fed:
                    data = data.lstrip(b"\x00")  # zero padding between or after members
                    if not data:
                        break
                try:
                    out = d.decompress(data)
                except zlib.error as e:
                    if not started:
                        raise FileUnreadable(f"not a readable gzip file ({e})") from None
                    yield Damage(f"the compressed data is damaged after this line ({e}); the rest of the "
                                 f"file is lost")
                    return
                fed = started = True
                if out:
                    lines = (tail + out).split(b"\n")
                    tail = lines.pop()
                    yield from lines
                if d.eof:
                    data = d.unused_data
                    d = zlib.decompressobj(31)
                    fed = False
                else:
                    data = b""
        if not fed:
            if tail:
                yield tail
            return
        # the stream stops before its end: a whole deflate stream without its trailer keeps
        # everything; one cut short loses the line it was in the middle of
        complete = _only_trailer_missing(path.read_bytes() if raw is None else raw)
        if complete and tail:
            yield tail
        yield Damage("the compressed file ends early: its gzip trailer is missing (nothing else was lost)"
                     if complete else "the compressed file ends early (truncated) after this line: the rest of "
                     "the file is lost", complete)


def _only_trailer_missing(data: bytes) -> bool:
    """Whether the last gzip member's deflate stream is whole (only its 8-byte trailer is cut)."""
    # find the last member's deflate data: skip the gzip header of each member in turn
    pos = 0
    while True:
        start = _deflate_start(data, pos)
        if start is None:
            return False
        d = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate: no header, no trailer checks
        try:
            d.decompress(data[start:])
        except zlib.error:
            return False
        if not d.eof:
            return False
        used = len(data) - start - len(d.unused_data)
        pos = start + used + 8
        if pos >= len(data):
            return True


def _deflate_start(data: bytes, pos: int) -> int | None:
    if data[pos:pos + 2] != b"\x1f\x8b" or len(data) < pos + 10:
        return None
    flags = data[pos + 3]
    i = pos + 10
    if flags & 4:  # FEXTRA
        i += 2 + int.from_bytes(data[i:i + 2], "little")
    for bit in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            i = data.index(b"\x00", i) + 1 if b"\x00" in data[i:] else len(data)
    if flags & 2:  # FHCRC
        i += 2
    return i

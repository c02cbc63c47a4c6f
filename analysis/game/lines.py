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
import os
import re
import stat
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
MAX_FILE_BYTES = 1 << 30  # one file's content, inflated (1 GiB); bounds the time one file takes
MAX_RATIO = 200  # a gzip file inflating more than this many times its size is a bomb (logs: 8-30x)
RATIO_FROM = 2 << 20  # ... once past 2 MiB inflated (a log of that size packs to 70 KB or more)
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
        size = getattr(raw, "size", len(raw))  # an Overlong line: only its first bytes were kept
        return None, f"a line of {size:,} bytes; the reader's limit is {MAX_LINE_BYTES:,}", None
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


def raw_lines(path: Path, raw: bytes | None = None, *, limit: int | None = None,
              tap: Callable[[bytes], None] | None = None) -> Iterator[bytes | Damage]:
    """A file's lines as bytes (without the newline); a damaged .gz yields a :class:`Damage` last.
    ``raw``: the file's bytes, read elsewhere; ``tap``: called with every block of the file as it
    is read (to hash it without holding it); ``limit``: bytes the content may inflate to
    (default :data:`MAX_FILE_BYTES`).

    Memory stays bounded whatever the file holds: a gzip member is inflated a block at a time, a
    line past :data:`MAX_LINE_BYTES` is kept as its first bytes only (an :class:`Overlong`), and a
    file inflating past ``limit`` bytes or more than :data:`MAX_RATIO` times its compressed size
    (a gzip bomb) ends in a :class:`Damage` naming the limit. Only regular files are opened: a
    FIFO or a device (``/dev/zero``) would block or never end."""
    limit = MAX_FILE_BYTES if limit is None else limit
    if raw is None:
        _regular(path)
    with open(path, "rb") if raw is None else io.BytesIO(raw) as fh:
        def blocks() -> Iterator[bytes]:
            for b in iter(lambda: fh.read(_CHUNK), b""):
                if tap is not None:
                    tap(b)
                yield b
        split = _Splitter()
        if path.suffix != ".gz":
            first = True
            for b in blocks():
                if first:
                    _not_binary(b)
                    first = False
                if split.total + len(b) > limit:
                    yield from split.feed(b[:max(0, limit - split.total)])
                    yield Damage(_past_limit(limit))
                    return
                yield from split.feed(b)
            yield from split.end()
            return
        yield from _gzip_lines(path, raw, blocks(), split, limit)


def inflated_size(raw: bytes, stop: int) -> int:
    """How many bytes gzip data inflates to, counted a block at a time and stopped once past
    ``stop`` (an upload's limit counts what a .gz holds, not its compressed size)."""
    d = zlib.decompressobj(31)
    total = 0
    data = raw
    try:
        while data and total <= stop:
            total += len(d.decompress(data, _CHUNK))
            if d.eof:
                data = d.unused_data.lstrip(b"\x00")
                d = zlib.decompressobj(31)
            else:
                data = d.unconsumed_tail
    except zlib.error as e:
        if not total:
            raise FileUnreadable(f"not a readable gzip file ({e})") from None
    return total


class Overlong(bytes):
    """A line past :data:`MAX_LINE_BYTES`: its first bytes only; ``size`` is the whole line's."""

    size: int


def _past_limit(limit: int) -> str:
    return (f"the file holds more than {limit:,} bytes (inflated), the reader's limit: the rest is not read; "
            f"split it into smaller files")


def _regular(path: Path) -> None:
    """Refuse what is not a regular file before opening it (opening a FIFO blocks)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # open() below says why, as before
    if not stat.S_ISREG(mode):
        what = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a directory" if stat.S_ISDIR(mode) else "not a file")
        raise FileUnreadable(f"not a regular file ({what}): only log files are read")


_MAGIC = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
          (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive"), (b"\x7fELF", "a program"),
          (b"\x1f\x8b", "gzip data (name the file .jsonl.gz)"), (b"BZh", "bzip2 data"),
          (b"\xfd7zXZ", "xz data"), (b"\x28\xb5\x2f\xfd", "zstd data"))


def _not_binary(head: bytes) -> None:
    """Refuse a file that is plainly not text (an image renamed .jsonl): one error, not one per
    line. Known formats by their first bytes; else mostly control bytes in the first 4 KB."""
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise FileUnreadable(f"not a JSON Lines log: the file is {what}")
    sample = head[:4096]
    if len(sample) >= 64:
        ctrl = sum(1 for c in sample if c < 9 or 13 < c < 32 or c == 127)
        if ctrl * 10 > len(sample) * 3:  # over 30%: no log looks like this
            raise FileUnreadable("not a JSON Lines log: the file is binary data")


class _Splitter:
    """Bytes to lines with :data:`MAX_LINE_BYTES` kept per line at most."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.held = 0  # bytes in parts
        self.size = 0  # bytes of the current line so far (also those not kept)
        self.total = 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        self.total += len(data)
        lines = data.split(b"\n")
        last = lines.pop()  # the line still open after this block
        if lines:
            self._add(lines[0])
            yield self._line()
            for line in lines[1:]:  # whole lines of this block: short ones as they are
                if len(line) > MAX_LINE_BYTES:
                    self._add(line)
                    yield self._line()
                else:
                    yield line
        self._add(last)

    def _add(self, piece: bytes) -> None:
        self.size += len(piece)
        room = MAX_LINE_BYTES + 1 - self.held
        if room > 0 and piece:
            self.parts.append(piece[:room])
            self.held += min(room, len(piece))

    def _line(self) -> bytes:
        line = b"".join(self.parts)
        size = self.size
        self.parts, self.held, self.size = [], 0, 0
        if size > MAX_LINE_BYTES:
            out = Overlong(line)
            out.size = size
            return out
        return line

    def end(self) -> Iterator[bytes]:
        if self.size:
            yield self._line()


def _gzip_lines(path: Path, raw: bytes | None, blocks: Iterator[bytes], split: _Splitter,
                limit: int) -> Iterator[bytes | Damage]:
    d = zlib.decompressobj(31)
    fed = started = False  # fed: the current gzip member has begun
    offset = member_at = 0  # file offsets: of the next block, of the current member
    for chunk in blocks:
        data = chunk
        offset += len(chunk)
        while data:
            if not fed:
                data = data.lstrip(b"\x00")  # zero padding between or after members
                if not data:
                    break
                member_at = offset - len(data)
            try:
                out = d.decompress(data, _CHUNK)  # a block at a time: a bomb never inflates whole
            except zlib.error as e:
                if not started:
                    raise FileUnreadable(f"not a readable gzip file ({e})") from None
                yield Damage(f"the compressed data is damaged after this line ({e}); the rest of the "
                             f"file is lost")
                return
            if not started and out:
                _not_binary(out)
            fed = started = True
            if out:
                if split.total + len(out) > limit:
                    yield from split.feed(out[:max(0, limit - split.total)])
                    yield Damage(_past_limit(limit))
                    return
                used = offset - len(d.unconsumed_tail)  # compressed bytes inflated so far
                if split.total + len(out) > RATIO_FROM and split.total + len(out) > MAX_RATIO * used:
                    yield Damage(f"the compressed data inflates more than {MAX_RATIO} times its size (a gzip "
                                 f"bomb?), the reader's limit: the rest is not read")
                    return
                yield from split.feed(out)
            if d.eof:
                data = d.unused_data
                d = zlib.decompressobj(31)
                fed = False
            else:
                data = d.unconsumed_tail
    if not fed:
        yield from split.end()
        return
    # the stream stops before its end: a whole deflate stream without its trailer keeps
    # everything; one cut short loses the line it was in the middle of
    try:
        left = d.flush()  # output still held back (a deflate copy is 258 bytes at most)
    except zlib.error:
        left = b""
    pending = list(split.feed(left))
    complete = _only_trailer_missing(path, raw, member_at)
    yield from pending
    if complete:
        yield from split.end()
    yield Damage("the compressed file ends early: its gzip trailer is missing (nothing else was lost)"
                 if complete else "the compressed file ends early (truncated) after this line: the rest of "
                 "the file is lost", complete)


def _only_trailer_missing(path: Path, raw: bytes | None, member_at: int) -> bool:
    """Whether the last gzip member's deflate stream (from file offset ``member_at``) is whole:
    only its 8-byte trailer is cut. Inflated a block at a time, the output thrown away."""
    with open(path, "rb") if raw is None else io.BytesIO(raw) as fh:
        fh.seek(member_at)
        head = fh.read(1 << 16)
        start = _deflate_start(head, 0)
        if start is None or start >= len(head):
            return False
        d = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate: no header, no trailer checks
        data = head[start:]
        while True:
            try:
                while data:
                    d.decompress(data, _CHUNK)
                    if d.eof:
                        break
                    data = d.unconsumed_tail
            except zlib.error:
                return False
            if d.eof:
                return len(d.unused_data) < 8
            data = fh.read(_CHUNK)
            if not data:
                return False


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

"""The study file (docs/studies.md): a study and the v1 log lines of every game it refers to, as
one JSON Lines file, written by :func:`export_study` and taken by :func:`import_study`.

The import stores the games through the normal importer (its checks, its one-line errors,
``istaka errors``), then the study in one transaction, only when the whole file is sound and
every game it refers to is stored as the file carries it. A bad file gives one line naming the
line and field, never a traceback; the good games it carried are kept, nothing of the study is.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from analysis.game.log import MAX_EVENTS, MAX_HANDS, iter_lines, read_lines
from analysis.game.procs import alive

from . import queries
from .importer import ImportSummary, import_paths
from .rows import game_checksum
from .study_rows import (
    MAX_GAME_ID,
    MAX_ITEMS,
    MAX_NAME,
    MAX_NOTE,
    Item,
    StudyError,
    check_name,
    check_note,
    create,
    find,
    get,
    hand_steps,
    is_int,
    is_text,
    need,
)

Con = duckdb.DuckDBPyConnection

FORMAT = "istaka-study"
VERSION = 1
SUFFIX = ".istaka-study"  # not .jsonl: `istaka import DIR` must not take a study for a log
MAX_FILE_BYTES = 50_000_000  # a study file (the dashboard's upload limit per file)
MAX_META_LINE = 64_000  # bytes of the header or of one item line (a 2,000-character note is ~8 kB)
MAX_GAME_LINES = MAX_EVENTS + MAX_HANDS + 1  # lines one game may take (the reader's bounds)


class StudyFileError(StudyError):
    """A study file that cannot be taken, with the line and field that are wrong."""

    def __init__(self, file: str, line: int | None, message: str, field: str | None = None) -> None:
        where = f"{file}:{line}" if line else file
        what = f"field '{field}': " if field else ""
        super().__init__(f"{where}: {what}{message}")
        self.file, self.line, self.field = file, line, field


def file_name(name: str) -> str:
    """A file name for a study: its name's letters, digits and dashes, and :data:`SUFFIX`."""
    slug = "".join(c if c.isalnum() else "-" for c in name.strip()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return (slug[:80] or "study") + SUFFIX


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def export_lines(con: Con, study: int) -> list[str]:
    """The study as the lines of its file (docs/studies.md): the header, one line per item, the
    v1 log lines of every game it refers to (in order of first use), and the end line."""
    s = need(con, study)
    games: list[str] = []
    for it in s.items:
        if it.game not in games:
            games.append(it.game)
    blocks = []
    for g in games:
        log = queries.load_gamelog(con, g)
        if log is None:
            k = next(i for i, it in enumerate(s.items, 1) if it.game == g)
            raise StudyError(f"item {k} of study {s.name!r} refers to game {g!r}, which this database does not "
                             f"hold: import the game again or remove the item")
        blocks.append(list(iter_lines([log])))
    head = {"type": "study", "format": FORMAT, "version": VERSION, "name": s.name,
            "exported": datetime.now().astimezone().isoformat(timespec="seconds"), "items": len(s.items),
            "games": [{"game": g, "lines": len(b)} for g, b in zip(games, blocks, strict=True)]}
    out = [_dump(head)]
    out += [_dump({"type": "item", "n": k, "game": it.game, "hand": it.hand, "step": it.step, "seat": it.seat,
                   "note": it.note}) for k, it in enumerate(s.items, 1)]
    for b in blocks:
        out += b
    out.append(_dump({"type": "study_end", "lines": len(out) + 1}))
    return out


def export_text(con: Con, study: int) -> str:
    return "".join(export_lines(con, study))


def export_study(con: Con, study: int, out: str | os.PathLike[str]) -> Path:
    """Write the study's file to ``out`` (written whole to a temporary name, then renamed)."""
    p = Path(out)
    text = export_text(con, study)
    tmp = p.with_name(p.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except BaseException:  # a full disk, a kill: no half file left beside the study's
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return p


@dataclass
class StudyImport:
    """What :func:`import_study` did: the games through the importer, the study stored or why not."""

    file: str
    games: ImportSummary | None = None
    study: int | None = None
    name: str = ""
    items: int = 0
    status: str = "refused"  # stored, unchanged (the same study was already stored), refused
    renamed: bool = False  # stored under "NAME (2)": another study had the name
    error: str | None = None  # the first problem, one line
    problems: list[str] = field(default_factory=list)  # every problem found, one line each

    def lines(self) -> list[str]:
        out = []
        if self.games is not None:
            out.append(f"games: {self.games.line()}")
        if self.status == "stored":
            out.append(f"study {self.name!r} stored as study {self.study} ({self.items} item{'' if self.items == 1 else 's'})"
                       + (" under a new name: another study had this one" if self.renamed else ""))
        elif self.status == "unchanged":
            out.append(f"study {self.name!r} unchanged: it is stored as study {self.study} already")
        else:
            out.append(f"study not stored: {self.error}")
            if len(self.problems) > 1:
                out.append(f"{len(self.problems) - 1} more problems in this file"
                           + (" (see `istaka errors`)" if self.games and (self.games.failed or self.games.conflicts)
                              else ""))
        return out


@dataclass
class _Parsed:
    name: str
    items: list[Item]
    games: list[tuple[str, int, int]]  # (id, first line, lines) of each complete block
    game_lines: dict[int, bytes]  # line number -> a game line to import
    checksums: dict[str, str]  # a game's id -> the checksum of the game as the file carries it


def _json_line(file: str, n: int, raw: bytes, what: str) -> dict[str, Any]:
    if len(raw) > MAX_META_LINE:
        raise StudyFileError(file, n, f"{what} is {len(raw):,} bytes; at most {MAX_META_LINE:,}")
    try:
        obj = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise StudyFileError(file, n, f"{what} is not UTF-8 text") from None
    except (ValueError, RecursionError):
        raise StudyFileError(file, n, f"{what} is not a JSON object") from None
    if not isinstance(obj, dict):
        raise StudyFileError(file, n, f"{what} is not a JSON object")
    return obj


def _field(file: str, n: int, obj: dict[str, Any], name: str, ok: Any, want: str) -> Any:
    if name not in obj:
        raise StudyFileError(file, n, "missing", name)
    v = obj[name]
    if not ok(v):
        shown = json.dumps(v, ensure_ascii=False)
        raise StudyFileError(file, n, f"{shown[:60]}{'…' if len(shown) > 60 else ''} is not {want}", name)
    return v


def _header(file: str, raw: bytes) -> dict[str, Any]:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        head = _json_line(file, 1, raw, "the first line")
    except StudyFileError:
        raise StudyFileError(file, 1, "not an Istaka study file: its first line is not the study's header "
                             "(a JSON object with \"type\": \"study\", docs/studies.md)") from None
    if head.get("type") != "study" or head.get("format", FORMAT) != FORMAT:
        raise StudyFileError(file, 1, "not an Istaka study file: its first line is not the study's header "
                             "(\"type\": \"study\", docs/studies.md)", "type")
    v = _field(file, 1, head, "version", is_int, "a version number")
    if v != VERSION:
        raise StudyFileError(file, 1, f"version {v} is not one this Istaka reads (it reads version {VERSION}); "
                             f"a newer Istaka wrote this file?", "version")
    name = _field(file, 1, head, "name", lambda x: isinstance(x, str), "text")
    try:
        head["name"] = check_name(name)
    except StudyError as e:
        raise StudyFileError(file, 1, str(e), "name") from None
    _field(file, 1, head, "items", lambda x: is_int(x) and 0 <= x <= MAX_ITEMS,
           f"a count of items from 0 to {MAX_ITEMS}")
    games = _field(file, 1, head, "games", lambda x: isinstance(x, list) and len(x) <= MAX_ITEMS,
                   f"a list of at most {MAX_ITEMS} games")
    seen = set()
    for j, g in enumerate(games):
        ok = (isinstance(g, dict) and isinstance(g.get("game"), str) and 1 <= len(g["game"]) <= MAX_GAME_ID
              and is_text(g["game"])
              and is_int(g.get("lines")) and 1 <= g["lines"] <= MAX_GAME_LINES)
        if not ok:
            raise StudyFileError(file, 1, f"entry {j + 1} is not {{\"game\": an id of 1-{MAX_GAME_ID} characters, "
                                 f"\"lines\": 1-{MAX_GAME_LINES:,}}}", "games")
        if g["game"] in seen:
            raise StudyFileError(file, 1, f"game {g['game']!r} is listed twice", "games")
        seen.add(g["game"])
    return head


def _item(file: str, n: int, k: int, of: int, raw: bytes, games: set[str]) -> Item:
    obj = _json_line(file, n, raw, f"item {k}")
    if obj.get("type") != "item":
        raise StudyFileError(file, n, f"item {k} of the {of} the header announces was expected here, "
                             f"found a line of type {str(obj.get('type'))[:40]!r}", "type")
    _field(file, n, obj, "n", lambda x: x == k, f"this item's number ({k})")
    game = _field(file, n, obj, "game", lambda x: isinstance(x, str) and x in games,
                  "a game the header's \"games\" lists (the file must carry every game it refers to)")
    hand = _field(file, n, obj, "hand", lambda x: is_int(x) and 1 <= x <= MAX_HANDS, f"a hand number 1-{MAX_HANDS}")
    step = _field(file, n, obj, "step", lambda x: is_int(x) and 0 <= x <= MAX_EVENTS, f"a step 0-{MAX_EVENTS:,}")
    seat = _field(file, n, obj, "seat", lambda x: is_int(x) and 0 <= x <= 3, "a seat 0-3")
    note = obj.get("note", "")
    if not isinstance(note, str):
        raise StudyFileError(file, n, "is not text", "note")
    if len(note) > MAX_NOTE:
        raise StudyFileError(file, n, f"{len(note):,} characters; a note is at most {MAX_NOTE:,}", "note")
    try:
        check_note(note)
    except StudyError as e:
        raise StudyFileError(file, n, str(e), "note") from None
    return Item(game, hand, step, seat, note)


def _type(raw: bytes) -> Any:
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return obj.get("type") if isinstance(obj, dict) else None


def _split(raw: bytes) -> list[bytes]:
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [x[:-1] if x.endswith(b"\r") else x for x in lines]


def _parse(file: str, raw: bytes, problems: list[str]) -> _Parsed:
    """The file's header and items (a StudyFileError when they are wrong: nothing is imported),
    and its complete game blocks; a truncated or misplaced block and a missing end go to
    ``problems`` (the complete games are still imported, the study is not stored)."""
    lines = _split(raw)
    if not lines:
        raise StudyFileError(file, None, "the file is empty")
    head = _header(file, lines[0])
    n_items, games = head["items"], head["games"]
    ids = {g["game"] for g in games}
    items = []
    for k in range(1, n_items + 1):
        if k >= len(lines):
            raise StudyFileError(file, len(lines), f"the file ends after {k - 1} of its {n_items} items: cut short?")
        items.append(_item(file, k + 1, k, n_items, lines[k], ids))
    pos = n_items + 1  # 0-based index of the next line
    kept: list[tuple[str, int, int]] = []
    game_lines: dict[int, bytes] = {}
    checksums: dict[str, str] = {}
    for g in games:
        gid, count = g["game"], g["lines"]
        block = lines[pos:pos + count]
        first = pos + 1
        pos += count
        if len(block) < count:
            problems.append(str(StudyFileError(
                file, len(lines), f"the file ends inside game {gid!r} ({len(block):,} of its {count:,} lines, from "
                f"line {first:,}): cut short?" + (f" The {len(kept)} complete games before it were imported" if kept
                                                 else ""))))
            break
        ends = [first + j for j, x in enumerate(block) if b'"study_end"' in x and _type(x) == "study_end"]
        if ends:
            problems.append(str(StudyFileError(
                file, ends[0], f"line {ends[0]:,} is the study's end line, inside game {gid!r} (its {count:,} lines "
                f"from line {first:,}, the header says): lines were lost", "games")))
            break
        rr = read_lines(block, file)
        got = [x.id for x in rr.games] + [e.game for e in rr.errors if e.game]
        if set(got) - {gid} or not rr.games and not rr.errors:
            problems.append(str(StudyFileError(
                file, first, f"lines {first:,}-{pos:,} should hold game {gid!r} only (the header says so), "
                f"they hold {', '.join(sorted(set(got)))[:80] or 'no game'}", "games")))
            continue
        if rr.games:
            checksums[gid] = game_checksum(rr.games[0])
        kept.append((gid, first, count))
        for j, x in enumerate(block):
            game_lines[first + j] = x
    else:
        if pos >= len(lines):
            problems.append(str(StudyFileError(file, len(lines), "the file ends without its last line "
                                               "({\"type\": \"study_end\"}): cut short?")))
        else:
            try:
                end = _json_line(file, pos + 1, lines[pos], "the end line") if lines[pos].strip() else {}
            except StudyFileError as e:
                problems.append(str(e))
                end = {"type": "study_end"}
            if end.get("type") != "study_end":
                problems.append(str(StudyFileError(
                    file, pos + 1, "the study's end line ({\"type\": \"study_end\"}) was expected here: the "
                    "header's game line counts do not match the file", "type")))
            elif "lines" in end and end["lines"] != pos + 1:
                problems.append(str(StudyFileError(
                    file, pos + 1, f"the end line says the file has {str(end['lines'])[:20]} lines; it is line "
                    f"{pos + 1:,}: lines were added or lost", "lines")))
            elif any(x.strip() for x in lines[pos + 1:]):
                problems.append(str(StudyFileError(file, pos + 2, "text after the study's end line")))
    return _Parsed(head["name"], items, kept, game_lines, checksums)


def _read(source: str | os.PathLike[str] | bytes, label: str | None) -> tuple[str, bytes]:
    if isinstance(source, bytes):
        name = label or "<study>"
        if len(source) > MAX_FILE_BYTES:
            raise StudyFileError(name, None, f"{len(source):,} bytes; a study file is at most {MAX_FILE_BYTES:,}")
        return name, source
    p = Path(source)
    name = label or str(p)
    try:
        size = os.stat(p).st_size
        if not p.is_file():
            raise StudyFileError(name, None, "not a regular file")
        if size > MAX_FILE_BYTES:
            raise StudyFileError(name, None, f"{size:,} bytes; a study file is at most {MAX_FILE_BYTES:,}")
        with open(p, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise StudyFileError(name, None, f"cannot read it: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:  # it grew meanwhile
        raise StudyFileError(name, None, f"more than {MAX_FILE_BYTES:,} bytes; a study file is at most that")
    return name, raw


def _import_games(con: Con, parsed: _Parsed, label: str, replace: bool) -> ImportSummary:
    """The file's game lines through the importer, at their own line numbers (every other line
    blank, which a log may hold), so its errors name the study file's lines."""
    last = max(parsed.game_lines, default=0)
    sweep_temp()
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(b"\n".join(parsed.game_lines.get(n, b"") for n in range(1, last + 1)) + b"\n")
        return import_paths(con, [tmp], replace=replace, workers=1, labels={tmp: label})
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


TEMP_PREFIX = "istaka-study-"  # then the writing process's id: a file whose process is gone is stale


def sweep_temp(folder: str | None = None) -> int:
    """Remove the temporary game files of study imports whose process is gone (killed with -9
    mid-import, its ``finally`` never ran); each import sweeps before it starts. How many went."""
    gone = 0
    with contextlib.suppress(OSError):
        for p in Path(folder or tempfile.gettempdir()).glob(f"{TEMP_PREFIX}*.jsonl"):
            pid = p.name[len(TEMP_PREFIX):].split("-", 1)[0]
            if pid.isdigit() and int(pid) != os.getpid() and not alive(int(pid)):
                with contextlib.suppress(OSError):
                    p.unlink()
                    gone += 1
    return gone


def _import_problems(con: Con, label: str, shown: str) -> list[tuple[str | None, str]]:
    """The importer's errors for this file (its latest import), as (game, one line)."""
    rows = con.execute("SELECT line, game, message FROM import_errors WHERE file = ? ORDER BY line NULLS LAST",
                       [label]).fetchall()
    return [(game, (f"{shown}:{line}: " if line else f"{shown}: ")
             + (f"game {game}: " if game and repr(game) not in str(msg) else "") + str(msg))
            for line, game, msg in rows]


def import_study(con: Con, source: str | os.PathLike[str] | bytes, *, label: str | None = None,
                 replace: bool = False, name: str | None = None) -> StudyImport:
    """Take a study file (a path, or its bytes with ``label`` naming it): its games through the
    importer (``replace``: a stored game with other content under the same id is overwritten),
    then the study, under ``name`` or the file's. Never raises for what the file holds: the
    result's ``error`` says in one line what was wrong, and nothing of the study is stored."""
    shown = label or (str(source) if not isinstance(source, bytes) else "<study>")
    res = StudyImport(shown)
    problems: list[str] = []
    try:
        shown, raw = _read(source, label)
        res.file = shown
        parsed = _parse(shown, raw, problems)
        if name is not None:
            parsed.name = check_name(name)
    except StudyError as e:
        res.error, res.problems = str(e), [str(e)]
        return res
    res.name, res.items = parsed.name, len(parsed.items)
    failed: set[str] = set()
    store_label = label or f"study:{Path(shown).name}"
    if parsed.game_lines:
        res.games = _import_games(con, parsed, store_label, replace)
        found = _import_problems(con, store_label, shown)
        failed = {g for g, _ in found if g}
        problems += [text for _, text in found]
    for gid, first, _ in parsed.games:  # the game the file carries is the game stored under its id
        have = con.execute("SELECT checksum FROM games WHERE game = ?", [gid]).fetchall()
        want = parsed.checksums.get(gid)
        if want is None or not have:
            if gid not in failed:
                problems.append(f"{shown}:{first}: game {gid!r} could not be stored (see `istaka errors`)")
        elif have[0][0] != want and gid not in failed:  # (the importer's conflict names it already)
            problems.append(f"{shown}:{first}: game {gid!r}: this database holds another game under this id; the "
                            f"study's game was not stored (import with --replace to overwrite the stored one)")
    if not problems:
        for k, it in enumerate(parsed.items, 1):
            steps = hand_steps(con, it.game, it.hand)
            if steps is None:
                problems.append(str(StudyFileError(shown, k + 1, f"item {k}: game {it.game!r} has no hand {it.hand}",
                                                   "hand")))
            elif it.step >= steps:
                problems.append(str(StudyFileError(
                    shown, k + 1, f"item {k}: hand {it.hand} of game {it.game!r} has steps 0-{steps - 1}, "
                    f"not {it.step}", "step")))
    if problems:
        res.error, res.problems = problems[0], problems
        return res
    try:
        _store_imported(con, res, parsed)
    except StudyError as e:
        res.error, res.problems = str(e), [str(e)]
    return res


def _store_imported(con: Con, res: StudyImport, parsed: _Parsed) -> None:
    base = parsed.name
    for k in range(1, 1000):
        name = base if k == 1 else f"{base[:MAX_NAME - 8]} ({k})"
        sid = find(con, name)
        if sid is None:
            res.study, res.name, res.renamed, res.status = create(con, name, parsed.items), name, k > 1, "stored"
            return
        have = get(con, sid)
        if have is not None and have.items == parsed.items:
            res.study, res.name, res.status = sid, name, "unchanged"
            return
    raise StudyError(f"too many studies named {base!r} (1,000): rename some first")


__all__ = ["FORMAT", "MAX_FILE_BYTES", "MAX_GAME_LINES", "MAX_META_LINE", "SUFFIX", "VERSION", "StudyFileError",
           "StudyImport", "export_lines", "export_study", "export_text", "file_name", "import_study"]

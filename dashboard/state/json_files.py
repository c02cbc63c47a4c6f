"""The JSON files the recorder and the Play page keep beside the database: each written at once
and atomically (a reload never reads half a file), read back through a cache keyed by the file's
modification time and size, so a tap does not parse the file again."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def stamp(p: Path) -> tuple[int, int]:
    s = p.stat()
    return s.st_mtime_ns, s.st_size


def write(d: Path, fid: str, data: dict[str, Any], live: dict[str, tuple[tuple[int, int], Any]], obj: Any) -> Path:
    """``data`` as ``d/fid.json`` (through a temporary file renamed over it); ``obj`` cached."""
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{fid}.json.tmp"
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    p = d / f"{fid}.json"
    os.replace(tmp, p)
    live[str(p)] = (stamp(p), obj)
    return p


def read(p: Path, parse: Callable[[bytes], T], live: dict[str, tuple[tuple[int, int], Any]]) -> T | None:
    """The object in ``p`` (``parse`` of its bytes, bounded by the parser), from the cache while
    the file is unchanged; None when it is missing or damaged."""
    try:
        st = stamp(p)
        hit = live.get(str(p))
        if hit is not None and hit[0] == st:
            return hit[1]  # type: ignore[no-any-return]
        obj = parse(p.read_bytes())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    live[str(p)] = (st, obj)
    return obj


__all__ = ["read", "stamp", "write"]

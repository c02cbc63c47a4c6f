"""The server's secret and what it signs: a spectator link's read-only token, a writer's cookie.

The secret is ``[istaka] secret`` in ``.streamlit/secrets.toml`` when set, else a file
``.istaka-secret`` beside the database, made (0600) the first time something is signed. A reader
never makes it: checking a token without a secret says no, so read-only mode writes nothing.
Deleting the file (or changing the secret) invalidates every spectator link and writer cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from pathlib import Path

import streamlit as st

FILE = ".istaka-secret"
_LOCK = threading.Lock()
_CACHE: dict[str, bytes] = {}  # the secret file's path -> its bytes, read once


def _configured() -> bytes | None:
    try:
        v = st.secrets.get("istaka", {}).get("secret")
    except Exception:  # noqa: BLE001  (no secrets.toml, or one that does not parse)
        return None
    return str(v).encode("utf-8") if v else None


def path() -> Path:
    from dashboard.state import data

    return Path(data.db_file()).resolve().parent / FILE


def secret(create: bool) -> bytes | None:
    """The server's secret; ``create``: make the file when there is none (a writer signs)."""
    got = _configured()
    if got:
        return got
    p = path()
    with _LOCK:
        if str(p) in _CACHE:
            return _CACHE[str(p)]
        try:
            raw = p.read_bytes().strip()
        except FileNotFoundError:
            if not create:
                return None
            raw = secrets.token_hex(32).encode("ascii")
            try:
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another server process made it a moment ago
                raw = p.read_bytes().strip()
            except OSError:  # a folder this server cannot write: a secret for this process only
                logging.getLogger("istaka.dashboard").warning(
                    "cannot write %s: spectator links and writer cookies last until a restart", p)
            else:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(raw)
        except OSError:  # unreadable
            return None
        if len(raw) < 32:  # an empty or truncated file is no secret
            return None
        _CACHE[str(p)] = raw
        return raw


def sign(purpose: str, text: str, create: bool = True) -> str | None:
    """HMAC-SHA256 of ``purpose|text`` with the server's secret (32 hex digits), None without one."""
    key = secret(create)
    if key is None:
        return None
    return hmac.new(key, f"{purpose}|{text}".encode(), hashlib.sha256).hexdigest()[:32]


def check(purpose: str, text: str, token: object) -> bool:
    """Whether ``token`` is this server's signature of ``purpose|text`` (constant-time)."""
    if not isinstance(token, str) or len(token) != 32:
        return False
    want = sign(purpose, text, create=False)
    return want is not None and hmac.compare_digest(want, token)


def watch_token(sheet: str) -> str:
    """The read-only token of a score sheet's spectator link (``&watch=TOKEN``)."""
    tok = sign("watch", sheet)
    assert tok is not None
    return tok


def watch_ok(sheet: str, token: object) -> bool:
    return check("watch", sheet, token)


__all__ = ["FILE", "check", "path", "secret", "sign", "watch_ok", "watch_token"]

"""Streamlit's own upload endpoint, bounded (docs/serving.md).

``PUT /_stcore/upload_file/<session>/<file>`` stores a file in the server's memory for any live
session, whatever its page shows: an anonymous reader on a page with no uploader could send 30
files of 45 MB and keep 1.6 GB of the server's memory. Configuration bounds one file only
(``server.maxUploadSize``), so :func:`install` (from dashboard/app.py, once per server) wraps two
methods of Streamlit 1.67's runtime that the endpoint calls:

- ``Runtime.is_active_session``, which the endpoint asks before it reads the body (its only
  caller in 1.67): a session whose page shows no uploader to a writer is "not active" for an
  upload, refused with 400 before a byte is read. Drawing an uploader for a writer gives the
  session the right (:func:`expect`, called by ``dashboard.board.uploader.localise``); a full run
  that ends without drawing one takes it away (:func:`page_starts`, :func:`page_ends`). A run in
  progress keeps the last run's answer: a file dropped while the page reruns is not refused;
- ``MemoryUploadedFileManager.add_file``, called once the file is read: the same right again
  (403), and a budget: a session holds at most :data:`SESSION_MB` and the server :data:`SERVER_MB`
  of uploaded files (413 past either).

A refused file is never stored: memory stays bounded by one file in flight per request
(``maxUploadSize``). Another Streamlit version: :func:`install` logs that it could not guard and
the configuration's limits still hold.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

# a session holds the files its uploader shows until they are removed: as much as the board takes
# in an hour (uploads.HOUR_MB); the server, three writers' worth
SESSION_MB = int(os.environ.get("ISTAKA_UPLOAD_SESSION_MB", "200"))
SERVER_MB = int(os.environ.get("ISTAKA_UPLOAD_SERVER_MB", "600"))
RIGHT_SECONDS = 3600.0  # an uploader left open this long without a rerun loses its right
_LOCK = threading.Lock()
_ALLOWED: dict[str, float] = {}  # session id -> when its right to upload ends
_DRAWN: dict[str, bool] = {}  # session id -> whether its run in progress drew an uploader


def _session() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def page_starts() -> None:
    """A full run begins: no uploader drawn yet."""
    sid = _session()
    if sid is not None:
        with _LOCK:
            _DRAWN[sid] = False


def page_ends(exc: BaseException | None = None) -> None:
    """A full run ended, ``exc`` the exception it ended with: its page is drawn (to its end or to
    an ``st.stop``) and without an uploader the session may not store files; a run cut short by a
    rerun decides nothing (the next one will)."""
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

    sid = _session()
    if sid is not None and not isinstance(exc, RerunException):
        with _LOCK:
            if not _DRAWN.pop(sid, False):
                _ALLOWED.pop(sid, None)


def expect() -> None:
    """This run draws an uploader to a writer: the session may store files."""
    from dashboard.state import access

    sid = _session()
    if sid is None or not access.can_write():
        return
    now = time.monotonic()
    with _LOCK:
        if len(_ALLOWED) > 10_000:  # sessions long gone
            for k in [k for k, v in _ALLOWED.items() if v < now]:
                del _ALLOWED[k]
        _ALLOWED[sid] = now + RIGHT_SECONDS
        _DRAWN[sid] = True


def allowed(session_id: str) -> bool:
    with _LOCK:
        return _ALLOWED.get(session_id, 0.0) > time.monotonic()


def refusal(mgr: Any, session_id: str, size: int, file_id: str) -> tuple[int, str] | None:
    """Why ``mgr`` must not store a file of ``size`` bytes for the session: (HTTP status, words)."""
    if not allowed(session_id):
        return 403, "no uploader on this session's page"
    files = mgr.file_storage.get(session_id) or {}
    mine = sum(len(f.data) for k, f in files.items() if k != file_id)
    old = len(files[file_id].data) if file_id in files else 0
    if mine + size > SESSION_MB * 1024 * 1024:
        return 413, "this session's upload budget is spent"
    if mgr._total_bytes - old + size > SERVER_MB * 1024 * 1024:
        return 413, "the server's upload budget is spent"
    return None


def guard(mgr: Any) -> bool:
    """Wrap ``mgr.add_file`` (once); False when it is not Streamlit's memory manager."""
    if getattr(mgr, "_istaka_guarded", False):
        return True
    if not hasattr(mgr, "add_file") or not hasattr(mgr, "file_storage") or not hasattr(mgr, "_total_bytes"):
        return False
    from starlette.exceptions import HTTPException

    original = mgr.add_file
    lock = threading.Lock()

    def add_file(session_id: str, file: Any) -> None:
        with lock:
            why = refusal(mgr, session_id, len(file.data), file.file_id)
            if why is not None:
                raise HTTPException(status_code=why[0], detail=why[1])
            original(session_id, file)

    mgr.add_file = add_file
    mgr._istaka_guarded = True
    return True


def guard_sessions(runtime: Any) -> bool:
    """Wrap ``runtime.is_active_session`` (once): the upload endpoint's first question."""
    if getattr(runtime, "_istaka_guarded", False):
        return True
    original = runtime.is_active_session
    runtime.is_active_session = lambda session_id: bool(original(session_id)) and allowed(session_id)
    runtime._istaka_guarded = True
    return True


def install() -> bool:
    """Guard the running server's upload endpoint (a no-op without a server: AppTest)."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return False
        rt = Runtime.instance()
        return guard(rt.uploaded_file_mgr) and guard_sessions(rt)
    except Exception:  # noqa: BLE001  (another Streamlit: the config's limit still holds)
        import logging

        logging.getLogger("istaka.dashboard").exception("the upload endpoint could not be guarded")
        return False


__all__ = ["SERVER_MB", "SESSION_MB", "allowed", "expect", "guard", "guard_sessions", "install", "page_ends",
           "page_starts", "refusal"]

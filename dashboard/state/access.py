"""Who may write from the dashboard: the one place every page asks (docs/serving.md).

Three modes, chosen by ``ISTAKA_MODE`` or by a flag after ``--`` on the Streamlit command line
(``streamlit run dashboard/app.py -- --read-only``; the flag wins over the variable):

- ``local`` (the default): one person at 127.0.0.1, every write allowed, as before.
- ``read-only``: every page is served and nothing is written: no upload, no analysis, no deep
  review, no recorder, score sheet, note or study saved. The pages say so.
- ``club``: readers read without an account; a writer logs in, with Streamlit's own ``st.login``
  where ``.streamlit/secrets.toml`` configures an OpenID Connect provider (``[auth]``), else with a
  passphrase whose hash is ``[istaka] writer_passphrase`` in secrets.toml
  (``python -m dashboard.state.access`` prints one). Without either, nobody writes.

One gate for every write (docs/serving.md). A page offers a writing widget only when
:func:`can_write`; the write itself is refused where it happens, whatever the page showed:

- ``access.require_write(lang)`` at the top of a write function raises :class:`WriteRefused` (a
  ``PermissionError``) when this session may not write. :func:`dashboard.state.data.writing_db`,
  the dashboard's only writing connection, calls it; so do the score sheet's and the recorder's
  writes (``sheet_data.save``, ``recordings.save/change/remove/finish``), which also write files.
- ``@access.writes`` on a widget callback (``on_click``/``on_change``): a refused write becomes
  one line on the page (:func:`refusal`, drawn by app.py), never a traceback.
- A page script that writes directly may simply let :class:`WriteRefused` rise: app.py shows it
  as the same one line. A new page (Play) needs nothing more than these two calls.

:func:`read_only_note` tells a reader why a widget is not there. The passphrase login, its
lockout and its cookie live in :mod:`dashboard.state.login`.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import streamlit as st

from dashboard.state import login
from dashboard.words.locale import table

MODES = ("local", "read-only", "club")
ENV = "ISTAKA_MODE"
FLAGS = {"--read-only": "read-only", "--club": "club", "--local": "local"}
REFUSED = "_istaka_refused"  # session state: a write was refused in a callback (app.py says so)
PBKDF2_ROUNDS = 200_000
MAX_PASSPHRASE = 200  # characters a login form takes (every form field is bounded)

STRINGS: dict[str, tuple[str, str]] = table("access")


def t(key: str, lang: str, **fields: object) -> str:
    """A string of this module's table in ``lang`` (tr or en)."""
    tr, en = STRINGS[key]
    return (en if lang == "en" else tr).format(**fields)


def mode(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> str:
    """The serving mode: a flag after ``--`` wins, then $ISTAKA_MODE, else ``local``. A value
    that is not a mode serves read-only (a typo must not open the board for writing)."""
    args = sys.argv[1:] if argv is None else argv
    for a in args:
        if a in FLAGS:
            return FLAGS[a]
    raw = (os.environ if env is None else env).get(ENV, "").strip().lower()
    if not raw:
        return "local"
    return raw if raw in MODES else "read-only"


def mode_problem(env: Mapping[str, str] | None = None) -> str | None:
    """The $ISTAKA_MODE value when it is not a mode (the page says so), else None."""
    raw = (os.environ if env is None else env).get(ENV, "").strip().lower()
    return raw if raw and raw not in MODES else None


def served() -> bool:
    """Whether the board is served to others (read-only or club): then the sidebar shows the
    database's file name only, never its absolute path."""
    return mode() != "local"


def _secrets() -> Any:
    try:
        return st.secrets
    except Exception:  # noqa: BLE001  (no secrets.toml: Streamlit raises on access)
        return {}


def _get(section: str, key: str) -> Any:
    try:
        sec = _secrets().get(section)
        return None if sec is None else sec.get(key)
    except Exception:  # noqa: BLE001  (a secrets.toml that does not parse: no login configured)
        return None


def oidc_configured() -> bool:
    """Streamlit's ``st.login`` needs ``[auth]`` with a redirect_uri and cookie_secret in secrets.toml."""
    return bool(_get("auth", "redirect_uri") and _get("auth", "cookie_secret"))


def passphrase_hash() -> str | None:
    v = _get("istaka", "writer_passphrase")
    return str(v) if v else None


def hash_passphrase(passphrase: str, salt: str | None = None, rounds: int = PBKDF2_ROUNDS) -> str:
    """``pbkdf2_sha256$rounds$salt$hex``: what secrets.toml holds, never the passphrase."""
    salt = salt or secrets.token_hex(16)
    dk = hashlib.pbkdf2_hmac("sha256", passphrase.encode("utf-8"), salt.encode("ascii"), rounds)
    return f"pbkdf2_sha256${rounds}${salt}${dk.hex()}"


def check_passphrase(passphrase: str, stored: str) -> bool:
    """Whether ``passphrase`` matches the stored hash (constant-time compare; a malformed hash is no)."""
    try:
        kind, rounds, salt, _ = stored.split("$")
        if kind != "pbkdf2_sha256" or not 1_000 <= int(rounds) <= 10_000_000:
            return False
        return hmac.compare_digest(hash_passphrase(passphrase[:MAX_PASSPHRASE], salt, int(rounds)), stored)
    except (ValueError, UnicodeError):
        return False


def _user_logged_in() -> bool:
    try:
        return bool(st.user.is_logged_in)
    except Exception:  # noqa: BLE001  (no [auth] configured: st.user has no login)
        return False


def writer() -> str | None:
    """Who writes in this session: "local" in local mode, the OIDC user's e-mail or name, or
    "passphrase"; None for a reader."""
    m = mode()
    if m == "local":
        return "local"
    if m != "club":
        return None
    if oidc_configured() and _user_logged_in():
        u = st.user
        return str(u.get("email") or u.get("name") or "oidc")
    if login.logged_in(passphrase_hash()):
        return "passphrase"
    return None


def can_write() -> bool:
    """The one check before any write from the dashboard: an upload, an analysis, a deep review,
    a recorded event, a score sheet row, a note or a study saved."""
    return writer() is not None


class WriteRefused(PermissionError):
    """A write this session may not make (read-only mode, a club reader); its text in ``lang``."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang or "en"
        super().__init__(refusal_text(self.lang))


def refusal_text(lang: str) -> str:
    return t("ac_refused_read_only" if mode() == "read-only" else "ac_refused_club", lang)


def require_write(lang: str | None = None) -> None:
    """The gate: raise :class:`WriteRefused` unless this session may write. Call it first thing in
    every function that writes the database or the data folder."""
    if not can_write():
        raise WriteRefused(lang)


F = TypeVar("F", bound=Callable[..., Any])


def writes(fn: F) -> F:
    """A widget callback that writes: run only when this session may write; a refusal (before or
    inside it) becomes one line on the page (:func:`refusal`), never a traceback."""

    @functools.wraps(fn)
    def run(*args: Any, **kw: Any) -> Any:
        try:
            require_write()
            return fn(*args, **kw)
        except WriteRefused:
            st.session_state[REFUSED] = True
            return None

    return run  # type: ignore[return-value]


def refusal(lang: str) -> None:
    """The line saying a write was refused (set by :func:`writes`), once; app.py draws it."""
    if st.session_state.pop(REFUSED, False):
        st.warning(refusal_text(lang), icon=":material/block:")


def read_only_note(lang: str) -> None:
    """Where a page would offer a write it may not: one line saying why."""
    m = mode()
    if m == "read-only":
        st.info(t("ac_read_only", lang), icon=":material/visibility:")
    elif m == "club" and not can_write():
        st.info(t("ac_club_reader" if (oidc_configured() or passphrase_hash()) else "ac_club_closed", lang),
                icon=":material/visibility:")


def sidebar(lang: str) -> None:
    """The mode line on every page, and the writers' login in club mode (in the sidebar)."""
    m = mode()
    bad = mode_problem()
    if bad is not None:
        st.warning(t("ac_mode_bad", lang, mode=bad[:40], modes=", ".join(MODES)))
    if m == "read-only":
        st.caption(t("ac_read_only", lang))
    if m != "club":
        return
    login.cookie_script()  # a login or a logout of this session sets or deletes its cookie
    who = writer()
    if who is not None:
        st.caption(t("ac_writer", lang, who=who))
        if who == "passphrase":
            st.button(t("ac_logout", lang), key="ac_logout", on_click=login.logout)
        elif oidc_configured():
            st.button(t("ac_logout", lang), key="ac_logout_oidc", on_click=st.logout)
        return
    if oidc_configured():
        st.button(t("ac_login_oidc", lang), key="ac_login_oidc", on_click=st.login)
    elif passphrase_hash():
        _login_form(lang)
    else:
        st.caption(t("ac_club_closed", lang))


@st.fragment  # a try reruns the form alone, not the page: a wrong try costs the server little
def _login_form(lang: str) -> None:
    with st.form("ac_login_form", border=False):
        st.caption(t("ac_login", lang))
        pw = st.text_input(t("ac_passphrase", lang), type="password", max_chars=MAX_PASSPHRASE, key="ac_pw")
        if st.form_submit_button(t("ac_login_button", lang)):
            stored = passphrase_hash()
            wait = login.try_login(pw or "", stored, check_passphrase) if stored else 0.0
            if wait is None:
                st.rerun(scope="app")
            elif wait > 0:
                st.error(t("ac_wait", lang, s=int(wait + 0.999)))
            else:
                st.error(t("ac_wrong", lang))


def main() -> int:
    """``python -m dashboard.state.access``: read a passphrase and print the line for secrets.toml."""
    import getpass

    pw = getpass.getpass("passphrase: ")
    if not pw or getpass.getpass("again: ") != pw:
        print("the two passphrases differ (or are empty)", file=sys.stderr)
        return 2
    print("[istaka]")
    print(f'writer_passphrase = "{hash_passphrase(pw)}"')
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["MODES", "REFUSED", "STRINGS", "WriteRefused", "can_write", "check_passphrase", "hash_passphrase", "mode",
           "read_only_note", "refusal", "refusal_text", "require_write", "served", "sidebar", "t", "writer", "writes"]

"""The club board's passphrase login (docs/serving.md): a hash in secrets.toml, wrong tries slowed
and locked out, a signed cookie that keeps the writer through a reload, a logout.

- **Refused before hashing.** :class:`Limiter` answers "wait" from memory: a client (its IP address
  from ``st.context.ip_address``, else its session) gets :data:`FREE_TRIES` wrong tries, then waits
  :data:`FIRST_WAIT` seconds, doubling at each further wrong try up to :data:`MAX_WAIT`; the whole
  server takes :data:`SERVER_TRIES` wrong tries per :data:`SERVER_WINDOW` (clients that change
  address or open new sessions), and hashes one passphrase at a time. A refused try costs no hash.
- **A cookie, not a URL.** A right passphrase gives the session a token ``expiry.nonce.mac``
  (HMAC with the server's secret, :mod:`dashboard.state.tokens`, keyed by the passphrase's hash too:
  a new passphrase voids every cookie). Streamlit 1.67 reads cookies (``st.context.cookies``) but
  has no call to set one, so a two-line script (``st.html(..., unsafe_allow_javascript=True)``)
  sets ``istaka_writer`` (``SameSite=Strict``, ``Secure`` over https, :data:`COOKIE_HOURS` hours).
  Set by script, it is not HttpOnly: a script injected into the page could read it (the pages
  draw no user HTML unescaped). A logout revokes its nonce in this server process and deletes it.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from dashboard.state import tokens

COOKIE = "istaka_writer"
COOKIE_HOURS = 12
FREE_TRIES = 3  # wrong tries a client makes at full speed
FIRST_WAIT = 30.0  # seconds after the last free wrong try; doubles with each wrong try after it
MAX_WAIT = 3600.0
SERVER_TRIES = 10  # wrong tries the whole server takes in SERVER_WINDOW seconds, from anyone
SERVER_WINDOW = 900.0
MAX_CLIENTS = 10_000  # clients remembered (the oldest forgotten first)
SESSION = "_istaka_writer"  # this session's writer token
_SET = "_istaka_cookie_set"  # the token the page's cookie script last wrote (or "" for a deletion)


@dataclass
class _Client:
    fails: int = 0
    until: float = 0.0


class Limiter:
    """Failed logins per client and for the whole server; every answer from memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._server: deque[float] = deque()
        self._busy = False  # one passphrase hashed at a time, server-wide
        self.hashes = 0  # passphrases hashed (tests and docs/serving.md measure the cost)

    def wait(self, client: str) -> float:
        """Seconds before ``client`` may try again (0: now)."""
        with self._lock:
            return self._wait(client, self.clock())

    def _wait(self, client: str, now: float) -> float:
        while self._server and now - self._server[0] > SERVER_WINDOW:
            self._server.popleft()
        w = 0.0
        if len(self._server) >= SERVER_TRIES:
            w = self._server[0] + SERVER_WINDOW - now
        c = self._clients.get(client)
        if c is not None:
            w = max(w, c.until - now)
        return max(0.0, w)

    def attempt(self, client: str, check: Callable[[], bool]) -> tuple[bool, float]:
        """Run ``check`` (the hash) unless the client or the server must wait: ``(ok, wait)``, where
        ``wait > 0`` means refused unhashed, or after a wrong try the wait it now has."""
        with self._lock:
            now = self.clock()
            w = self._wait(client, now)
            if w > 0 or self._busy:
                return False, max(w, 1.0)
            self._busy = True
        try:
            self.hashes += 1
            ok = check()
        finally:
            with self._lock:
                self._busy = False
        with self._lock:
            now = self.clock()
            if ok:
                self._clients.pop(client, None)
                return True, 0.0
            c = self._clients.pop(client, None) or _Client()
            c.fails += 1
            if c.fails >= FREE_TRIES:
                c.until = now + min(FIRST_WAIT * 2 ** (c.fails - FREE_TRIES), MAX_WAIT)
            self._clients[client] = c
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
            self._server.append(now)
            return False, self._wait(client, now)


LIMITER = Limiter()
_REVOKED: set[str] = set()  # nonces of logged-out cookies (this server process)


def client_key() -> str:
    """Who is trying: the client's IP address when Streamlit knows it, else the session."""
    try:
        ip = st.context.ip_address
    except Exception:  # noqa: BLE001  (no request context: an AppTest)
        ip = None
    if isinstance(ip, str) and ip:  # (AppTest gives a stand-in object)
        return f"ip:{ip}"
    return "session:" + str(st.session_state.setdefault("_istaka_client", secrets.token_hex(8)))


def _mac(stored: str, body: str) -> str | None:
    return tokens.sign("writer-cookie", f"{stored}|{body}")


def make_token(stored: str, now: float | None = None) -> str:
    """A writer's token: ``expiry.nonce.mac`` (the expiry in Unix seconds)."""
    body = f"{int((time.time() if now is None else now) + COOKIE_HOURS * 3600)}.{secrets.token_hex(8)}"
    mac = _mac(stored, body)
    assert mac is not None
    return f"{body}.{mac}"


def token_ok(stored: str | None, token: object, now: float | None = None) -> bool:
    """Whether ``token`` is a writer's token for this passphrase, not expired nor logged out."""
    if not stored or not isinstance(token, str) or len(token) > 100:
        return False
    parts = token.split(".")
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] in _REVOKED:
        return False
    if int(parts[0]) < (time.time() if now is None else now):
        return False
    want = tokens.sign("writer-cookie", f"{stored}|{parts[0]}.{parts[1]}", create=False)
    return want is not None and hmac.compare_digest(want, parts[2])


def _cookie() -> str | None:
    try:
        return st.context.cookies.get(COOKIE)
    except Exception:  # noqa: BLE001  (no request context)
        return None


def logged_in(stored: str | None) -> bool:
    """Whether this session holds a writer's token (its own, or its browser's cookie)."""
    tok = st.session_state.get(SESSION)
    if token_ok(stored, tok):
        return True
    st.session_state.pop(SESSION, None)
    tok = _cookie()
    if tok != st.session_state.get(_SET, tok) or not token_ok(stored, tok):  # deleted by a logout here
        return False
    st.session_state[SESSION] = tok
    return True


def try_login(passphrase: str, stored: str, check: Callable[[str, str], bool]) -> float | None:
    """Check a passphrase through the limiter: None when it is right (the session is a writer),
    else the seconds the client now waits (0: it may try again at once)."""
    ok, wait = LIMITER.attempt(client_key(), lambda: check(passphrase, stored))
    if ok:
        tok = make_token(stored)
        st.session_state[SESSION] = tok
        st.session_state[_SET] = tok
        return None
    return wait


def revoke(token: object) -> None:
    """A writer's token no longer logs anyone in (in this server process)."""
    if isinstance(token, str) and token.count(".") == 2:
        _REVOKED.add(token.split(".")[1])


def logout() -> None:
    revoke(st.session_state.pop(SESSION, None))
    revoke(_cookie())
    st.session_state[_SET] = ""


def _secure() -> bool:
    try:
        url = str(st.context.url or "")
        proto = (st.context.headers.get("X-Forwarded-Proto") or "").lower()
    except Exception:  # noqa: BLE001
        return False
    return url.startswith("https:") or proto == "https"


def cookie_script() -> None:
    """Write or delete the browser's cookie when this session's login changed it."""
    want = st.session_state.get(_SET)
    if want is None:
        return
    if want:
        flags = f"; Path=/; Max-Age={COOKIE_HOURS * 3600}; SameSite=Strict" + ("; Secure" if _secure() else "")
        value = f"{COOKIE}={want}{flags}"
    else:
        value = f"{COOKIE}=; Path=/; Max-Age=0; SameSite=Strict"
    st.html(f"<script>document.cookie = {json.dumps(value)};</script>", unsafe_allow_javascript=True)


__all__ = ["COOKIE", "COOKIE_HOURS", "FIRST_WAIT", "FREE_TRIES", "LIMITER", "Limiter", "MAX_WAIT", "SERVER_TRIES",
           "SERVER_WINDOW", "client_key", "cookie_script", "logged_in", "logout", "make_token", "revoke",
           "token_ok", "try_login"]

"""The club board's passphrase login (dashboard/state/login.py, docs/serving.md): wrong tries are
refused from memory before any hashing, per client and for the whole server; 40 wrong tries cost
well under a second of CPU and the 41st waits even with the right passphrase; the writer's token
(the cookie's value) is signed, expires, dies with a logout or a new passphrase."""

from __future__ import annotations

import time
from pathlib import Path

import apptest_helpers as ui
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.state import access, login

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PASS = "kahve-101"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from analysis import store

    p = tmp_path / "login.duckdb"
    store.connect(p, seed=False).close()
    monkeypatch.setenv("ISTAKA_DB", str(p))
    monkeypatch.setattr(login, "LIMITER", login.Limiter())
    return p


def test_forty_wrong_tries_hash_three_times_and_the_41st_waits_even_when_right() -> None:
    clock = Clock()
    lim = login.Limiter(clock)
    stored = access.hash_passphrase(PASS)  # the real 200,000 rounds
    cpu = time.process_time()
    for _ in range(40):
        ok, wait = lim.attempt("ip:10.0.0.9", lambda: access.check_passphrase("tahmin", stored))
        assert not ok
        clock.now += 0.5  # a guess every half second
    ok, wait = lim.attempt("ip:10.0.0.9", lambda: access.check_passphrase(PASS, stored))
    cpu = time.process_time() - cpu
    assert not ok and wait > 0, "the 41st try was not refused"
    assert lim.hashes == login.FREE_TRIES == 3
    assert cpu < 1.0, f"40 wrong tries cost {cpu:.2f} s of CPU"
    clock.now += wait
    ok, _ = lim.attempt("ip:10.0.0.9", lambda: access.check_passphrase(PASS, stored))
    assert ok, "after its wait the right passphrase logs in"


def test_the_wait_doubles_with_each_wrong_try_after_the_free_ones_up_to_the_cap() -> None:
    clock = Clock()
    lim = login.Limiter(clock)
    waits = []
    for _ in range(12):
        clock.now += lim.wait("s:1")
        _, w = lim.attempt("s:1", lambda: False)
        waits.append(w)
        clock.now += login.SERVER_WINDOW  # the server's window forgets them
    assert waits[:2] == [0.0, 0.0]
    assert waits[2:5] == [login.FIRST_WAIT, 2 * login.FIRST_WAIT, 4 * login.FIRST_WAIT]
    assert max(waits) == login.MAX_WAIT


def test_new_addresses_or_sessions_do_not_escape_the_servers_own_limit() -> None:
    clock = Clock()
    lim = login.Limiter(clock)
    for k in range(login.SERVER_TRIES):
        assert lim.attempt(f"session:{k}", lambda: False) == (False, pytest.approx(lim.wait(f"session:{k}")))
    ok, wait = lim.attempt("session:new", lambda: True)
    assert not ok and wait > 0 and lim.hashes == login.SERVER_TRIES
    clock.now += login.SERVER_WINDOW + 1
    assert lim.attempt("session:new", lambda: True) == (True, 0.0)


def test_a_right_try_clears_the_clients_count() -> None:
    lim = login.Limiter(Clock())
    lim.attempt("c", lambda: False)
    lim.attempt("c", lambda: False)
    assert lim.attempt("c", lambda: True) == (True, 0.0)
    assert lim.attempt("c", lambda: False) == (False, 0.0), "the count started again"


def test_a_writers_token_is_signed_expires_and_dies_with_a_logout_or_a_new_passphrase(db: Path) -> None:
    from dashboard.state import tokens

    stored = access.hash_passphrase(PASS, rounds=2_000)
    assert not tokens.path().exists()
    assert not login.token_ok(stored, "1999999999.00.0" + "0" * 31), "no secret yet: nothing is valid"
    tok = login.make_token(stored)
    assert tokens.path().stat().st_mode & 0o777 == 0o600
    assert login.token_ok(stored, tok)
    expiry, nonce, mac = tok.split(".")
    assert not login.token_ok(stored, f"{int(expiry) + 3600}.{nonce}.{mac}"), "a longer expiry is not signed"
    assert not login.token_ok(stored, tok, now=int(expiry) + 1), "expired"
    assert not login.token_ok(access.hash_passphrase("yeni", rounds=2_000), tok), "a new passphrase voids it"
    assert not login.token_ok(stored, tok[:-1] + ("0" if tok[-1] != "0" else "1"))
    login.revoke(tok)
    assert not login.token_ok(stored, tok), "logged out"
    assert login.token_ok(stored, login.make_token(stored)), "a new login gets a new token"


def _club(at: AppTest) -> AppTest:
    at.secrets["istaka"] = {"writer_passphrase": access.hash_passphrase(PASS, rounds=2_000)}
    return at


def _said(at: AppTest) -> str:
    return " ".join(m.value for m in [*at.success, *at.warning, *at.error, *at.info])


def _try(at: AppTest, pw: str) -> None:
    at.sidebar.text_input(key="ac_pw").input(pw)
    next(b for b in at.sidebar.button if b.label == "Giriş").click().run()
    ui.ok(at)


def test_the_page_locks_a_guesser_out_and_a_writer_logs_out(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_MODE", "club")
    at = ui.open_page(_club(AppTest.from_file(APP, default_timeout=90)), "games")
    for _ in range(login.FREE_TRIES):
        _try(at, "yanlış")
    assert "Çok fazla yanlış parola" in _said(at)
    _try(at, PASS)
    assert "Çok fazla yanlış parola" in _said(at) and not at.get("file_uploader"), "the right passphrase waits too"
    monkeypatch.setattr(login, "LIMITER", login.Limiter())  # its wait is over
    _try(at, PASS)
    assert at.get("file_uploader") and any("Yazar olarak" in c.value for c in at.sidebar.caption)
    at.sidebar.button(key="ac_logout").click().run()
    ui.ok(at)
    assert not at.get("file_uploader") and "Okuyucu" in _said(at)

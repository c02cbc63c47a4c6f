"""One write gate that holds (docs/serving.md): an anonymous session in read-only mode and a club
reader try every button of every page, the score sheet and the recorder included, and every write
function of dashboard/state directly; the database file and the data folder stay byte-identical.
A page drawn for a writer whose right is gone by the click saves nothing either. A sheet row's
delete asks first and can be undone; a spectator link cannot edit, whatever its parameters."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apptest_helpers as ui
import pytest
from dashboard_logs import many_games, write_log
from store_logs import stored
from streamlit.testing.v1 import AppTest

from analysis import store
from analysis.game.record import Recording
from analysis.store import sheets

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PAGES = ("games", "replay", "opening_lab", "players", "review", "study", "practice", "rules", "record", "sheet", "play")
PASS = "kahve-101"
ROW = {"finisher": 1, "kind": "normal", "opened": ["points", "points", None, None], "left": [7, None, None, None],
       "penalties": []}


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A data folder as a club leaves it: games, a score sheet with two rounds, a recording."""
    from dashboard.state import login, recordings

    folder = tmp_path / "data"
    folder.mkdir()
    db = stored(folder / "club.duckdb", write_log(tmp_path / "g.jsonl", many_games(2)))
    monkeypatch.setenv("ISTAKA_DB", str(db))
    monkeypatch.delenv("ISTAKA_MODE", raising=False)
    monkeypatch.setattr(login, "LIMITER", login.Limiter())
    header = {"type": "game", "game": "sheet-gate", "variant": "101", "players": ["A", "B", "C", "D"], "hands": 11,
              "started": "2026-12-05T10:00:00", "site": "istaka-sheet", "sheet": True}
    con = store.connect(db, seed=False)
    try:
        sheets.save_sheet(con, header, [ROW, ROW])
        game = str(store.queries.list_games(con)["game"].iloc[0])
    finally:
        con.close()
    rec = Recording("kayit-20261205-100000", variant="101", players=["A", "B", "C", "D"], view=0, starter=0)
    recordings.save(str(db), rec)
    yield {"db": db, "folder": folder, "game": game, "sheet": "sheet-gate", "rec": rec.id, "header": header}


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by its path and bytes' hash."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _app(club: bool) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    if club:
        from dashboard.state import access

        at.secrets["istaka"] = {"writer_passphrase": access.hash_passphrase(PASS, rounds=2_000)}
    return at


def _params(board: dict[str, Any], page: str) -> list[dict[str, str]]:
    if page == "sheet":  # the list, the sheet itself, an old spectator link, a forged one
        s = board["sheet"]
        return [{}, {"sheet": s}, {"sheet": s, "watch": "1"}, {"sheet": s, "watch": "0" * 32}]
    if page == "record":
        return [{}, {"rec": board["rec"]}]
    return [{"game": board["game"]}]


def _said(at: AppTest) -> str:
    return " ".join(m.value for m in [*at.success, *at.warning, *at.error, *at.info])


def _every_button(board: dict[str, Any], page: str, params: dict[str, str], club: bool) -> int:
    """Click each live button of the page, each on a fresh page (one may navigate); the count."""
    at = ui.open_page(_app(club), page, **params)
    n = len([b for b in at.button if not b.proto.disabled])
    for i in range(n):
        at = ui.open_page(_app(club), page, **params)
        live = [b for b in at.button if not b.proto.disabled]
        if i < len(live):
            live[i].click().run()
            ui.ok(at)
    return n


@pytest.mark.parametrize("mode", ["read-only", "club"])
def test_an_anonymous_session_writes_nothing_on_any_page_whatever_it_clicks(board: dict[str, Any], mode: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISTAKA_MODE", mode)
    before = snapshot(board["folder"])
    clicked = 0
    for page in PAGES:
        for params in _params(board, page):
            at = ui.open_page(_app(mode == "club"), page, **params)
            keys = {w.key for w in [*at.button, *at.button_group, *at.number_input] if w.key}
            assert not keys & {"save", "delete_row", "delete_yes", "undo_delete", "n_start", "rec_start", "rec_save"}, \
                (page, params, keys)
            assert not at.get("file_uploader"), page
            if page in ("sheet", "record"):
                assert "Salt okunur" in _said(at) or "Okuyucu" in _said(at), (page, params, _said(at))
            clicked += _every_button(board, page, params, mode == "club")
    assert clicked > 20
    assert snapshot(board["folder"]) == before, "an anonymous session changed the data folder"


@pytest.mark.parametrize("mode", ["read-only", "club"])
def test_every_write_function_of_the_dashboard_refuses_an_anonymous_session(board: dict[str, Any], mode: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.state import access, data, recordings, sheet_data

    monkeypatch.setenv("ISTAKA_MODE", mode)
    before = snapshot(board["folder"])
    db = str(board["db"])
    rec = recordings.load(db, board["rec"])
    assert rec is not None
    writes = [lambda: sheet_data.start(["A", "B", "C", "D"], "101", {}, 11),
              lambda: sheet_data.save(board["header"], []),
              lambda: recordings.save(db, Recording("kayit-20261205-110000", variant="101")),
              lambda: recordings.change(db, board["rec"], lambda r: None),
              lambda: recordings.remove(db, board["rec"]),
              lambda: recordings.finish(db, rec),
              lambda: data.writing_db().__enter__()]
    for w in writes:
        with pytest.raises(access.WriteRefused) as e:
            w()
        assert isinstance(e.value, PermissionError) and "Not saved" in str(e.value)
    from dashboard.state import jobs

    ran: list[Any] = []
    assert jobs.submit("deep", "x", lambda job: ran.append(job) or (0, None), "en") is None  # type: ignore[func-returns-value]
    assert jobs.QUEUE.wait_idle(5) and not ran, "a reader's job was queued (it would write as authorized)"
    assert snapshot(board["folder"]) == before


def test_a_page_drawn_for_a_writer_saves_nothing_once_the_right_is_gone(board: dict[str, Any],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The button was on the page; the click comes after the board turned read-only (a logout in
    another tab, a restart in read-only mode): the write itself is refused, one line says so."""
    at = ui.open_page(_app(False), "sheet", sheet=board["sheet"])
    assert at.button(key="delete_row")
    at.button(key="delete_row").click().run()
    before = snapshot(board["folder"])
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    at.button(key="delete_yes").click().run()
    ui.ok(at)
    assert snapshot(board["folder"]) == before
    assert "Kaydedilmedi" in _said(at)


def test_a_round_saved_after_the_right_is_gone_is_refused_in_one_line_where_it_was_tapped(
        board: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    at = ui.open_page(_app(False), "sheet", sheet=board["sheet"])
    def seg(name: str) -> Any:
        return next(w for w in at.button_group if w.key == ui.sheet_key(at, name))

    seg("fin").set_value("1").run()  # B finishes, A opened with 7 left, C and D never opened
    seg("op2").set_value("none").run()
    seg("op3").set_value("none").run()
    at.number_input(key=ui.sheet_key(at, "left0")).set_value(7).run()
    assert not at.button(key="save").disabled
    before = snapshot(board["folder"])
    monkeypatch.setenv("ISTAKA_MODE", "read-only")
    at.button(key="save").click().run()
    ui.ok(at)
    assert snapshot(board["folder"]) == before
    assert "Kaydedilmedi" in _said(at)


def test_a_deleted_round_asks_first_and_can_be_undone(board: dict[str, Any]) -> None:
    def rows() -> list[dict[str, Any]]:
        with store.reading(board["db"]) as con:
            got = sheets.load_sheet(con, board["sheet"])
        assert got is not None
        return got[1]

    first = rows()
    at = ui.open_page(_app(False), "sheet", sheet=board["sheet"])
    at.selectbox(key="pick_row").set_value(0).run()
    at.button(key="delete_row").click().run()
    assert rows() == first and "silinsin mi" in _said(at)
    at.button(key="delete_keep").click().run()
    assert rows() == first and not any(b.key == "delete_yes" for b in at.button)
    at.button(key="delete_row").click().run()
    at.button(key="delete_yes").click().run()
    ui.ok(at)
    assert len(rows()) == 1
    at.button(key="undo_delete").click().run()
    ui.ok(at)
    assert rows() == first


def test_a_spectator_link_never_edits_whatever_its_parameters(board: dict[str, Any],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.state import tokens

    monkeypatch.setenv("ISTAKA_MODE", "club")
    s = board["sheet"]
    at = ui.open_page(_app(True), "sheet", sheet=s)  # the link with "&watch" dropped
    assert not any(b.key in ("save", "delete_row") for b in at.button)
    assert any("-101" in d.value.to_string() or "101" in d.value.to_string() for d in at.dataframe)
    assert not tokens.path().exists(), "a reader made the server's secret"
    monkeypatch.setenv("ISTAKA_MODE", "local")
    token = tokens.watch_token(s)
    assert tokens.watch_ok(s, token) and not tokens.watch_ok("sheet-other", token) and not tokens.watch_ok(s, "1")
    assert tokens.path().stat().st_mode & 0o777 == 0o600
    at = ui.open_page(_app(False), "sheet", sheet=s, watch="1")  # a writer on an unsigned link: told, still watching
    assert "geçerli değil" in _said(at) and not any(b.key == "save" for b in at.button)
    at = ui.open_page(_app(False), "sheet", sheet=s, watch=token)
    assert "geçerli değil" not in _said(at) and not any(b.key == "save" for b in at.button)


def test_the_served_configuration_keeps_the_boards_upload_limit_and_budgets_above_it() -> None:
    import tomllib

    from dashboard.state import upload_guard, uploads

    conf = tomllib.loads((Path(APP).parents[1] / ".streamlit" / "config.toml").read_text())
    assert conf["server"]["address"] == "127.0.0.1"
    assert conf["server"]["maxUploadSize"] == uploads.LIMIT_MB
    assert upload_guard.SESSION_MB >= uploads.LIMIT_MB and upload_guard.SERVER_MB >= upload_guard.SESSION_MB

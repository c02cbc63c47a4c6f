"""Every word a user reads, in Turkish and in English: the translation tables are complete (each
entry in both languages with the same fields, every internal value the pages show has its
words), and every page, run in both languages (AppTest), shows no word of the other language
from a short deny-list, no raw table key and no internal name (snake_case, None, nan).

The game's own words (per, çift, okey, gösterge, işlemek, elden) stay Turkish in English."""

from __future__ import annotations

import ast
import html
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import stored
from streamlit.testing.v1 import AppTest

from dashboard.board import game_rules
from dashboard.state import access, jobs, uploads
from dashboard.words import graph_words, i18n, notes_words, pricing_words, read_errors, record_words, retry_words, rule_links, seatview_words, sheet_strings, study_words, winprob_words
from dashboard.state import review_data as rv

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")

# Turkish UI words that must not appear on an English page (whole words, any case); "işler" is
# left out: the rules' English titles call a tile that can be laid off an "işler tile"
TURKISH = ("oyun", "oyuncu", "oyuncular", "açtı", "açmadı", "işledi", "adım", "tekrar", "hata", "hatalar",
           "maliyet", "eşik", "sayı", "taş", "taşlar", "deste", "sırada", "ceza", "toplam", "hepsi", "tarih",
           "incele", "kalan", "yok", "çekti", "attı", "bitirdi", "el", "kendi", "örnek", "çekişte", "ve", "ile")
# English UI words that must not appear on a Turkish page ("her" is left out: it is Turkish for
# "every", as in "her el", every hand)
ENGLISH = ("the", "player", "players", "game", "games", "step", "hand", "hands", "total", "score", "mistake",
           "mistakes", "cost", "threshold", "opened", "draws", "samples", "seconds", "click", "upload", "rack",
           "tiles", "penalty", "replay", "analysed", "finished", "deck", "discards", "within", "his", "him")
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bnan\b|\bNaN\b|\bNaT\b")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


TABLES = {"i18n": i18n.STRINGS, "review": rv.STRINGS, "category": rv.CATEGORY, "definition": rv.DEFINITION,
          "rules_page": rule_links.STRINGS, "game_rules": game_rules.STRINGS, "access": access.STRINGS,
          "upload_limits": uploads.STRINGS, "sheet": sheet_strings.STRINGS, "seatview": seatview_words.STRINGS,
          "record": record_words.STRINGS, "pricing": pricing_words.STRINGS, "jobs": jobs.STRINGS,
          "graph": graph_words.STRINGS, "notes": notes_words.STRINGS, "retry": retry_words.STRINGS,
          "study": study_words.STRINGS, "read_errors": read_errors.STRINGS, "winprob": winprob_words.STRINGS}


@pytest.mark.parametrize("name", list(TABLES))
def test_every_entry_has_both_languages_with_the_same_fields(name: str) -> None:
    for key, pair in TABLES[name].items():
        assert isinstance(pair, tuple) and len(pair) == 2, key
        tr, en = pair
        assert (tr.strip() and en.strip()) or key == "col_what", key
        assert _fields(tr) == _fields(en), key
        if key.endswith("_one"):
            assert key[:-4] in TABLES[name], key


def test_the_string_tables_do_not_share_keys() -> None:
    """Each page's strings are looked up in their own table: a key in two of them would show one
    page's words on another."""
    tables = [v for k, v in TABLES.items() if k not in ("category", "definition")]
    for i, a in enumerate(tables):
        for b in tables[i + 1:]:
            assert not set(a) & set(b), set(a) & set(b)


def test_every_internal_value_a_page_shows_has_words() -> None:
    from analysis.review import CATEGORIES, SEVERITY
    from analysis.store.queries import GAME_RESULTS

    assert set(rv.CATEGORY) == set(CATEGORIES) == set(rv.DEFINITION)
    assert all(f"sev_{name}" in rv.STRINGS for _, name in SEVERITY)
    assert all(f"result_{r}_f" in i18n.STRINGS for r in GAME_RESULTS)
    for kind in ("unreadable", "conflict", "store", "invalid"):  # queries.import_errors' kinds
        assert f"err_{kind}" in i18n.STRINGS
    for kind in ("normal", "okey", "elden", "pairs"):  # hands.finish_kinds
        assert f"fk_{kind}" in i18n.STRINGS


def test_every_reason_of_the_practice_grader_is_translated() -> None:
    """The grader (analysis/review/practice.py) explains a wrong pick in English; each of its
    reasons has its words in both languages."""
    src = (ROOT / "analysis" / "review" / "practice.py").read_text(encoding="utf-8")
    reasons = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Grade" and len(node.args) > 7:
            arg = node.args[7]
            for c in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
                if isinstance(c, ast.Constant) and c.value:
                    reasons.add(c.value)
    assert len(reasons) >= 5
    assert reasons <= set(rv.REASON), reasons - set(rv.REASON)
    for r in reasons:
        assert rv.reason(r, "tr") != r and rv.reason(r, "en") != r


@pytest.mark.parametrize("name", ["i18n", "review", "seatview", "record", "pricing", "jobs", "access"])
def test_an_english_count_has_its_singular(name: str) -> None:
    """ "{n} games" needs a "1 game" form (``<key>_one``), or the page says "1 games"."""
    table = TABLES[name]
    for key, (_, en) in table.items():
        if re.search(r"(?<!/ )\{n\}\s+\w+s\b", en) and key != "lab_too_long":  # that one: n > 22
            assert key + "_one" in table, key
            assert "{n}" not in table[key + "_one"][1], key


def test_plurals_and_a_gender_neutral_view_in_english() -> None:
    assert i18n.t("new_games", "en", n=1) == "Newly uploaded game:"
    lines = rv.chance_lines({"rows": [{"draws": 1, "p": .5, "se": .1}, {"draws": 3, "p": .7, "se": .1}],
                             "samples": 1, "unseen": 30, "exact": True}, "en")
    assert lines[0].startswith("within 1 draw:") and lines[1].startswith("within 3 draws:")
    assert lines[2].startswith("1 sample,")
    assert "their own view" in rv.t("chance", "en", name="Elif")
    from dashboard.board.replay_view import describe

    lay = describe({"type": "layoff", "seat": 1, "tiles": ["Y13"], "meld": 0}, ["A", "B", "C", "D"], "en")
    assert lay == "lays off Y13 onto per #0"  # not "işler Y13 onto per 0"
    assert "his own" not in json.dumps(TABLES, ensure_ascii=False)


def test_dates_are_written_in_the_pages_language() -> None:
    import datetime as dt

    when = dt.datetime(2026, 10, 16, 20, 30)
    assert i18n.fmt_date(when, "tr") == "16 Eki 2026 20:30"
    assert i18n.fmt_date(when, "en") == "16 Oct 2026 20:30"
    assert i18n.fmt_date(None) == ""


def test_numbers_in_a_turkish_string_have_a_decimal_comma() -> None:
    """A Turkish page read "toplam kayıp 0.0 puan": every float a string table formats is written
    with a decimal comma (and a dot between thousands) in Turkish, with a point in English."""
    assert retry_words.t("rt_score", "tr", right=1, tried=2, cost=0.0).endswith("toplam kayıp 0,0 puan")
    assert "0.0 points lost" in retry_words.t("rt_score", "en", right=1, tried=2, cost=0.0)
    assert "(-22,4 beklenen puan)" in i18n.t("cmp_eval_first", "tr", move="x", e=-22.4)
    assert "(-22.4 expected points)" in i18n.t("cmp_eval_first", "en", move="x", e=-22.4)
    assert f"{i18n.TrNumber(1234.5):,.1f}" == "1.234,5" and str(i18n.TrNumber(2.5)) == "2,5"
    assert "(+3,0 beklenen puan)" in i18n.t("cmp_eval_first", "tr", move="x", e=3)  # an int in a float's format
    assert i18n.t("step_label", "tr", i=1250, n=1300) == "Adım 1250 / 1300"  # a plain int: no separator


# ---- every page, in both languages ---------------------------------------------------------

@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from analysis.selfplay import GameSpec, Player, play_game
    from analysis.store import analyze

    d = tmp_path_factory.mktemp("i18n")
    lines = []
    for i, gid in enumerate(("t-1", "t-2")):
        spec = GameSpec(gid, (Player("Elif", "solver"), Player("Ayşe", "random"), Player("Fatma", "greedy"),
                              Player("Zeynep", "random")), "101", None, str(i + 3), f"2026-10-1{i}T20:00:00+00:00",
                        hands=2)
        lines += play_game(spec).lines()
    log = d / "g.jsonl"
    log.write_text("".join(lines) + '{"type":"game","game":"t-3"}\n{not json\n', encoding="utf-8")
    def then(con: object) -> None:
        from analysis.store import studies

        analyze(con, games=["t-1"])  # t-2 waits for analysis
        studies.create(con, "Ders", [studies.Item("t-1", 1, 12, 0, "not"), studies.Item("t-2", 1, 3, 1, "")])
    yield stored(d / "i18n.duckdb", log, then)


def _texts(at: AppTest) -> list[str]:
    """What a user reads on the page: headings, text, alerts, widget labels and options, table
    headers and text cells, chart titles, axes and legends (HTML tags stripped)."""
    out: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        out += [str(e.value) for e in getattr(at, kind)]
    for kind in ("button", "selectbox", "multiselect", "slider", "toggle", "text_input", "number_input",
                 "date_input", "segmented_control"):
        for w in at.get(kind):
            out.append(str(getattr(w, "label", "")))
            for o in getattr(w, "options", []) or []:
                out.append(str(o))
    for d in list(at.dataframe) + list(at.table):  # st.table: the score sheet's row to be written
        df = d.value
        out += [str(c) for c in df.columns] + [str(i) for i in df.index if isinstance(i, str)]
        for c in df.columns:
            if df[c].dtype == object:
                out += [str(x) for x in df[c].head(30)]
    for c in at.get("plotly_chart"):
        spec = json.loads(c.proto.spec)
        lay = spec.get("layout", {})
        for part in (lay.get("title"), lay.get("xaxis", {}).get("title"), lay.get("yaxis", {}).get("title")):
            if isinstance(part, dict):
                out.append(str(part.get("text", "")))
        out += [str(t.get("name", "")) for t in spec.get("data", [])]
    text = "\n".join(out)
    text = re.sub(r"\]\([^)\s]*\)", "] ", text)  # a Markdown link's target is not read, its text is
    text = re.sub(r"<[^>]+>", " ", text)  # tags and their attributes are not read
    return [html.unescape(text)]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}


PAGES = {  # page -> URL parameters and a click or two, so the page shows most of what it can
    "games": {},
    "replay": {"game": "t-1", "hand": 1, "step": 12},
    "opening_lab": {"rack": "K9 K10 K11 K12 Y7 B7 K7 B10 B11 B12 B13 R1 Y3 B5 K2"},
    "players": {},
    "review": {"game": "t-1"},
    "practice": {},
    "study": {"study": 1, "item": 1},  # a study of two positions (the db fixture's)
    "sheet": {"sheet": "i18n-sheet"},  # a score sheet of its own database (_sheet_db), a round being entered

    "record": {},  # the table form, then the deal
}  # the Rules page renders docs/ (log field names, examples): tests/test_rules_docs.py checks it


def _sheet_db(db: Path) -> Path:
    """A database beside ``db`` holding one finished score sheet."""
    from analysis import store
    from analysis.store import sheets

    p = db.with_name("i18n-sheet.duckdb")
    if not p.exists():
        con = store.connect(p, seed=False)
        row = {"finisher": 0, "kind": ["okey", "pairs"], "opened": ["pairs", "points", None, "points"],
               "left": [None, 12, None, 5], "okeys_left": [0, 1, 0, 0],
               "penalties": [{"seat": 1, "rule": "X4", "points": 101}], "scores": [0, 0, 0, 0]}
        sheets.save_sheet(con, {"game": "i18n-sheet", "variant": "101", "players": ["Ali", "Ayşe", "Mehmet", "Zeynep"],
                                "hands": 7, "rules": {"esli": True}}, [row] * 7)
        con.close()
    return p


@pytest.mark.parametrize("lang", ["tr", "en"])
@pytest.mark.parametrize("page", list(PAGES))
def test_a_page_shows_only_its_languages_words(db: Path, monkeypatch: pytest.MonkeyPatch, page: str,
                                               lang: str) -> None:
    monkeypatch.setenv("ISTAKA_DB", str(_sheet_db(db) if page == "sheet" else db))
    at = ui.open_page(AppTest.from_file(APP, default_timeout=90), page, lang=lang, **PAGES[page])
    if page == "sheet":  # the game is over (its standings); a row corrected: every seat's controls,
        at.button(key="edit_row").click().run()  # the engine's row, the penalties
        next(w for w in at.button_group if w.key == ui.sheet_key(at, "fin")).set_value("1").run()
        at.number_input(key=ui.sheet_key(at, "left0")).set_value(20).run()
        next(w for w in at.button_group if w.key == ui.sheet_key(at, "pen0")).set_value(["X3"]).run()
    if page == "replay":
        at.button(key="b_last").click().run()  # the hand's end: the score table and the finish lines
    if page == "games":
        at.file_uploader(key="upload").set_value(("t.jsonl", b'{"type":"game"}\n{nope\n', "application/json")).run()
    if page == "record":
        texts = _texts(ui.ok(at))
        at.button(key="rec_start").click().run()
        texts += _texts(ui.ok(at))
    elif page == "review":
        texts = _texts(ui.ok(at))
        at.selectbox(key="game").select("t-2").run()  # an unanalysed game: the offer to analyse it
        texts += _texts(ui.ok(at))
    else:
        texts = _texts(ui.ok(at))
    text = "\n".join(texts)
    words = _words(text)
    wrong = sorted(words & set(ENGLISH if lang == "tr" else TURKISH))
    assert not wrong, (page, lang, wrong)
    raw = sorted(set(INTERNAL.findall(text)))  # a raw table key (all have "_") or an internal name
    assert not raw, (page, lang, raw)


def test_the_two_locale_files_hold_the_same_sections_and_keys() -> None:
    """Every word is in dashboard/words/locale/{tr,en}.toml, one file per
    language; a translator who adds a key to one must add it to the other."""
    import tomllib

    loc = ROOT / "dashboard" / "words" / "locale"
    tr = tomllib.loads((loc / "tr.toml").read_text(encoding="utf-8"))
    en = tomllib.loads((loc / "en.toml").read_text(encoding="utf-8"))
    assert list(tr) == list(en)
    for section in tr:
        assert list(tr[section]) == list(en[section]), section
        assert all(isinstance(v, str) for v in [*tr[section].values(), *en[section].values()]), section


def test_no_string_table_is_left_in_the_code() -> None:
    """The dashboard's Python holds no (Turkish, English) table literal any more: each one reads
    its section of the locale files (dashboard/words/locale.py)."""
    for p in (ROOT / "dashboard").rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Dict) and len(value.keys) >= 3 and all(
                    isinstance(v, ast.Tuple) and len(v.elts) == 2
                    and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in v.elts)
                    for v in value.values):
                raise AssertionError(f"{p.relative_to(ROOT)} line {node.lineno}: a string table in the code")

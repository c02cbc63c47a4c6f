"""The rules reference in the repository (docs/rules*.md, docs/log-format*.md), the guide to
reading the deep review (docs/review*.md), the Rules page in both languages, and the helper that
links rule IDs on every page to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import apptest_helpers as ui
import pytest
from store_logs import make_game, stored, write_log
from streamlit.testing.v1 import AppTest

from dashboard.words import rule_links as rl

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
APP = str(ROOT / "dashboard" / "app.py")
ANCHOR = re.compile(r'^<a id="([^"]+)"></a>$', re.MULTILINE)
RULE = re.compile(r"[TDPMOLSXEG][0-9]{1,2}")
# every rule the rules contract names, by section: T1-T6, D1-D2, P1-P5, M1-M5, O1-O11, L1-L6,
# S1-S3, X1-X7, E1-E8, G1-G4
EXPECTED = {f"{k}{i}" for k, n in {"T": 6, "D": 2, "P": 5, "M": 5, "O": 11, "L": 6, "S": 3, "X": 7,
                                   "E": 8, "G": 4}.items() for i in range(1, n + 1)}


def _anchors(name: str) -> list[str]:
    return ANCHOR.findall((DOCS / name).read_text(encoding="utf-8"))


def _rule_anchors(name: str) -> list[str]:
    return [a for a in _anchors(name) if RULE.fullmatch(a)]


# ---- the documents ----------------------------------------------------------------------------

def test_every_rule_has_an_anchor_in_both_languages_in_the_same_order() -> None:
    en, tr = _rule_anchors("rules.md"), _rule_anchors("rules.tr.md")
    assert set(en) == EXPECTED, sorted(EXPECTED ^ set(en))
    assert len(en) == len(set(en))  # each rule once
    assert en == tr  # the same IDs, in the same order
    assert _anchors("rules.md") == _anchors("rules.tr.md")  # sections too (glossary, presets, ...)


@pytest.mark.parametrize("name", ["rules.md", "rules.tr.md"])
def test_each_rule_block_starts_with_its_id_and_every_inner_link_resolves(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    for rule in _rule_anchors(name):
        body = text.split(f'<a id="{rule}"></a>', 1)[1].lstrip("\n")
        assert body.startswith(f"**{rule} — "), (rule, body[:40])  # the block a link jumps to
    anchors = set(_anchors(name))
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in anchors, f"{name}: link to #{target} has no anchor"


@pytest.mark.parametrize("lang", ["en", "tr"])
def test_the_documents_stay_inside_the_repository(lang: str) -> None:
    for doc in ("rules", "log", "review"):
        text = rl.doc_path(doc, lang).read_text(encoding="utf-8")
        assert "../" not in text and "RULES.md" not in text and "LOG_FORMAT" not in text
        for target in re.findall(r"\]\(([^)#]+)(?:#([^)]*))?\)", text):
            file, frag = target
            assert not file.startswith(("http:", "https:", "/")), file
            assert (DOCS / file).is_file(), file
            if frag:
                assert frag in _anchors(file), f"{file}#{frag}"


def test_the_glossary_and_the_presets_are_in_both_languages() -> None:
    words = ("per", "seri", "grup", "çift", "işlemek", "gösterge", "okey", "sahte okey", "elden",
             "katlamalı", "cezalı", "eşli", "siler")
    options = ("deal", "open_points", "katlamali", "open_pairs", "gosterge", "layoff_opening_turn",
               "run_end_cap", "declare_pairs", "open_below_finishing", "siler_points", "cezali",
               "penalty_unit", "x5_factor", "x6", "x7", "pairs_discard_takeable", "unopened_penalty",
               "okey_in_rack", "finisher_bonus", "multipliers", "void_all_pairs", "hands",
               "match_points", "esli")
    for name in ("rules.md", "rules.tr.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        glossary = text.split('<a id="glossary"></a>', 1)[1].split('<a id="presets"></a>', 1)[0]
        for w in words:
            assert f"**{w}**" in glossary, (name, w)
        presets = text.split('<a id="presets"></a>', 1)[1].split('<a id="tiles"></a>', 1)[0]
        assert "`101-classic`" in presets and "`51`" in presets
        for o in options:
            assert f"`{o}`" in presets, (name, o)


def test_every_option_alias_the_engine_accepts_is_documented() -> None:
    from analysis.game import rules as engine_rules

    for name in ("rules.md", "rules.tr.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        presets = text.split('<a id="presets"></a>', 1)[1].split('<a id="tiles"></a>', 1)[0]
        for alias in engine_rules.ALIASES:
            assert f"`{alias}`" in presets, (name, alias)


def test_the_option_table_matches_the_engines_presets() -> None:
    """The documented values of a few options tables change most are the engine's."""
    from analysis.game import PRESETS

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    row = {m.group(1): [c.strip() for c in m.group(2).split("|")]
           for m in re.finditer(r"^\| `(\w+)`[^|]*\|(.*)\|$", text, re.MULTILINE)}
    cols = {"101": 3, "101-classic": 4, "51": 5}  # option | meaning | rule | 101 | classic | 51
    for name, col in cols.items():
        r = PRESETS[name]
        assert row["open_points"][col - 1] == str(r.open_points)
        assert row["open_pairs"][col - 1] == str(r.open_pairs)
        assert row["unopened_penalty"][col - 1] == str(r.unopened_penalty)
        assert row["penalty_unit"][col - 1] == str(r.penalty_unit)
        assert row["deal"][col - 1] == f"{r.deal} / {r.deal + 1}"
        assert row["katlamali"][col - 1] == ("on" if r.katlamali else "off")
        assert row["multipliers"][col - 1].startswith(r.multipliers)


def _ids_cited_by(paths: list[Path]) -> dict[str, set[str]]:
    """Rule IDs the code names: in brackets in messages ("[L3]") or as a quoted rule ("X4"); a
    NumPy dtype ("S32") is not a rule."""
    found: dict[str, set[str]] = {}
    pat = re.compile(r"""\[([TDPMOLSXEG][0-9]{1,2})\]|(?<!dtype=)["']([TDPMOLSXEG][0-9]{1,2})["']""")
    for p in paths:
        for m in pat.finditer(p.read_text(encoding="utf-8")):
            found.setdefault(m.group(1) or m.group(2), set()).add(str(p.relative_to(ROOT)))
    return found


def test_every_rule_id_the_analysis_code_cites_has_an_anchor() -> None:
    cited = _ids_cited_by(sorted((ROOT / "analysis").rglob("*.py")))
    assert len(cited) >= 30  # the engine cites most rules; an empty grep would prove nothing
    documented = set(_rule_anchors("rules.md"))
    missing = {r: sorted(files) for r, files in cited.items() if r not in documented}
    assert not missing, missing


def test_every_rule_id_in_the_dashboards_strings_is_documented() -> None:
    from dashboard.state import review_data
    from dashboard.words import i18n

    texts = [s for table in (i18n.STRINGS, getattr(review_data, "STRINGS", {}), rl.STRINGS)
             for pair in table.values() for s in pair]
    for module in (review_data,):
        texts += [s for v in vars(module).values() if isinstance(v, dict)
                  for pair in v.values() if isinstance(pair, tuple) for s in pair if isinstance(s, str)]
    documented = set(_rule_anchors("rules.md"))
    seen = {m.group(1) for s in texts for m in rl.RULE_RE.finditer(s)} | {
        m.group(3) for s in texts for m in rl.RULE_RE.finditer(s) if m.group(3)}
    assert seen, "no rule ID found in the strings"
    assert seen <= documented, sorted(seen - documented)


HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
REVIEW_SECTIONS = ["score", "decisions", "cost", "passes", "labels", "tables", "hand", "limits"]


def _section(text: str, anchor: str) -> str:
    """The Markdown from ``<a id="anchor"></a>`` to the next anchor."""
    return ANCHOR.split(text.split(f'<a id="{anchor}"></a>', 1)[1])[0]


def test_the_review_guide_has_the_same_sections_in_both_languages() -> None:
    en, tr = (DOCS / "review.md").read_text(encoding="utf-8"), (DOCS / "review.tr.md").read_text(encoding="utf-8")
    assert rl.doc_path("review", "en") == DOCS / "review.md" and rl.doc_path("review", "tr") == DOCS / "review.tr.md"
    assert _anchors("review.md") == _anchors("review.tr.md") == REVIEW_SECTIONS
    assert [len(h) for h in HEADING.findall(en)] == [len(h) for h in HEADING.findall(tr)] == [1] + [2] * 8
    for name, text in (("review.md", en), ("review.tr.md", tr)):
        assert text.startswith("# Reading the deep review\n" if name == "review.md" else "# Derin incelemeyi okumak\n")
        for a in REVIEW_SECTIONS:  # each anchor opens its section's heading, as in the rules
            assert re.search(rf'^<a id="{a}"></a>\n\n## ', text, re.MULTILINE), (name, a)
        for target in re.findall(r"\]\(#([^)]+)\)", text):
            assert target in REVIEW_SECTIONS, (name, target)
        assert 80 <= text.count("\n") <= 200, (name, text.count("\n"))  # a guide, not a manual (it grew with pricing, forced decisions, kinds and confirming worlds)
    # the same tables: rows of the decisions and the labels tables, rule IDs cited per section
    for a in REVIEW_SECTIONS:
        e, t = _section(en, a), _section(tr, a)
        assert e.count("\n| ") == t.count("\n| "), a
        assert sorted(set(re.findall(r"#([A-Z]\d+)\)", e))) == sorted(set(re.findall(r"#([A-Z]\d+)\)", t))), a


@pytest.mark.parametrize("lang,name", [("en", "review.md"), ("tr", "review.tr.md")])
def test_the_review_guide_names_every_label_as_the_pages_show_it(lang: str, name: str) -> None:
    from analysis.review import CATEGORIES
    from analysis.review.deep import TOP, Z
    from analysis.review.words import category_name

    text = (DOCS / name).read_text(encoding="utf-8")
    labels = _section(text, "labels")
    text = " ".join(text.split())  # a phrase may be wrapped across lines
    for cat in CATEGORIES:  # the label as the Review page and the report write it, and its JSON key
        assert category_name(cat, lang) in labels, (name, cat)
        assert f"`{cat}`" in labels, (name, cat)
    assert ("fed_opening" in labels and ("Hindsight notes" if lang == "en" else "Sonradan görülen notlar") in labels)
    # the numbers the guide gives are the deep pass's: change the guide when they change
    assert (Z, TOP) == (2.0, 3)  # "two standard errors", "top three"
    words = {"en": ("two standard errors", "top three", "lower is better", "calibrated", "never another rack"),
             "tr": ("iki standart hata", "İlk üç aday", "düşük olan iyidir", "ayarlı",
                    "Başka bir ıstakaya")}[lang]
    for w in words:
        assert w in text, (name, w)


@pytest.mark.parametrize("lang,name", [("en", "review.md"), ("tr", "review.tr.md")])
def test_the_review_guide_speaks_only_its_own_language(lang: str, name: str) -> None:
    from test_i18n import ENGLISH, TURKISH  # the deny-lists every page is checked against

    text = (DOCS / name).read_text(encoding="utf-8")
    text = re.sub(r"`[^`]*`|\]\([^)]*\)|<[^>]+>", " ", text)  # JSON keys, link targets and anchors are not read
    words = {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}
    deny = set(ENGLISH) - {"her"} if lang == "tr" else set(TURKISH)  # "her" is Turkish too: every
    wrong = sorted(words & deny)
    assert not wrong, (name, wrong)


def test_log_format_keeps_what_a_reader_must_do_with_bad_input() -> None:
    for name, words in (("log-format.md", ("byte-order mark", "line number", "never merged", "invalid")),
                        ("log-format.tr.md", ("bayt sırası", "satır numarası", "birleştirilmez", "geçersiz"))):
        text = (DOCS / name).read_text(encoding="utf-8")
        bad = text.split('<a id="bad-input"></a>', 1)[1].split('<a id="example"></a>', 1)[0]
        for w in words:
            assert w in bad, (name, w)
        for ev in ("game", "hand", "show", "declare", "draw", "take", "return", "open", "meld", "layoff",
                   "swap", "takeback", "discard", "penalty", "end"):
            assert f"| `{ev}` |" in text, (name, ev)


# ---- the link helper --------------------------------------------------------------------------

def test_link_rules_links_known_ids_ranges_and_bracketed_ids_only() -> None:
    text = "illegal [X4]; M1–M4, L1-L3 and O10; not X99, Z4, x4, GAME-G1, rule=X4 or #O8"
    out = rl.link_rules(text, "en")
    assert out == ("illegal [[X4](rules?rule=X4&lang=en)]; [M1](rules?rule=M1&lang=en)–[M4](rules?rule=M4&lang=en), "
                   "[L1](rules?rule=L1&lang=en)-[L3](rules?rule=L3&lang=en) and [O10](rules?rule=O10&lang=en); "
                   "not X99, Z4, x4, GAME-G1, rule=X4 or #O8")
    assert rl.link_rules(out, "en") == out  # already linked text is left alone
    assert rl.link_rules("O8", "tr") == "[O8](rules?rule=O8&lang=tr)"
    assert rl.link_rules(r"\[T1\] M1\-M4", "tr") == (r"\[[T1](rules?rule=T1&lang=tr)\] "
                                                      r"[M1](rules?rule=M1&lang=tr)\-[M4](rules?rule=M4&lang=tr)")


def test_link_rules_html_links_text_but_never_tags() -> None:
    html = '<div class="own" title="X4">X4 · a &amp; E7</div>'
    out = rl.link_rules_html(html, "tr")
    assert out == ('<div class="own" title="X4"><a class="ist-rule" href="rules?rule=X4&amp;lang=tr" target="_blank">'
                   'X4</a> · a &amp; <a class="ist-rule" href="rules?rule=E7&amp;lang=tr" target="_blank">E7</a></div>')
    assert rl.link_rules_html(out, "tr") == out


def test_rule_cells_and_app_links() -> None:
    assert rl.rule_cell("L3", "en") == "rules?rule=L3&lang=en"
    assert rl.rule_cell(None, "en") == "" and rl.rule_cell(float("nan"), "tr") == ""
    assert rl.rule_cell("LOG", "tr") == "LOG"
    assert rl.app_links("[O7](rules.md#O7) [t](rules.tr.md) [l](log-format.tr.md#bad-input) [x](#X4)", "en") == (
        "[O7](rules?rule=O7&lang=en) [t](rules?lang=tr) [l](rules?doc=log&lang=tr#bad-input) [x](#X4)")
    assert rl.app_links("[r](review.md#cost) [R](review.tr.md) [X5](rules.tr.md#X5)", "en") == (
        "[r](rules?doc=review&lang=en#cost) [R](rules?doc=review&lang=tr) [X5](rules?rule=X5&lang=tr)")


def test_rule_blocks_and_titles_in_both_languages() -> None:
    assert rl.rule_ids("en") == rl.rule_ids("tr") and len(rl.rule_ids("en")) == len(EXPECTED)
    assert rl.rule_title("X4", "en") == "Discarding a tile the table takes"
    assert rl.rule_title("X4", "tr") == "İşler taş atmak"
    assert "| elden with an okey | −404 | 808 |" in (rl.rule_block("E6", "en") or "")
    assert rl.rule_block("X99", "en") is None and rl.rule_block("glossary", "en") is None
    for lang in ("en", "tr"):
        assert all(rl.rule_title(r, lang) for r in rl.rule_ids(lang))


def test_the_pages_strings_exist_in_both_languages() -> None:
    for key, (tr_text, en_text) in rl.STRINGS.items():
        assert tr_text and en_text, key
        assert set(re.findall(r"{(\w+)}", tr_text)) == set(re.findall(r"{(\w+)}", en_text)), key


# ---- the Rules page ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("rulesdash")
    yield stored(d / "r.duckdb", write_log(d / "g.jsonl", [make_game("rules-1", seed=1, hands=1)]))


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=60)


@pytest.mark.parametrize("lang,title,x4", [("tr", "Kurallar ve kayıt biçimi", "İşler taş atmak"),
                                           ("en", "Rules and log format", "Discarding a tile the table takes")])
def test_rules_page_shows_the_linked_rule_first_in_the_pages_language(app: AppTest, lang: str, title: str,
                                                                      x4: str) -> None:
    at = ui.open_page(app, "rules", rule="X4", lang=lang)
    assert at.title[0].value == title
    assert at.selectbox(key="rules_pick").value == "X4"
    box = at.get("vertical_block")  # the selected rule, above the full text
    md = [m.value for m in at.markdown]
    first_x4 = next(i for i, m in enumerate(md) if f"**X4 — {x4}" in m)
    full = next(i for i, m in enumerate(md) if '<a id="T1"></a>' in m)
    assert first_x4 < full and '<a id="X4"></a>' in md[full]  # shown first, and in place
    assert f"**X4 — {x4}" in md[full]
    assert box is not None
    other = "Discarding a tile the table takes" if lang == "tr" else "İşler taş atmak"
    assert not any(other in m for m in md)  # one language only
    assert at.query_params.get("rule") in ("X4", ["X4"])


def test_rules_page_jump_changes_the_rule_and_the_url(app: AppTest) -> None:
    at = ui.open_page(app, "rules", lang="en")
    assert at.selectbox(key="rules_pick").value is None
    at.selectbox(key="rules_pick").select("E8").run()
    ui.ok(at)
    assert any("**E8 — Partners at hand end" in m.value for m in at.markdown)
    assert at.query_params.get("rule") in ("E8", ["E8"])


def test_rules_page_reads_a_lowercase_rule(app: AppTest) -> None:
    at = ui.open_page(app, "rules", rule="o8", lang="tr")
    assert at.selectbox(key="rules_pick").value == "O8" and not at.warning
    assert any("**O8 — Siler.**" in m.value for m in at.markdown)


def test_rules_page_refuses_an_unknown_rule_and_opens_the_log_format(app: AppTest) -> None:
    at = ui.open_page(app, "rules", rule="Z9<b>", lang="tr")
    assert at.warning and "Z9&lt;b&gt;" in at.warning[0].value and "T1" in at.warning[0].value  # shows Z9<b>
    at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "rules", doc="log", lang="en")
    text = "\n".join(m.value for m in at.markdown)
    assert "What a reader must do with bad input" in text
    assert "(rules?rule=O7&lang=en)" in text  # links into the rules stay inside the app
    assert "[Türkçe]" not in text and "(log-format" not in text  # the app has its own switches


GUIDE = {"en": ("Reading the deep review", "Reading the review", "is seen **from the player's own seat only**"),
         "tr": ("Derin incelemeyi okumak", "İncelemeyi okumak", "**yalnızca oyuncunun kendi yerinden**")}


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_rules_page_shows_the_review_guide_in_the_pages_language(app: AppTest, lang: str) -> None:
    at = ui.open_page(app, "rules", doc="review", lang=lang)
    title, label, phrase = GUIDE[lang]
    assert at.title[0].value == ("Rules and log format" if lang == "en" else "Kurallar ve kayıt biçimi")
    seg = at.segmented_control(key="rules_doc")
    assert seg.value == "review" and label in [o.content for o in seg.proto.options]
    text = "\n".join(m.value for m in at.markdown)
    assert f"# {title}\n" in text and phrase in text and '<a id="labels"></a>' in text
    other = GUIDE["en" if lang == "tr" else "tr"][0]
    assert other not in text and '<a id="T1"></a>' not in text  # the guide alone, in one language
    assert f"(rules?rule=X5&lang={lang})" in text and "(rules.md" not in text and "(rules.tr.md" not in text
    assert "[English]" not in text and "[Türkçe]" not in text  # the app has its own switches
    assert not at.selectbox  # no rule to jump to in the guide
    assert at.query_params.get("doc") in ("review", ["review"])


def test_rules_page_switches_to_the_review_guide_and_back(app: AppTest) -> None:
    at = ui.open_page(app, "rules", lang="en")
    assert at.segmented_control(key="rules_doc").value == "rules"
    at.segmented_control(key="rules_doc").set_value("review").run()
    ui.ok(at)
    assert any("# Reading the deep review" in m.value for m in at.markdown)
    assert at.query_params.get("doc") in ("review", ["review"])
    at.segmented_control(key="rules_doc").set_value("rules").run()
    ui.ok(at)
    assert "doc" not in at.query_params and any('<a id="T1"></a>' in m.value for m in at.markdown)


@pytest.mark.parametrize("lang,words", [("tr", "Derin inceleme nasıl okunur"), ("en", "How to read the deep review")])
def test_review_page_links_its_deep_review_to_the_guide(app: AppTest, lang: str, words: str) -> None:
    at = ui.open_page(app, "review", game="rules-1", lang=lang)
    link = [c.value for c in at.caption if f"(rules?doc=review&lang={lang})" in c.value]
    assert len(link) == 1 and words in link[0], [c.value for c in at.caption]
    subheads = [s.value for s in at.subheader]
    assert ("Deep review: expected points" if lang == "en" else "Derin inceleme: beklenen puan") in subheads


# ---- rule IDs linked where the pages show them --------------------------------------------------

def _hand_state() -> object:
    from analysis.game import PRESETS, Tile, full_set, new_hand

    tiles = sorted(full_set().elements(), key=str)
    indicator = Tile.parse("R5")
    tiles.remove(indicator)
    racks = [tiles[0:22], tiles[22:43], tiles[43:64], tiles[64:85]]
    return new_hand(PRESETS["101"], 1, 0, indicator, racks)


def test_replay_penalties_and_dangerous_discards_link_their_rules() -> None:
    from analysis.game import Penalty, evolve
    from dashboard.board.replay_view import danger_html
    from dashboard.board.tiles_view import table_html

    state = evolve(_hand_state(), penalties=(Penalty(1, 101, "X4", 7), Penalty(1, -101, "O8", 9)))
    html = table_html(state, ["Ali", "Ayşe", "Mehmet", "Zeynep"], "en")
    assert '+101 (<a class="ist-rule" href="rules?rule=X4&amp;lang=en" target="_blank">X4</a>)' in html
    assert 'href="rules?rule=O8&amp;lang=en"' in html
    danger = danger_html({"x4": ["B3"], "x5": ["K7"]}, state, "tr")
    assert 'href="rules?rule=X4&amp;lang=tr"' in danger and 'href="rules?rule=X5&amp;lang=tr"' in danger


def test_import_errors_link_their_rule_column() -> None:
    import pandas as pd

    from dashboard.state import uploads

    errs = pd.DataFrame({"file": ["/tmp/x/a.jsonl", "b.jsonl"], "line": [3, None], "game": ["g1", None],
                         "kind": ["invalid", "unreadable"], "rule": ["L3", None], "message": ["m", "n"]})
    out = uploads.errors_frame(errs, "en")
    assert list(out["Rule"]) == ["rules?rule=L3&lang=en", ""]
    cfg = uploads.errors_config("en")
    assert "Rule" in set(cfg) <= {"Rule", "What is wrong"}  # the rule a link, the explanation given room
    assert cfg["Rule"]["type_config"]["display_text"] == r"rule=([A-Z][0-9]+)"


def test_a_charts_legend_names_and_links_the_rules_its_labels_cite() -> None:
    labels = ["okey discarded (X3)", "opening taken back (X2, X7)", "these tiles (L1-L3, O4)", "no rule", "X99"]
    assert rl.cited(labels) == ["O4", "L1", "L3", "X2", "X3", "X7"]  # the rules' order, range ends included
    en = rl.legend(labels, "en")
    assert en.startswith("[O4](rules?rule=O4&lang=en): After a pairs opening · [L1](rules?rule=L1&lang=en): ")
    assert "[X3](rules?rule=X3&lang=en): Discarding an okey" in en
    assert rl.legend(["nothing here"], "tr") == ""


def test_the_readme_points_to_the_repositorys_own_rules() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../" not in text and "RULES.md" not in text and "LOG_FORMAT" not in text
    for target in re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", text):
        assert (ROOT / target).is_file(), target
    assert "](docs/rules.md)" in text and "](docs/log-format.md)" in text

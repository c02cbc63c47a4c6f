"""The Rules page lists every guide of docs/ (the same guides the README's "How do I…" table points
to) in the page's language, and opens each one by its link (``rules?doc=lab&lang=tr`` shows
docs/lab.tr.md), its links made to work in the app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import apptest_helpers as ui
from dashboard.words import rule_links as rl
from store_logs import make_game, stored, write_log

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("rulesguides")
    yield stored(d / "r.duckdb", write_log(d / "g.jsonl", [make_game("guides-1", seed=1, hands=1)]))


@pytest.fixture
def app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("ISTAKA_DB", str(db))
    return AppTest.from_file(APP, default_timeout=60)


def test_every_guide_of_the_readme_is_on_the_rules_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    how = readme.split("## How do I", 1)[1].split("\n## ", 1)[0]
    stems = {Path(t).name.removesuffix(".md").removesuffix(".tr") for t in re.findall(r"\]\(docs/([^)#]+)", how)}
    assert stems and stems <= set(rl.GUIDES) | {"rules"}, stems - set(rl.GUIDES)
    for g in rl.GUIDES:  # every guide in both languages
        assert rl.doc_path(g, "en") == ROOT / "docs" / f"{g}.md" and rl.doc_path(g, "en").is_file()
        assert rl.doc_path(g, "tr") == ROOT / "docs" / f"{g}.tr.md" and rl.doc_path(g, "tr").is_file()


@pytest.mark.parametrize("lang,label,lab", [("tr", "Kılavuzlar", "En iyi açılışımı bulmak: açılış laboratuvarı"),
                                            ("en", "Guides", "Find my best opening: the opening lab")])
def test_rules_page_lists_the_guides_in_the_pages_language(app: AppTest, lang: str, label: str, lab: str) -> None:
    at = ui.open_page(app, "rules", lang=lang)
    assert [e.label for e in at.expander if e.label.startswith(label)], [e.label for e in at.expander]
    text = ui.html(at)
    for g in rl.GUIDES:
        assert f"(rules?doc={g}&lang={lang})" in text, g
        assert f"[{rl.guide_title(g, lang)}](rules?doc={g}&lang={lang})" in text, g
    assert f"[{lab}](rules?doc=lab&lang={lang})" in text
    other = rl.guide_title("lab", "en" if lang == "tr" else "tr")
    assert other not in text  # one language


@pytest.mark.parametrize("lang,title,other", [("tr", "# En iyi açılışımı bulmak", "# Find my best opening"),
                                              ("en", "# Find my best opening", "# En iyi açılışımı bulmak")])
def test_a_guides_link_opens_that_guide_in_the_pages_language(app: AppTest, lang: str, title: str,
                                                               other: str) -> None:
    at = ui.open_page(app, "rules", doc="lab", lang=lang)
    text = ui.html(at)
    assert title in text and other not in text
    assert '<a id="T1"></a>' not in text and not at.selectbox  # the guide alone, not the rules
    assert f"(rules?doc=cli&lang={lang}#solve)" in text and f"(rules?doc=limits&lang={lang})" in text
    assert "[English]" not in text and "[Türkçe]" not in text  # the app has its own switch
    assert not re.search(r"\]\([^)]*\.md[)#]", text), "a link to a file the app cannot open"
    assert at.query_params.get("doc") in ("lab", ["lab"])


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_every_guide_opens_on_the_rules_page(app: AppTest, lang: str) -> None:
    for g in rl.GUIDES:
        if g == "review":  # the reading guide has its own switch (tests/test_rules_docs.py)
            continue
        at = ui.open_page(AppTest.from_file(APP, default_timeout=60), "rules", doc=g, lang=lang)
        text = ui.html(at)
        assert f"# {rl.guide_title(g, lang)}" in text, g
        assert not re.search(r"\]\((?!https?:)[^)]*\.md[)#]", text), g


def test_app_links_name_a_design_document_and_drop_the_readme() -> None:
    assert rl.app_links("[f](figures.md#summary) [a](architecture.md) [R](../README.md) [l](lab.tr.md#x)", "en") == (
        "f (`docs/figures.md`) a (`docs/architecture.md`) R [l](rules?doc=lab&lang=tr#x)")


PAGE_GUIDES = {"games": "import", "replay": "replay", "opening_lab": "lab", "record": "recording",
               "sheet": "sheet", "study": "studies", "practice": "practice", "players": "players",
               "review": "reviewing"}


@pytest.mark.parametrize("lang,word", [("tr", "Kılavuz"), ("en", "Guide")])
def test_every_page_links_to_its_guide_in_the_pages_language(app: AppTest, lang: str, word: str) -> None:
    """Under its title, each page names its guide and links to it on the Rules page (the same
    guides the Rules page lists and the README's "How do I…" table points to)."""
    for page, guide in PAGE_GUIDES.items():
        at = ui.open_page(AppTest.from_file(APP, default_timeout=60), page, lang=lang)
        link = f"[{word}: {rl.guide_title(guide, lang)}](rules?doc={guide}&lang={lang})"
        assert link in [c.value for c in at.caption], (page, [c.value for c in at.caption][:3])

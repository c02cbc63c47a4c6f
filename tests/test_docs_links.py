"""The README guides and docs/ holds the rest: every relative link in README.md and docs/*.md
lands on a file (and, with ``#anchor``, on a heading or an ``<a id>`` of that file), the README
stays a short guide (at most 300 lines), no text a reader sees points at a tracker's "issue N"
instead of saying what it means, and every task of the README's "How do I…" table links to its
guide in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")
ISSUE = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)


def _prose(text: str) -> str:
    """The text without fenced blocks and code spans (a link there is an example, not a link)."""
    return CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to '-'."""
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link in a heading: its text
    h = h.replace("`", "").lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a link may name in ``path``: its headings' slugs (numbered -1, -2 … when
    repeated, as GitHub does) and its ``<a id="…">`` anchors."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    out: set[str] = set(re.findall(r'<a id="([^"]+)"', text))
    seen: dict[str, int] = {}
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        out.add(s if n == 0 else f"{s}-{n}")
        seen[s] = n + 1
    return out


def links(path: Path) -> list[str]:
    prose = _prose(path.read_text(encoding="utf-8"))
    return [m.group(1) for m in LINK.finditer(prose)] + [m.group(1) for m in IMAGE.finditer(prose)]


def broken(path: Path) -> list[str]:
    """The relative links of ``path`` that land nowhere, each with why."""
    bad = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: …
            continue
        file, _, frag = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            bad.append(f"{target}: no file {dest.relative_to(ROOT) if ROOT in dest.parents else dest}")
        elif frag and dest.suffix == ".md" and frag not in anchors(dest):
            bad.append(f"{target}: no heading or anchor '#{frag}' in {dest.name}")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_lands(page: Path) -> None:
    assert broken(page) == []


def test_readme_is_a_short_guide() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines: move the detail into docs/"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_no_issue_numbers(page: Path) -> None:
    """A reader has no tracker: say what a change means, not its number."""
    hits = [(n, line.strip()[:80]) for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
            if ISSUE.search(line)]
    assert hits == []


TASKS = ("review", "replay", "opening", "record", "score sheet", "stud", "practi", "player", "import",
         "serve", "command line", "rules")


def how_do_i_rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"^## How do I.*?$(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert m, "README.md has no '## How do I…' section"
    rows = [r for r in m.group(1).splitlines() if r.startswith("|")]
    return [r for r in rows[2:]]  # past the header and its separator


def test_how_do_i_links_every_task_to_its_guide() -> None:
    rows = how_do_i_rows()
    assert rows, "the 'How do I…' section has no table"
    for row in rows:
        targets = [t for t in LINK.findall(row)]
        assert any(t.startswith("docs/") and (ROOT / t.partition("#")[0]).is_file() for t in targets), row
    text = " ".join(rows).lower()
    missing = [t for t in TASKS if t not in text]
    assert missing == [], f"tasks without a row: {missing}"


def test_the_checker_sees_a_broken_link(tmp_path: Path) -> None:
    """The checks above can fail: a missing file and a missing heading are found."""
    (tmp_path / "a.md").write_text("# Title\n\n## Two words\n\n[x](b.md) [y](a.md#two-words) [z](a.md#three)\n"
                                   "`[not](a link.md)` [w](#title)\n", encoding="utf-8")
    page = tmp_path / "a.md"
    bad = [b.split(":")[0] for b in broken(page)]
    assert bad == ["b.md", "a.md#three"]
    assert slug("How do I…") == "how-do-i" and slug("`istaka replay` FILE") == "istaka-replay-file"


def test_every_istaka_command_is_in_the_readme_and_in_the_cli_reference() -> None:
    """The README's command table names every subcommand of ``istaka`` (analysis.cli.OWNER), and
    docs/cli.md and docs/cli.tr.md give each its own section with its options."""
    from analysis.cli import OWNER

    readme = README.read_text(encoding="utf-8")
    table = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    for ref in ("cli.md", "cli.tr.md"):
        sections = set(re.findall(r"^### (\S+)", (ROOT / "docs" / ref).read_text(encoding="utf-8"), re.MULTILINE))
        assert set(OWNER) <= sections, (ref, set(OWNER) - sections)
    rows = [r for r in table.splitlines() if r.startswith("| `")]
    missing = [c for c in OWNER if not any(re.search(rf"`istaka {c}\b|`{c} ", r) for r in rows)]
    assert missing == [], f"commands without a row in the README: {missing}"

"""Mistakes by kind and the style beside the expert (analysis/review/taxonomy.py,
analysis/store/mistake_kinds.py, analysis/store/style.py): every category the review writes is
in exactly one kind, no cost is counted twice, the style figures agree with the games' own
events counted here another way, the intervals with scipy's."""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

import profile_games as pg
from analysis import store
from analysis.game import read_file, replay_game
from analysis.review import model
from analysis.review.taxonomy import BY_KEY, KINDS, KIND_OF, OTHER, kind_of, kind_sql, uncovered
from analysis.store import mistake_kinds as mk
from analysis.store import style

ROOT = Path(__file__).resolve().parents[1]
REVIEW = ROOT / "analysis" / "review"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield pg.build(tmp_path_factory.mktemp("profile"))


# ---- the taxonomy ---------------------------------------------------------------------------------


def _written_categories() -> set[str]:
    """The categories the review's code writes, read off the code: the first argument of every
    ``Mistake(...)``, every string given to a name ``cat``, what ``deep._generic`` returns, and
    the general categories by decision (GENERIC)."""
    found: set[str] = set(model.GENERIC.values())

    def strings(node: ast.AST) -> set[str]:
        return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}

    for path in REVIEW.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Mistake" and node.args:
                a = node.args[0]
                if isinstance(a, ast.Constant):
                    found.add(a.value)
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "cat" for t in node.targets):
                found |= {s for s in strings(node.value) if s in model.CATEGORIES or "_" in s}
            elif isinstance(node, ast.FunctionDef) and node.name == "_generic":
                for r in ast.walk(node):
                    if isinstance(r, ast.Return) and r.value is not None:
                        found |= {s for s in strings(r.value) if "_" in s}
    return found


def test_the_code_writes_only_known_categories_and_each_is_in_exactly_one_kind() -> None:
    written = _written_categories()
    assert {"broke_opening", "okey_discard", "fed_opening", "worse_layoffs", "worse_declare"} <= written
    assert written <= set(model.CATEGORIES), written - set(model.CATEGORIES)
    for c in set(model.CATEGORIES) | written:
        holders = [k.key for k in KINDS if c in k.categories]
        assert len(holders) == 1, (c, holders)
        assert kind_of(c) == holders[0] != OTHER
    assert uncovered() == []
    assert len({k.key for k in KINDS}) == len(KINDS)
    assert kind_of(None, "discard") == "other_discards" and kind_of("gone_category") == OTHER


def test_each_kind_names_its_rules_and_words_in_both_languages() -> None:
    from dashboard.words.rule_links import rule_ids

    known = set(rule_ids("en"))
    for k in KINDS:
        assert k.tr and k.en and k.tr_help and k.en_help and k.tr != k.en
        assert set(k.rules) <= known, (k.key, set(k.rules) - known)
    assert set(BY_KEY["penalty_discards"].rules) == {"X3", "X4", "X5"}
    assert {"S1", "S2", "S3", "X6", "O7", "O10"} <= set(BY_KEY["okey"].rules)


def test_the_sql_case_gives_the_same_kind_as_python() -> None:
    con = duckdb.connect()
    cases = [(c, d) for c in [*model.CATEGORIES, None, "gone_category"] for d in [*model.GENERIC, None]]
    con.execute("CREATE TABLE x (category VARCHAR, decision VARCHAR)")
    con.executemany("INSERT INTO x VALUES (?, ?)", cases)
    got = con.execute(f"SELECT category, decision, {kind_sql()} FROM x").fetchall()
    for c, d, k in got:
        assert k == kind_of(c, d), (c, d, k)


def test_no_cost_is_counted_in_two_kinds_the_kinds_add_up_to_the_total(db: Path) -> None:
    with store.reading(db) as con:
        summary = mk.kinds_summary(con)
        total = mk.total_cost(con)
        deep = con.execute("SELECT player, sum(cost) FROM review_choices WHERE cost > 0 GROUP BY 1").fetchall()
        quick = con.execute("""SELECT m.player, sum(m.cost) FROM review_mistakes m JOIN review_games r USING (game)
                               WHERE r.depth <> 'deep' GROUP BY 1""").fetchall()
        depths = dict(con.execute("SELECT depth, count(*) FROM review_games GROUP BY 1").fetchall())
    assert depths.get("deep") == 1 and depths.get("quick", 0) >= 4
    assert set(summary.player) == set(pg.NAMES)
    by_player = summary.groupby("player").cost.sum().to_dict()
    assert by_player == pytest.approx(total)
    direct: dict[str, float] = {}
    for p, s in [*deep, *quick]:
        direct[p] = direct.get(p, 0.0) + float(s)
    assert by_player == pytest.approx(direct)
    assert sum(by_player.values()) > 0
    for p, df in summary.groupby("player"):
        assert list(df.kind) == [k.key for k in KINDS]  # every kind listed once
        if total[p] > 0:
            assert df.share.sum() == pytest.approx(1.0)
        assert (df.per_hand * df.hands).sum() == pytest.approx(total[p])


def test_the_trend_adds_up_to_the_summary_by_week_and_by_game(db: Path) -> None:
    with store.reading(db) as con:
        summary = mk.kinds_summary(con, ["Mehmet", "Ali"], variant="101")
        weeks = mk.kinds_trend(con, ["Mehmet", "Ali"], variant="101", by="week")
        games = mk.kinds_trend(con, ["Mehmet", "Ali"], variant="101", by="game")
        with pytest.raises(ValueError):
            mk.kinds_trend(con, ["Ali"], by="month")
    for frame in (weeks, games):
        got = frame.groupby(["player", "kind"]).cost.sum()
        want = summary.set_index(["player", "kind"]).cost
        assert got.reindex(want.index).tolist() == pytest.approx(want.tolist())
    assert weeks.period.nunique() == 3  # the weeks of 5, 12 and 19 October (Monday first)
    assert sorted(set(weeks.period)) == ["2026-10-05", "2026-10-12", "2026-10-19"]
    per_game_hands = games[games.kind == KINDS[0].key].groupby("player").hands.sum()
    assert per_game_hands.to_dict() == summary.groupby("player").hands.first().to_dict()


def test_filters_by_source_preset_and_days(db: Path) -> None:
    with store.reading(db) as con:
        assert style.sources_of(con) == {"played": 1, "recorded": 3, "selfplay": 2, "sheet": 1}
        hands = lambda **kw: int(mk.kinds_summary(con, ["Ali"], **kw).hands.iloc[0]) \
            if len(mk.kinds_summary(con, ["Ali"], **kw)) else 0  # noqa: E731
        assert hands() == 11
        assert hands(variant="51") == 2
        assert hands(variant="101", sources=["played"]) == 2
        assert hands(variant="101", sources=["recorded"]) == 4
        assert hands(variant="101", sources=["selfplay"]) == 3
        assert hands(variant="101", sources=["sheet"]) == 0  # a score sheet has no moves to review
        assert hands(variant="101", date_from="2026-10-13", date_to="2026-10-20") == 4
        assert hands(variant="101", date_to="2026-10-05") == 2
        rows = style.hand_rows(con, ["Ali"], variant="101", sources=["sheet"])
        assert len(rows) == 2  # the sheet's hands count in the style (opened, finished) …
        assert set(rows.open_kind.dropna()) == set() and rows.opened.all()  # … without moves or openings


# ---- the style, counted another way -----------------------------------------------------------------


def _by_hand(db: Path, player: str, variant: str) -> dict[tuple[str, int], dict[str, float]]:
    """Per (game, hand) of ``player``: what the log's events and the engine's replay say, counted
    here without the store's tables."""
    out: dict[tuple[str, int], dict[str, float]] = {}
    rr = read_file(db.with_suffix(".jsonl"))
    for g in rr.games:
        if g.header.get("variant") != variant:
            continue
        seat = list(g.header["players"]).index(player)
        res = replay_game(g, keep_steps=False)
        evs = [ev for _, ev in g.events]
        for hr in res.hands:
            if hr.result not in ("finish", "exhausted"):
                continue
            mine = [e for e in evs if e.get("hand") == hr.hand and e.get("seat") == seat]
            types = [e["type"] for e in mine]
            opened = "open" in types
            turn = types[:types.index("open")].count("discard") + 1 if opened else None
            kind = next((o["kind"] for o in hr.openings if o["seat"] == seat), None)
            out[(g.id, hr.hand)] = {
                "opened": opened, "turn": turn, "pairs": kind == "pairs", "kind": kind,
                "takes": types.count("take") - types.count("return"), "draws": types.count("draw"),
                "layoffs": sum(len(e.get("tiles") or [1]) for e in mine if e["type"] == "layoff"),
                "x5": sum(1 for p in hr.penalties if p.seat == seat and p.rule == "X5"),
                "x4": sum(p.points for p in hr.penalties if p.seat == seat and p.rule == "X4"),
                "finished": hr.finisher == seat and hr.result == "finish"}
    return out


def _get(frame, who: str, metric: str) -> dict:  # type: ignore[no-untyped-def]
    rows = frame[(frame.who == who) & (frame.metric == metric)]
    assert len(rows) == 1, (who, metric, len(rows))
    return rows.iloc[0].to_dict()


@pytest.mark.parametrize("player", ["Ali", "Mehmet"])
def test_style_agrees_with_the_events_counted_here(db: Path, player: str) -> None:
    with store.reading(db) as con:
        frame = style.style(con, [player], variant="101", sources=["played", "recorded", "selfplay"])
    hands = _by_hand(db, player, "101")
    n = len(hands)
    assert n and _get(frame, player, "opening_rate")["n"] == n
    opened = [h for h in hands.values() if h["opened"]]
    assert _get(frame, player, "opening_rate")["value"] == pytest.approx(len(opened) / n)
    assert _get(frame, player, "finish_rate")["value"] == pytest.approx(sum(h["finished"] for h in hands.values()) / n)
    if opened:
        assert _get(frame, player, "opening_turn")["value"] == pytest.approx(sum(h["turn"] for h in opened) / len(opened))
        kinds = [h for h in opened if h["kind"]]
        assert _get(frame, player, "pairs_share")["value"] == pytest.approx(sum(h["pairs"] for h in kinds) / len(kinds))
    takes = sum(h["takes"] for h in hands.values())
    turns = takes + sum(h["draws"] for h in hands.values())
    assert _get(frame, player, "take_rate")["n"] == turns
    assert _get(frame, player, "take_rate")["value"] == pytest.approx(takes / turns)
    assert _get(frame, player, "layoffs")["value"] == pytest.approx(sum(h["layoffs"] for h in hands.values()) / n)
    assert _get(frame, player, "x5")["value"] == pytest.approx(sum(h["x5"] for h in hands.values()) / n)
    x4 = sum(h["x4"] for h in hands.values())
    if x4:
        assert _get(frame, player, "penalty:X4")["value"] == pytest.approx(x4 / n)
    for r in frame.itertuples():
        if math.isfinite(r.low):
            assert r.low <= r.value + 1e-9 and r.value <= r.high + 1e-9


def test_intervals_agree_with_scipy() -> None:
    st = pytest.importorskip("scipy.stats")
    from analysis.game import stats
    from analysis.review.luck import mean_ci
    from analysis.selfplay import paired_ci

    for df in (1, 2, 3, 4, 5, 9, 11, 30, 200):
        assert stats.t975(df) == pytest.approx(st.t.ppf(0.975, df), abs=0.003)
    vals = [0, 3, 1, 4, 1, 5, 9, 2, 6]
    m, lo, hi = style.t_interval(sum(vals), sum(v * v for v in vals), len(vals))
    sem = st.sem(vals)
    want = st.t.interval(0.95, len(vals) - 1, loc=m, scale=sem)
    assert (lo, hi) == pytest.approx(want, abs=0.01)
    # one interval everywhere: the style table's, a duplicate match's and the skill line's
    assert paired_ci(vals)[1:] == pytest.approx(want, abs=0.01) and mean_ci(vals)[1:] == pytest.approx(want, abs=0.01)
    assert style.wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)  # Wilson (1927), z = 1.96
    assert style.wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert all(math.isnan(x) for x in style.wilson(0, 0))


def test_a_kinds_positions_are_the_players_own_decisions_to_retry(db: Path) -> None:
    """Each position Practice gets for a kind is one of that kind, of that player, at a step
    where that seat is to move (a hindsight finding points back at the discard itself)."""
    from analysis.store.queries import replay_stored

    seen = set()
    with store.reading(db) as con:
        for who in pg.NAMES:
            for k in KINDS:
                pos = mk.kind_positions(con, who, k.key)
                for r in pos.itertuples():
                    assert KIND_OF.get(r.category, OTHER) == k.key
                    res = replay_stored(con, r.game)
                    hr = next(h for h in res.hands if h.hand == r.hand)
                    state = hr.steps[r.step].state
                    assert state.turn == r.seat and not state.over, (r.game, r.hand, r.step, r.category)
                    assert res.players[r.seat] == who
                    seen.add(r.category)
        with pytest.raises(ValueError):
            mk.kind_positions(con, "Ali", "no_such_kind")
    assert {"fed_opening", "missed_opening"} <= seen


def test_the_expert_comes_from_the_store_with_enough_hands_else_from_the_reference(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with store.reading(db) as con:
        own = style.style(con, expert=True, variant="101")
        assert _get(own, "expert", "opening_rate")["n"] == 3  # its seat in the self-play hands (2 + 1)
        ref = tmp_path / "ref.json"
        row = {"who": "expert", "variant": "101", "metric": "opening_rate", "kind": "rate", "n": 400,
               "value": 0.8, "low": 0.76, "high": 0.84}
        ref.write_text(json.dumps({"rows": [row, {**row, "variant": "51"}]}), encoding="utf-8")
        got = style.expert_style(con, "101", path=ref)
        assert list(got.source) == ["reference"] and float(got.value.iloc[0]) == 0.8
        monkeypatch.setattr(style, "EXPERT_MIN_HANDS", 3)
        got = style.expert_style(con, "101", path=ref)
        assert set(got.source) == {"store"}
        assert _get(got, "expert", "opening_rate")["n"] == 3
        assert len(style.expert_style(con, "101", path=tmp_path / "missing.json")) > 0
        monkeypatch.setattr(style, "EXPERT_MIN_HANDS", 500)
        assert len(style.expert_style(con, "101", path=tmp_path / "missing.json")) == 0
        both = style.beside_expert(con, ["Ali", "Mehmet"], variant="101", path=ref)
    assert set(both.who) == {"Ali", "Mehmet", "expert"}
    pens = {m for m in both.metric if m.startswith("penalty:")}
    for who in ("Ali", "Mehmet"):  # a rule charged to one reads 0 for the other, never missing
        assert pens <= set(both[both.who == who].metric)


def test_istaka_profile_carries_the_mistakes_by_kind_and_the_style(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from analysis.cli import main

    assert main(["profile", "Mehmet", "--db", str(db), "--variant", "101", "--quick", "--json"]) == 0
    prof = json.loads(capsys.readouterr().out)
    with store.reading(db) as con:
        want = mk.kinds_summary(con, ["Mehmet"], variant="101")
        sty = style.beside_expert(con, ["Mehmet"], variant="101")
    got = prof["mistakes_by_kind"]
    assert got["hands"] == int(want.hands.iloc[0])
    assert {k["kind"]: k["cost"] for k in got["kinds"]} == pytest.approx(
        {r.kind: r.cost for r in want.itertuples() if r.mistakes})
    assert sum(k["share"] for k in got["kinds"]) == pytest.approx(1.0, abs=1e-3)
    assert prof["style"]["variant"] == "101"
    rows = {r["metric"]: r for r in prof["style"]["rows"]}
    assert set(rows) >= {m for m, _ in style.METRICS}
    assert rows["opening_rate"]["player"]["value"] == pytest.approx(_get(sty, "Mehmet", "opening_rate")["value"], abs=1e-4)
    assert main(["profile", "Mehmet", "--db", str(db), "--variant", "101", "--quick", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "mistakes by kind over" in text and "Penalised discards (X3, X4, X5)" in text
    assert "style beside the expert in 101" in text and "opening_rate" in text

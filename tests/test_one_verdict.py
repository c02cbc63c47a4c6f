"""One verdict per decision: the deep review, ``istaka evaluate``, Replay's panel and Practice
judge the same decision with the same function (analysis.review.deep.judge_spot), so on decisions of a
sample game every surface names the same best move at the same price."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_logs import stored

from analysis.game import read_file, replay_game
from analysis.review.deep import deep_review_hand

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
GAME = "kahve-2026-10-12-55"
W = 16  # fewer worlds than the default keep the test short; every surface is given the same


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("verdict")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as f:
        lines = [ln for ln in f if json.loads(ln).get("game") == GAME]
    log = d / "g.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    yield stored(d / "v.duckdb", log)


def test_every_surface_shows_the_review_verdict(db: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from analysis.cli import main

    from dashboard.board import retry
    from dashboard.state import data, deep_data

    monkeypatch.setenv("ISTAKA_DB", str(db))
    monkeypatch.setattr(deep_data, "DEEP_WORLDS", W)
    g = next(x for x in read_file(SAMPLE).games if x.id == GAME)
    res = replay_game(g, keep_steps=True)
    hr = res.hands[0]
    rv = deep_review_hand(res.game, hr, 1, worlds=W)
    choices = [c for d in rv.decisions for c in d.choices if c.graded][:40]
    assert len(choices) >= 30
    rp = data.replay(GAME)
    assert rp is not None
    for c in choices:
        seat = next(d.seat for d in rv.decisions if c in d.choices)
        # istaka evaluate
        assert main(["evaluate", str(SAMPLE), "--game", GAME, "--hand", str(hr.hand), "--step", str(c.step),
                     "--kind", c.kind, "--worlds", str(W), "--json"]) == 0
        cli = json.loads(capsys.readouterr().out)
        assert (cli["best"], cli["cost"]) == (c.best, round(c.cost, 2))
        # Replay's panel, with no deep review stored
        panel = next(r for r in deep_data.verdict_at(GAME, 1, c.step, "en") if r["kind"] == c.kind)
        assert panel["cost"] == c.cost and panel["expected_best"] == c.expected_best
        # Practice: the logged move tried again
        spot = retry.Spot(GAME, hr.hand, c.step, seat)
        tried = retry.judge(rp, spot, c.kind, c.played_events) if c.kind != "show" else None
        if tried is not None and not tried["forced"]:
            assert tried["best"] == c.best and tried["cost"] == pytest.approx(c.cost)

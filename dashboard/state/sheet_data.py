"""The score sheet page's reads, writes and exports, over :mod:`analysis.store.sheets`.

A sheet is read fresh on every run (a second device or a spectator sees the last saved row),
and written with a short retry: the dashboard's readers hold the file only for a burst.
"""

from __future__ import annotations

import csv
import io
import os
import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
import pandas as pd
import streamlit as st

from analysis import store
from analysis.game import GameResult, Rules, ScoreLine, match_points, replay_game, resolve
from analysis.store import sheets

from dashboard.state import access, data
from dashboard.words.i18n import t as ui_t
from dashboard.words.sheet_strings import t


@dataclass
class Sheet:
    header: dict[str, Any]
    results: list[dict[str, Any]]
    result: GameResult

    @property
    def game(self) -> str:
        return str(self.header["game"])

    @property
    def players(self) -> list[str]:
        return [str(p) for p in self.header["players"]]

    @property
    def rules(self) -> Rules:
        assert self.result.rules is not None
        return self.result.rules

    @property
    def planned(self) -> int:
        return self.result.planned_hands

    @property
    def counted(self) -> int:
        """Rounds that count (a void round is played again, E3)."""
        return sum(1 for h in self.result.hands if h.result != "void")

    @property
    def over(self) -> bool:
        return self.counted >= self.planned


ROUND = "_sheet_round"  # session state: the number of the round being entered in this session


def round_key(name: str, n: int) -> str:
    """The key of the widget ``name`` of the ``n``-th round entered in a session. Each round has
    widgets of its own: a tap sent from a page still showing the round just saved (a slow server,
    a double tap) carries that round's values, which then belong to widgets that are gone and
    cannot slip into the next round."""
    return f"{name}~{n}"


def new_id() -> str:
    return f"sheet-{datetime.now():%Y%m%d-%H%M}-{secrets.token_hex(3)}"


def _retry(fn: Any) -> Any:
    deadline = time.monotonic() + 8
    while True:
        try:
            return fn()
        except (duckdb.Error, store.DatabaseBusy):  # a reader of this process holds the file a moment
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _stamp() -> tuple[int, int]:
    """Changes with every write of the database (its file or its write-ahead log)."""
    out = []
    for f in (data.db_file(), data.db_file() + ".wal"):
        try:
            out.append(os.stat(f).st_mtime_ns)
        except OSError:
            out.append(0)
    return out[0], out[1]


@st.cache_resource(show_spinner=False, max_entries=64)
def _load(stamp: tuple[int, int], path: str, game: str) -> Sheet | None:
    def run() -> Sheet | None:
        with data.reading_db() as con:  # beside the server's writes, never against them
            got = sheets.load_sheet(con, game)
        if got is None:
            return None
        header, results = got
        return Sheet(header, [_bare(r) for r in results],
                     replay_game(sheets.sheet_log(header, results), keep_steps=False))
    return _retry(run)


def load(game: str) -> Sheet | None:
    """The sheet as stored now (read again whenever the database was written). Shared between
    sessions: callers must not modify it."""
    return _load(_stamp(), data.db_file(), game)


def _bare(ev: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ev.items() if k not in ("type", "game", "hand")}


def save(header: dict[str, Any], results: list[dict[str, Any]]) -> GameResult:
    """Write the sheet (replacing the stored one), through the dashboard's writing connection:
    refused (access.WriteRefused) unless this session may write."""
    access.require_write()

    def run() -> GameResult:
        with data.writing_db() as con:
            return sheets.save_sheet(con, header, results)
    res = _retry(run)
    _load.clear()  # this session reads its own row at once, whatever the file's clock says
    return res


def saved() -> pd.DataFrame:
    def run() -> pd.DataFrame:
        with data.reading_db() as con:  # beside the server's writes, never against them
            return sheets.list_sheets(con)
    return _retry(run)


def start(players: list[str], variant: str, overrides: dict[str, Any], hands: int) -> str:
    """Save a new empty sheet and return its id."""
    header: dict[str, Any] = {"type": "game", "game": new_id(), "variant": variant, "players": players,
                              "hands": hands, "started": datetime.now().isoformat(timespec="seconds"),
                              "site": "istaka-sheet", "sheet": True}
    if overrides:
        header["rules"] = overrides
    save(header, [])
    return str(header["game"])


def hands_range(variant: str) -> tuple[int, int, bool]:
    """G1: the hand counts a preset plays (lowest, highest, odd only)."""
    return (7, 21, False) if variant == "101" else (3, 11, True)


def rules_of(variant: str, overrides: dict[str, Any] | None) -> Rules:
    return resolve(variant, overrides or None)


# ---- words ---------------------------------------------------------------------------------

def finish_words(h: Any, players: list[str], lang: str) -> str:
    if h.result == "void":
        return t("sh_void", lang)
    if h.result == "exhausted":
        return t("sh_exhausted", lang)
    if h.result != "finish" or h.finisher is None:
        return ui_t("result_invalid", lang)
    kinds = " + ".join(t(f"sh_k_{k}", lang) for k in h.finish_kinds)
    return players[h.finisher] + (f" ({kinds})" if kinds else "")


def why(line: ScoreLine, rules: Rules, lang: str) -> str:
    """A seat's score explained from the engine's parts (E4-E8)."""
    if line.why == "finisher":
        return t("sh_why_finisher", lang, bonus=rules.finisher_bonus, mult=line.mult)
    if line.why == "partner":
        return t("sh_why_partner", lang)
    if line.why == "unopened":
        return t("sh_why_unopened", lang, pen=rules.unopened_penalty, mult=line.mult)
    if line.why == "nobody_opened":
        return t("sh_why_nobody", lang)
    return t("sh_why_rack", lang, tiles=line.tiles, mult=line.mult,
             double=t("sh_why_double", lang) if line.doubled else "",
             okeys=t("sh_why_okeys", lang, pts=line.okey_points) if line.okeys else "")


def table(sh: Sheet, lang: str) -> pd.DataFrame:
    """One row per round: round number, each player's written score (hand end and penalties),
    the finish; then the totals."""
    rows = []
    for h, r in zip(sh.result.hands, sh.results):
        row: dict[str, Any] = {t("sh_round", lang): h.hand}
        tot = h.totals()
        written = r.get("scores")
        for s, name in enumerate(sh.players):
            cell = str(tot[s])
            if written is not None and h.mismatches:
                cell += f" ({t('sh_differs', lang, written=written[s])})"
            row[f"{s + 1}. {name}"] = cell
        pens = ", ".join(f"{sh.players[p.seat]} {p.rule} {p.points:+d}" for p in h.penalties)
        row[t("sh_finish_col", lang)] = finish_words(h, sh.players, lang) + (f" · {pens}" if pens else "")
        rows.append(row)
    total: dict[str, Any] = {t("sh_round", lang): t("sh_total_row", lang)}
    for s, name in enumerate(sh.players):
        total[f"{s + 1}. {name}"] = str(sh.result.totals[s])
    total[t("sh_finish_col", lang)] = ""
    rows.append(total)
    return pd.DataFrame(rows).astype(str)


def standings(sh: Sheet, lang: str) -> pd.DataFrame:
    """Ranks by total (lowest first, G1; ties share the better place) and G3 match points."""
    totals = sh.result.totals
    mp = match_points(totals, sh.planned)
    order = sorted(range(4), key=lambda s: totals[s])
    return pd.DataFrame([{t("sh_rank", lang): 1 + sum(1 for u in totals if u < totals[s]),
                          t("sh_name", lang): sh.players[s], t("sh_points", lang): totals[s],
                          t("sh_match_points", lang): mp[s]} for s in order])


def team_totals(sh: Sheet) -> tuple[int, int]:
    tt = sh.result.totals
    return tt[0] + tt[2], tt[1] + tt[3]


def csv_text(sh: Sheet, lang: str) -> str:
    """The sheet as CSV: a row per round with each player's written score, then the totals."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([t("sh_round", lang), *sh.players, t("sh_finish_col", lang)])
    for h in sh.result.hands:
        w.writerow([h.hand, *h.totals(), finish_words(h, sh.players, lang)])
    w.writerow([t("sh_total_row", lang), *sh.result.totals, ""])
    return out.getvalue()


def summary_text(sh: Sheet, lang: str) -> str:
    """A short plain-text summary to paste into a chat."""
    totals = sh.result.totals
    lines = [t("sh_summary_head", lang, title=t("sh_title", lang), variant=sh.header.get("variant", "101"),
               done=sh.counted, planned=sh.planned)]
    for s in sorted(range(4), key=lambda s: totals[s]):
        lines.append(t("sh_summary_line", lang, rank=1 + sum(1 for u in totals if u < totals[s]),
                       name=sh.players[s], total=totals[s]))
    if sh.rules.esli:
        a, b = team_totals(sh)
        lines.append(t("sh_teams", lang, a=a, b=b))
    return "\n".join(lines)


ERROR_KEYS = {"hand": "sh_err_hand", "finisher": "sh_err_finisher", "left": "sh_err_left", "kind": "sh_err_kind",
              "opened": "sh_err_opened", "penalties": "sh_err_penalties"}


def error_words(field: str, rule: str, lang: str) -> str:
    return t(ERROR_KEYS.get(field, "sh_err_other"), lang, rule=rule)

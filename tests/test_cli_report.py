"""``istaka report``: Turkish by default (as the board), and written whole or not at all (a failed
write leaves the file that was there, never a partial one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample" / "games.jsonl.gz"
GAME = "kahve-2026-09-07-1"


def test_the_report_is_in_turkish_unless_asked_otherwise(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", str(out)]) == 0
    assert '<html lang="tr">' in out.read_text(encoding="utf-8")
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", str(out), "--lang", "en"]) == 0
    assert '<html lang="en">' in out.read_text(encoding="utf-8")


def test_a_failed_write_keeps_the_old_report_and_leaves_no_partial_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import analysis.review

    out = tmp_path / "r.html"
    out.write_text("the report of yesterday", encoding="utf-8")
    # a page that fails half-way through being written (here: a character UTF-8 cannot encode)
    monkeypatch.setattr(analysis.review, "render", lambda *a, **k: "<p>" * 50_000 + "\ud800")
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "the report of yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]  # no temporary file left
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "r.html: cannot write the file" in err and "Traceback" not in err


def test_a_report_into_a_missing_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", str(tmp_path / "no" / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "r.html" in err and "Traceback" not in err


def test_a_device_is_written_in_place_and_a_link_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The temporary file is renamed over a regular file only: a device (/dev/null, /dev/full) renamed
    over would be replaced by a file for every process on the machine. A link stays a link."""
    import os
    import stat

    from analysis.cli import common

    renamed: list[tuple[str, str]] = []

    def no_rename(src: str, dst: str) -> None:  # never rename over a device, even if the code regresses
        renamed.append((str(src), str(dst)))
        if not Path(dst).is_file() and Path(dst).exists():
            raise OSError(1, "renamed over a device", str(dst))
        os.rename(src, dst)

    monkeypatch.setattr(common.os, "replace", no_rename)
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", "/dev/null"]) == 0
    assert renamed == [] and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    real = tmp_path / "real.html"
    real.write_text("old", encoding="utf-8")
    (tmp_path / "link.html").symlink_to(real)
    assert main(["report", GAME, "--log", str(SAMPLE), "--out", str(tmp_path / "link.html")]) == 0
    assert (tmp_path / "link.html").is_symlink() and real.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]

"""setup.sh says what it does: run with stand-ins for the venv's python and istaka (nothing is
installed), it prints one line naming the move review before ``istaka analyze`` runs, which
otherwise prints nothing for a while."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_setup_prints_a_line_before_the_sample_is_analysed(tmp_path: Path) -> None:
    shutil.copy(ROOT / "setup.sh", tmp_path / "setup.sh")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name, says in (("python", "PYTHON"), ("istaka", "ISTAKA $*")):
        exe = bin_ / name
        exe.write_text(f'#!/bin/sh\necho "{says}"\n', encoding="utf-8")
        exe.chmod(0o755)
    fake_cc = tmp_path / "tools"
    fake_cc.mkdir()
    for name in ("cc", "apt-get", "sudo"):  # a compiler is there: nothing to install
        (fake_cc / name).write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        (fake_cc / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{fake_cc}:/usr/bin:/bin")
    out = subprocess.run(["bash", str(tmp_path / "setup.sh"), "--no-run"], capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = lines.index("ISTAKA analyze --no-progress")
    assert lines[at - 1] == "analysing the sample games (move review)…"

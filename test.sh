#!/usr/bin/env bash
# Runs the whole test suite (after ./setup.sh): the architecture contract, then pytest.
set -euo pipefail
cd "$(dirname "$0")"
BIN=.venv/bin
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python3)")"
"$BIN/lint-imports" --no-cache
# two workers (the box has two cores), each test file whole on one worker: its shared server and
# browser start once; 10 min against 13.7 min in one process (2026-12-02)
exec "$BIN/python" -m pytest -n 2 --dist loadfile "$@"

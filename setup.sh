#!/usr/bin/env bash
# Sets up Istaka on a fresh machine and opens the dashboard on the embedded DuckDB.
#   ./setup.sh            install, build data/istaka.duckdb from data/sample/, open the dashboard
#   ./setup.sh --no-run   install only (CI)
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
# the solver's C kernel (analysis/_kernel.c) needs a C compiler; pip builds it below
if ! command -v cc >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq gcc >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
# the real-browser test drives Debian's Chromium with Playwright (no browser download)
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
# the embedded database: created, migrated and filled with data/sample/ on first use; then the
# move review (istaka analyze, a few seconds for the sample), so Review, Practice and the Players
# trends open with data
.venv/bin/python -c "from analysis import store; store.connect().close(); print('database:', store.db_path())"
echo "analysing the sample games (move review)…"
.venv/bin/istaka analyze --no-progress
if [ "${1:-}" != "--no-run" ]; then
  exec .venv/bin/streamlit run dashboard/app.py --server.headless true --server.address 127.0.0.1
fi

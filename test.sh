#!/usr/bin/env bash
# Runs the whole test suite (after ./setup.sh): the architecture contract, then pytest.
set -euo pipefail
cd "$(dirname "$0")"
BIN=.venv/bin
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python3)")"
"$BIN/lint-imports" --no-cache
exec "$BIN/python" -m pytest "$@"

#!/usr/bin/env bash
# Runs the whole test suite (after ./setup.sh).
set -euo pipefail
cd "$(dirname "$0")"
PYBIN=.venv/bin/python
[ -x "$PYBIN" ] || PYBIN=python3
exec "$PYBIN" -m pytest "$@"

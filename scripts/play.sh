#!/usr/bin/env bash
# Installs netcards into .venv and starts it. Arguments go to `netcards` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/netcards "$@"

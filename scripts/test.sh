#!/usr/bin/env bash
# Installs what the tests need into .venv, then runs every check CI runs: lint, format,
# types, the import layering contract and the whole test suite, in parallel workers. Extra
# arguments go to pytest (`-n 0` runs the suite in one process).
set -euo pipefail
cd "$(dirname "$0")/.."
# The end-to-end terminal tests drive real terminals through tmux, and the SSH door's test joins
# with the real OpenSSH client.
missing=""
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
command -v ssh >/dev/null 2>&1 || missing="$missing openssh-client"
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    # shellcheck disable=SC2086
    (apt-get update -qq && apt-get install -y -qq $missing) >/dev/null 2>&1 || true
fi
# The suite starts hundreds of netcards processes (hosts, bots, apps in terminals): each would
# compile every module again where the environment turns bytecode caching off.
unset PYTHONDONTWRITEBYTECODE
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports
# One worker more than there are cores, up to four: most of the suite's time is waiting on
# terminals, sockets and timers, which overlaps well (on two cores, three workers take about
# four fifths of the time two do).
cores=$(nproc 2>/dev/null || echo 2)
workers=$((cores + 1))
[ "$workers" -le 4 ] || workers=4
.venv/bin/pytest --numprocesses="$workers" "$@"

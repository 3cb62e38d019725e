#!/usr/bin/env bash
# Runs every Parlor test on a fresh machine: installs what the tests need
# (when missing), then runs the whole workspace's tests beside a throwaway
# PostgreSQL server (the store's tests run against it and SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's headless Chromium through chromedriver;
# this installs them when missing and does nothing otherwise.
bash scripts/install-browser.sh

# A PostgreSQL for the store's tests: installed when missing, started in a
# temporary directory on a free port, stopped afterwards.
bash scripts/with-postgres.sh cargo test --workspace --locked "$@"

# The fuzz targets (fuzz/, nightly and cargo-fuzz, installed when missing),
# a few seconds each: see docs/reliability.md.
bash scripts/fuzz-smoke.sh

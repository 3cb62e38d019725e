#!/usr/bin/env bash
# Runs every Parlor test on a fresh machine: installs what the tests need
# (when missing), then runs the whole workspace's tests beside a throwaway
# PostgreSQL server (the store's tests run against it and SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive Debian's headless Chromium through chromedriver;
# this installs them when missing and does nothing otherwise.
bash scripts/install-browser.sh

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Build every test binary first, noting the source file each comes from:
# the summary at the end names a failed test's subject by it and the test's
# module (`server::fairness`: crates/server/tests/server/fairness.rs).
if ! cargo test --workspace --locked --no-run --message-format=json-render-diagnostics "$@" \
  >"$tmp/build.json"; then
  echo "tests: none ran (the build failed: see the errors above)"
  exit 101
fi
sed -n 's/.*"src_path":"\([^"]*\)".*"executable":"\([^"]*\)".*/\2 \1/p' \
  "$tmp/build.json" >"$tmp/binaries.map"

# At least three tests at a time in each test binary (libtest's default is
# one a core): the browser tests mostly wait on their pages (a bot's pace,
# animations, live updates), and two at a time left a third of two cores
# idle.
cores="$(nproc 2>/dev/null || echo 2)"
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-$((cores > 3 ? cores : 3))}"

# A PostgreSQL for the store's tests: installed when missing, started in a
# temporary directory on a free port, stopped afterwards. Every test binary
# runs, also after one fails, so that the summary lists every failure.
status=0
bash scripts/with-postgres.sh cargo test --workspace --locked --no-fail-fast "$@" 2>&1 |
  tee "$tmp/test.log" || status=$?

# Every fuzz target's seed corpus is replayed above, on stable, by the
# `fuzzing` crate's tests. libFuzzer's own search for new inputs (nightly and
# cargo-fuzz, installed when missing; a few seconds a target) runs when
# PARLOR_FUZZ_SMOKE=1: see docs/reliability.md.
if [ "$status" = 0 ] && [ "${PARLOR_FUZZ_SMOKE:-0}" = 1 ]; then
  bash scripts/fuzz-smoke.sh || status=$?
fi

# One line: how many passed and failed, and what failed, by subject.
awk -v root="$PWD" -f scripts/test-summary.awk "$tmp/binaries.map" "$tmp/test.log"
exit "$status"

#!/usr/bin/env bash
# Runs every Parlor test on a fresh machine: installs what the tests need
# (when missing), then runs the whole workspace's tests.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --locked "$@"

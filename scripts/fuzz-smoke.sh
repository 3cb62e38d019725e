#!/usr/bin/env bash
# The fuzz targets' smoke run (scripts/test.sh runs it when
# PARLOR_FUZZ_SMOKE=1; every seed is replayed by `cargo test` anyway, in
# crates/fuzzing): builds every cargo-fuzz target in fuzz/
# and runs each for a few seconds from its seed corpus (fuzz/corpus/TARGET).
# Installs the nightly toolchain and cargo-fuzz when missing. New inputs go
# to a temporary directory, never into the repository's corpus.
#
#   scripts/fuzz-smoke.sh            every target, FUZZ_SECONDS (default 15) each
#   FUZZ_SECONDS=60 scripts/fuzz-smoke.sh tycoon_moves
#
# A crash stops the script with libFuzzer's report and the input that
# crashed (under fuzz/artifacts/TARGET/); see docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-15}"
if ! cargo +nightly --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

cd fuzz
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -O
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in "${targets[@]}"; do
  mkdir -p "$scratch/$target" "corpus/$target"
  echo "fuzz: $target for ${seconds} s"
  # -jobs 1 keeps to one core; the time and memory limits bound the run.
  status=0
  cargo +nightly fuzz run -O "$target" "$scratch/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    >"$scratch/$target.log" 2>&1 || status=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|#[0-9]+ +DONE' "$scratch/$target.log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$scratch/$target.log" >&2
    echo "fuzz: $target failed (see fuzz/artifacts/$target/)" >&2
    exit 1
  fi
done
echo "fuzz: ${#targets[@]} targets ran ${seconds} s each with no crash"

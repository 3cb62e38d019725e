#!/usr/bin/env bash
# The fuzz targets' long run (docs/reliability.md): each target in turn, at
# the lowest priority (nice 19), until FUZZ_RUNS executions (default
# 10,000,000) or FUZZ_MAX_SECONDS (default 3600) have passed, whichever is
# first, from a scratch copy of its seed corpus (fuzz/corpus/TARGET is not
# changed). Prints one Markdown table row per target: executions, cov, ft,
# corpus, peak RSS, crashes, seconds. Logs and the grown corpora stay in
# FUZZ_OUT (default a new temporary directory), whose path is printed.
#
#   scripts/fuzz-long.sh                       every target
#   FUZZ_RUNS=1000000 scripts/fuzz-long.sh chutes_moves baffle_moves
#   FUZZ_WORKERS=2 FUZZ_TRACE_COMPARES=0 scripts/fuzz-long.sh api_bodies
#
# FUZZ_WORKERS=N (default 1) runs N processes of a target at once on one
# corpus (each reads what the others add), FUZZ_RUNS shared between them;
# the row adds up their executions, and its cov, ft and corpus are the
# first worker's. FUZZ_TRACE_COMPARES=0 builds without libFuzzer's
# comparison tracing (`--no-trace-compares`, its own target directory
# fuzz/target/long-nocmp): where a target's time goes to a hot inner loop
# (api_bodies: the Baffle solver), tracing every comparison in it is most
# of the cost, and the build without it runs about three times the
# executions a second, guided by edge coverage alone. Start such a run
# from a corpus a traced run has grown, which holds the comparisons it
# solved.
#
# The long run's build (its own target directory, fuzz/target/long) has
# Rust's debug assertions and overflow checks on and no AddressSanitizer
# (`--sanitizer none --debug-assertions`): Parlor is safe Rust, where ASan
# finds nothing the bounds checks do not, while an integer that overflows
# (a wallet, a count, a cell) is a bug the release build would wrap past in
# silence; and the targets run two to three times faster without ASan.
# The smoke run (scripts/fuzz-smoke.sh) keeps ASan, for the C code
# linked in (SQLite). The rss limit still catches memory that grows.
#
# A crash does not stop the run: its row says so, libFuzzer's report is in
# the target's log and the input under fuzz/artifacts/TARGET/. Reproduce it
# with `cargo +nightly fuzz run -O -s none -a --target-dir target/long TARGET
# fuzz/artifacts/TARGET/crash-…`.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

runs="${FUZZ_RUNS:-10000000}"
seconds="${FUZZ_MAX_SECONDS:-3600}"
# libFuzzer's timeout counts the wall clock: at nice 19 beside builds and
# test runs, an input that takes 200 ms alone can wait seconds for a core
# (twice a 10 s timeout reported the scheduler, not Parlor). 60 s still
# catches an input that never ends.
timeout="${FUZZ_TIMEOUT:-60}"
out="${FUZZ_OUT:-$(mktemp -d -t parlor-fuzz-long.XXXXXX)}"
mkdir -p "$out"
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
# 1234567 -> 1,234,567 (printf's %'d groups only in a locale that says so).
thousands() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }

workers="${FUZZ_WORKERS:-1}"
# The log of worker W of TARGET: TARGET.log, or TARGET.wW.log when several run.
worker_log() {
  if [ "$workers" -gt 1 ]; then echo "$out/$1.w$2.log"; else echo "$out/$1.log"; fi
}
build=(--release --sanitizer none --debug-assertions)
dir=target/long
if [ "${FUZZ_TRACE_COMPARES:-1}" = 0 ]; then
  build+=(--no-trace-compares)
  dir=target/long-nocmp
fi
build+=(--target-dir "$dir")
if [ "$#" -gt 0 ]; then
  for target in "${targets[@]}"; do
    cargo +nightly fuzz build "${build[@]}" "$target" >&2
  done
else
  cargo +nightly fuzz build "${build[@]}" >&2
fi
echo "fuzz: logs and corpora in $out" >&2
echo "| target | executions | cov | ft | corpus | peak RSS (MB) | crashes | seconds |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for target in "${targets[@]}"; do
  corpus="$out/corpus/$target"
  mkdir -p "$corpus" "artifacts/$target"
  cp -n "corpus/$target/"* "$corpus/" 2>/dev/null || true
  start=$(date +%s)
  pids=()
  for ((w = 1; w <= workers; w++)); do
    share=$((runs / workers))
    [ "$w" -eq "$workers" ] && share=$((runs - share * (workers - 1)))
    log=$(worker_log "$target" "$w")
    nice -n 19 "$dir/x86_64-unknown-linux-gnu/release/$target" "$corpus" \
      -runs="$share" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$timeout" \
      -print_final_stats=1 -artifact_prefix="artifacts/$target/" \
      >"$log" 2>&1 &
    pids+=($!)
  done
  execs=0 rss=0 crashes=0
  for ((w = 1; w <= workers; w++)); do
    status=0
    wait "${pids[w - 1]}" || status=$?
    log=$(worker_log "$target" "$w")
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    r=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    execs=$((execs + ${n:-0}))
    [ "${r:-0}" -gt "$rss" ] && rss=${r:-0}
    if [ "$status" -eq 72 ]; then
      # libFuzzer's exit status when interrupted (SIGINT): not a crash.
      echo "fuzz: $target (worker $w) was interrupted" >&2
    elif [ "$status" -ne 0 ]; then
      crashes=$((crashes + 1))
      echo "fuzz: $target stopped with status $status; see $log" >&2
    fi
    if [ "$w" -eq 1 ]; then
      # The last status line: "#N  DONE   cov: C ft: F corp: K/…" (or the
      # last pulse/NEW line when the run crashed).
      last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
      cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
      ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
      corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    fi
  done
  took=$(($(date +%s) - start))
  printf '| `%s` | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$target" "$(thousands "${execs:-0}")" "${cov:-?}" "${ft:-?}" \
    "${corp:-?}" "${rss:-?}" "$crashes" "$took"
done

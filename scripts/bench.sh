#!/usr/bin/env bash
# The benchmarks behind docs/performance.md, one after another, then a table
# of what this run measured: the question, the figure, the command.
#
#   bash scripts/bench.sh              the sizes of the doc's figures (hours:
#                                      the Baffle bot's games, its 26 x 26
#                                      games and the calibration take most)
#   bash scripts/bench.sh --quick      small sizes, a few minutes after the
#                                      build: checks that every benchmark runs
#                                      (its figures are not the doc's)
#   bash scripts/bench.sh --postgres   also the PostgreSQL measurements, beside
#                                      a throwaway PostgreSQL
#                                      (scripts/with-postgres.sh)
#
# Run it with `nice` on a shared machine, and say the load beside a figure:
# other work stretches every wall-clock time. Each benchmark's whole output
# is kept in BENCH_OUT (default: a new temporary directory, named at the
# end); the table takes one or two lines of each.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=no
postgres=no
for arg in "$@"; do
  case "$arg" in
    --quick) quick=yes ;;
    --postgres) postgres=yes ;;
    -h | --help)
      sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "bench.sh: unknown option $arg (--quick, --postgres, --help)" >&2
      exit 2
      ;;
  esac
done

# big QUICK FULL: the size for this run.
big() { if [ "$quick" = yes ]; then echo "$1"; else echo "$2"; fi; }

out="${BENCH_OUT:-$(mktemp -d)}"
mkdir -p "$out"
target="${CARGO_TARGET_DIR:-$PWD/target}"
parlor="$target/release/parlor"
load="$target/release/examples/load"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

questions=()
figures=()
commands=()
# row QUESTION FIGURE COMMAND: one line of the table.
row() {
  questions+=("$1")
  figures+=("$2")
  commands+=("$3")
}

# pick NAME REGEX: the last line of NAME's output matching REGEX, its runs
# of blanks squeezed; or where to look when there is none.
pick() {
  local line
  line="$(grep -E -- "$2" "$out/$1.txt" 2>/dev/null | tail -n 1 | tr -s ' ' | sed 's/^ //')" || true
  if [ -n "$line" ]; then echo "$line"; else echo "(not found: see $out/$1.txt)"; fi
}

# run NAME COMMAND...: runs COMMAND (an `env` prefix sets its variables),
# its output to NAME.txt and NAME.err; says so when it fails.
failed=()
run() {
  local name="$1"
  shift
  echo "== $name: $*"
  local started=$SECONDS
  if "$@" >"$out/$name.txt" 2>"$out/$name.err"; then
    echo "   $((SECONDS - started)) s"
  else
    echo "   FAILED (status $?) after $((SECONDS - started)) s: see $out/$name.err"
    failed+=("$name")
  fi
}

echo "== machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2 / 1048576) " GiB"}' /proc/meminfo), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== outputs in $out"
# The server and the load client with the bench profile: the release
# settings (Cargo.toml), in target/release, with the dependencies the
# benches below compile, so that they are built once, not twice.
echo "== building parlor and the load client (the bench profile)"
cargo build --profile bench --locked -p parlor
cargo build --profile bench --locked -p server --example load

# --- Chutes & Ladders ---------------------------------------------------
analysis_args=()
if [ "$quick" = yes ]; then analysis_args=(-- --quick); fi
run analysis cargo bench --locked -p chutes --bench analysis "${analysis_args[@]}"
cmd="cargo bench -p chutes --bench analysis ${analysis_args[*]}"
row "Monte Carlo against the C simulator" \
  "$(pick analysis 'best: seed_sim.c'); $(pick analysis 'best: parlor 1 thread')" "$cmd"
row "Exact answers: distribution, classic board" "$(pick analysis '^markov distribution to 1e-12 \(mean')" "$cmd"
row "Exact answers: shortest game, classic board" \
  "$(grep -E '^exact shortest game \(BFS' "$out/analysis.txt" 2>/dev/null | head -n 1 | tr -s ' ')" "$cmd"
row "Exact answers: chances per move, 4 players" "$(pick analysis 'chances to 1e-10, classic board')" "$cmd"
row "Exact answers: chances per move, 1,000 squares" "$(pick analysis 'chances to 1e-10, 1,000 squares')" "$cmd"
row "The designer's search" "$(pick analysis '^design: ')" "$cmd"
row "The sensitivity table" "$(pick analysis '^sensitivity table')" "$cmd"

run engine cargo bench --locked -p chutes --bench engine
row "The engine against the C simulator" \
  "$(pick engine '^baseline' | cut -d'(' -f1); $(pick engine 'game_play +classic, 1 player')" \
  "cargo bench -p chutes --bench engine"

# --- The server -----------------------------------------------------------
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
unlimited=(--rate-limit 0 --matches-per-client 0 --connections-per-client 0 --streams-per-client 0)

# start_server DATA_DIR [OPTION...]: `parlor serve` on a free port of
# 127.0.0.1; sets $addr and $server_pid.
start_server() {
  local data="$1"
  shift
  rm -f "$out/serve.out"
  "$parlor" serve --addr 127.0.0.1:0 --data-dir "$data" "$@" >"$out/serve.out" 2>"$out/serve.err" &
  server_pid=$!
  for _ in $(seq 300); do
    if [ -s "$out/serve.out" ]; then break; fi
    sleep 0.1
  done
  addr="$(head -n 1 "$out/serve.out" | sed -e 's|^http://||' -e 's|/$||')"
  [ -n "$addr" ] || {
    echo "parlor serve did not start:" >&2
    cat "$out/serve.err" >&2
    exit 1
  }
}

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}

# cpu_ticks PID: the process's user and system time, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

data="$(mktemp -d)"
start_server "$data" "${unlimited[@]}"
seconds="$(big 2 3)"
for clients in 1 8; do
  run "compare-$clients" "$load" compare "$addr" "$clients" "$seconds" --server-pid "$server_pid"
  row "A move's cost, $clients client(s), SQLite" \
    "$(pick "compare-$clients" "^the server's CPU"); $(pick "compare-$clients" '^compare' | sed -e 's/; errors.*//' -e 's/.*Chutes rolls/rolls/')" \
    "load compare ADDR $clients $seconds --server-pid PID"
done
stop_server
rm -rf "$data"

players="$(big 400 1600)"
seconds="$(big 10 20)"
data="$(mktemp -d)"
start_server "$data" --max-connections 8192 "${unlimited[@]}"
ticks="$(getconf CLK_TCK)"
before="$(cpu_ticks "$server_pid")"
run capacity "$load" mix "$addr" "$players" "$seconds" --think 500-1500
after="$(cpu_ticks "$server_pid")"
peak="$(awk '/VmHWM/ {print int($2 / 1024) " MB"}' "/proc/$server_pid/status")"
cores="$(awk -v t="$((after - before))" -v hz="$ticks" -v s="$seconds" 'BEGIN {printf "%.2f", t / hz / s}')"
stop_server
rm -rf "$data"
row "Players one server carries (SQLite)" \
  "$players players: $(pick capacity '^mix' | sed 's/.*s, //'); moves $(pick capacity '^ *moves ' | sed -e 's/ max.*//' -e 's/^moves //'); server ${cores} cores, peak ${peak}" \
  "load mix ADDR $players $seconds --think 500-1500"

run moves env MOVES_BENCH_SECONDS="$(big 2 10)" cargo bench --locked -p server --bench moves
row "A move's latency, 200 players at a person's pace (SQLite, log)" \
  "$(pick moves '^SQLite \(log.* 200 human pace' | awk '{print $(NF-4) " moves/s, p50 " $(NF-3) " ms, p99 " $(NF-2) " ms, max " $(NF-1) " ms"}')" \
  "MOVES_BENCH_SECONDS=$(big 2 10) cargo bench -p server --bench moves"

run api cargo bench --locked -p server --bench api
row "Request times: a whole Chutes match" "$(pick api '^chutes: new 2-player' | sed 's/.*median/median/')" "cargo bench -p server --bench api"
row "Request times: a Baffle hint" "$(pick api '^baffle: hint' | sed 's/.*median/median/')" "cargo bench -p server --bench api"

if [ "$postgres" = yes ]; then
  run pg-moves env PG_MOVES_SECONDS="$(big 3 6)" ROUNDS="$(big 1 3)" LOAD="$load" \
    bash scripts/with-postgres.sh bash scripts/pg-moves.sh "$parlor"
  row "Moves on PostgreSQL, 8 clients" \
    "$(pick pg-moves 'raw single-row insert commits \(insert\)'); $(pick pg-moves 'compare, 8 clients' | sed -e 's/; a roll.*//' -e 's/.*Chutes rolls/rolls/')" \
    "bash scripts/with-postgres.sh bash scripts/pg-moves.sh PARLOR"
  run moves-postgres env MOVES_BENCH_SECONDS="$(big 2 10)" bash scripts/with-postgres.sh cargo bench --locked -p server --bench moves
  row "A move's latency on PostgreSQL, 200 players at a person's pace" \
    "$(pick moves-postgres '^PostgreSQL.* 200 human pace' | awk '{print $(NF-4) " moves/s, p50 " $(NF-3) " ms, p99 " $(NF-2) " ms, max " $(NF-1) " ms"}')" \
    "bash scripts/with-postgres.sh cargo bench -p server --bench moves"
else
  row "Moves on PostgreSQL" "not run (--postgres runs it)" "bash scripts/with-postgres.sh bash scripts/pg-moves.sh PARLOR"
fi
if command -v node >/dev/null; then
  run peer env PEER_SECONDS="$(big 3 10)" PEER_ROUNDS="$(big 1 3)" bash scripts/peer.sh
  row "Against boardgame.io, 8 clients: Parlor's moves a CPU second over its in-memory store's" \
    "$(grep -E '^\| 8 \| memory' "$out/peer.txt" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $11); print $11}')" "bash scripts/peer.sh"
else
  row "Against boardgame.io" "not run: it needs Node.js" "bash scripts/peer.sh"
fi

# --- Baffle ---------------------------------------------------------------
if [ "$quick" = yes ]; then
  every_hints=(BAFFLE_EVERY_BOXES=1 BAFFLE_EVERY_GAMES=0 BAFFLE_EVERY_FIRST=26 BAFFLE_EVERY_LAST=26)
  every_games=(BAFFLE_EVERY_BOXES=0 BAFFLE_EVERY_GAMES=1 BAFFLE_EVERY_FIRST=26 BAFFLE_EVERY_LAST=26 BAFFLE_EVERY_K=40)
else
  every_hints=(BAFFLE_EVERY_BOXES=2 BAFFLE_EVERY_GAMES=0)
  every_games=(BAFFLE_EVERY_BOXES=0 BAFFLE_EVERY_GAMES=1 BAFFLE_EVERY_SLOW_MS=500)
fi
run every-hints env "${every_hints[@]}" cargo bench --locked -p baffle --bench every_box
row "Baffle hints on every box" "$(pick every-hints '^hints: .* failed of')" \
  "${every_hints[*]} cargo bench -p baffle --bench every_box"
run every-games env "${every_games[@]}" cargo bench --locked -p baffle --bench every_box
row "Baffle bot moves on every box" "$(pick every-games '^bot games: .* unfinished of')" \
  "${every_games[*]} cargo bench -p baffle --bench every_box"

run answers env BAFFLE_BENCH_BOXES="$(big 1 2)" cargo bench --locked -p baffle --bench answers
row "Baffle odds, hint and bot move" "$(pick answers '^slowest single answer')" \
  "BAFFLE_BENCH_BOXES=$(big 1 2) cargo bench -p baffle --bench answers"

run live env BAFFLE_LIVE_BOXES="$(big 1 3)" cargo bench --locked -p baffle --bench live
row "Baffle: a move's answer with the layouts left" "$(pick live '^slowest move with the count')" \
  "BAFFLE_LIVE_BOXES=$(big 1 3) cargo bench -p baffle --bench live"

run solve env BAFFLE_BENCH_PER_SIZE="$(big 1 10)" cargo bench --locked -p baffle --bench solve
row "Baffle: the fixed game's subsets" "$(pick solve '^ *slowest: ' | cut -d: -f1-2 | cut -c1-80)" \
  "BAFFLE_BENCH_PER_SIZE=$(big 1 10) cargo bench -p baffle --bench solve"

calib=(BAFFLE_CALIB_BOXES=12)
if [ "$quick" = yes ]; then calib=(BAFFLE_CALIB_BOXES=2 BAFFLE_CALIB_FIRST=4 BAFFLE_CALIB_LAST=10); fi
run calibration env "${calib[@]}" cargo bench --locked -p baffle --bench calibration
row "Baffle's chances: estimated" "$(pick calibration '^estimated, every cell: ' | sed 's/, slowest.*//')" \
  "${calib[*]} cargo bench -p baffle --bench calibration"

run bias env BAFFLE_BIAS_BOXES="$(big 1 4)" cargo bench --locked -p baffle --bench bias
row "Baffle's estimate against exact counts" "$(pick bias '^ *repair: ')" \
  "BAFFLE_BIAS_BOXES=$(big 1 4) cargo bench -p baffle --bench bias"

bot=(BAFFLE_BOT_GAMES=2000 BAFFLE_OPTIMAL_MAX=20000 BAFFLE_BOT_BIG=30)
if [ "$quick" = yes ]; then bot=(BAFFLE_BOT_GAMES=100 BAFFLE_OPTIMAL_MAX=500 BAFFLE_BOT_BIG=0); fi
run bot-quality env "${bot[@]}" cargo bench --locked -p baffle --bench bot_quality
row "The Baffle bot, 10 x 10" "$(pick bot-quality '^10x10/5, ')" \
  "${bot[*]} cargo bench -p baffle --bench bot_quality"
if [ "$quick" = no ]; then
  row "The Baffle bot, 26 x 26" "$(pick bot-quality '^26x26/40, [0-9]+ random')" \
    "${bot[*]} cargo bench -p baffle --bench bot_quality"
fi

# --- Tycoon, pictures -----------------------------------------------------
run tycoon-games env GAMES="$(big 20000 200000)" cargo bench --locked -p tycoon --bench games
row "Tycoon bot games (default bots, 1 thread)" "$(pick tycoon-games 'default bots, 1 thread' | sed 's/.*= //')" \
  "GAMES=$(big 20000 200000) cargo bench -p tycoon --bench games"
run tycoon-hard env GAMES="$(big 2 20)" cargo bench --locked -p tycoon --bench hard
row "Tycoon's hard bot, a decision" "$(pick tycoon-hard 'sample grid: ')" \
  "GAMES=$(big 2 20) cargo bench -p tycoon --bench hard"
run tycoon-chances env GAMES="$(big 2 10)" cargo bench --locked -p tycoon --bench chances
row "Tycoon's live chances, 4 seats, a position" "$(pick tycoon-chances 'sample grid, 4 seats: ' | sed 's/.*positions, //')" \
  "GAMES=$(big 2 10) cargo bench -p tycoon --bench chances"

run pictures cargo bench --locked -p render --bench pictures
row "Pictures: the classic board" \
  "SVG $(pick pictures '^classic board: build \+ SVG' | awk '{print $(NF-2)}'), PNG $(pick pictures '^classic board: build \+ PNG' | awk '{print $(NF-2)}')" \
  "cargo bench -p render --bench pictures"

row "Fair share under attack" "not run here: see docs/reliability.md" "LOAD_SECONDS=10 bash scripts/load.sh"
row "CI" "not run here" "CI=true bash .ci/run (a fresh clone)"

echo
echo "| question | figure | command |"
echo "| --- | --- | --- |"
for i in "${!questions[@]}"; do
  echo "| ${questions[$i]} | ${figures[$i]} | \`${commands[$i]}\` |"
done
echo
echo "Outputs: $out"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "Failed: ${failed[*]}"
  exit 1
fi

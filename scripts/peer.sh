#!/usr/bin/env bash
# Parlor's server against boardgame.io's, side by side: the same
# single-player Chutes workload (scripts/peer/bench.js) against Parlor
# (release build, SQLite, every move committed before it is answered) and
# boardgame.io 0.50.2 (its Koa + socket.io server, pinned in
# scripts/peer/package-lock.json) with its in-memory and its FlatFile
# store, rounds interleaved. Prints each round and the medians' ratios.
#
#   scripts/peer.sh                         3 rounds of 10 s, 1 and 8 clients
#   PEER_SECONDS=5 PEER_ROUNDS=1 scripts/peer.sh   a quick pass
#   PARLOR_BIN=/elsewhere/parlor scripts/peer.sh   another build of Parlor
#   PARLOR_BEFORE=/old/parlor scripts/peer.sh      that build too, as "before",
#                                                  in the same interleaved rounds
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${PEER_SECONDS:-10}"
rounds="${PEER_ROUNDS:-3}"
clients="${PEER_CLIENTS:-1,8}"
command -v node >/dev/null || { echo "peer.sh needs Node.js (apt-get install nodejs npm)" >&2; exit 1; }
if [ -z "${PARLOR_BIN:-}" ]; then cargo build --release --locked -p parlor; fi
(cd scripts/peer && npm ci --no-audit --no-fund --silent)
target="${CARGO_TARGET_DIR:-$PWD/target}"
parlor="$(realpath "${PARLOR_BIN:-$target/release/parlor}")"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# wait_for FILE WORD: waits (up to 30 s) until FILE holds WORD.
wait_for() {
  for _ in $(seq 300); do
    if grep -q "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "a server did not start:" >&2
  cat "$1" >&2
  exit 1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/parlor" "$work/flatfile"
# A closed loop from one address is faster than people: no fair-share
# limits for this run.
"$parlor" serve --addr 127.0.0.1:0 --data-dir "$work/parlor" \
  --rate-limit 0 --matches-per-client 0 --connections-per-client 0 --streams-per-client 0 \
  >"$work/parlor.out" 2>"$work/parlor.err" &
pids+=($!)
parlor_pid=$!
wait_for "$work/parlor.out" "http://"
parlor_addr="$(head -n 1 "$work/parlor.out" | sed -e 's|/$||')"

# Another build, side by side in the same rounds (PARLOR_BEFORE).
before_target=()
if [ -n "${PARLOR_BEFORE:-}" ]; then
  mkdir -p "$work/before"
  "$(realpath "$PARLOR_BEFORE")" serve --addr 127.0.0.1:0 --data-dir "$work/before" \
    --rate-limit 0 --matches-per-client 0 --connections-per-client 0 --streams-per-client 0 \
    >"$work/before.out" 2>"$work/before.err" &
  pids+=($!)
  before_pid=$!
  wait_for "$work/before.out" "http://"
  before_target=(--target "before=$(head -n 1 "$work/before.out" | sed -e 's|/$||')@$before_pid")
fi

memory_port="$(free_port)"
node scripts/peer/server.js "$memory_port" memory >"$work/memory.out" 2>&1 &
pids+=($!)
memory_pid=$!
flatfile_port="$(free_port)"
node scripts/peer/server.js "$flatfile_port" flatfile "$work/flatfile" >"$work/flatfile.out" 2>&1 &
pids+=($!)
flatfile_pid=$!
wait_for "$work/memory.out" "listening"
wait_for "$work/flatfile.out" "listening"

echo "== machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version); parlor ${PARLOR_BIN:-$(git rev-parse --short HEAD)}"
node scripts/peer/bench.js --seconds "$seconds" --rounds "$rounds" --clients "$clients" \
  --target "parlor=$parlor_addr@$parlor_pid" \
  "${before_target[@]}" \
  --target "memory=http://127.0.0.1:$memory_port@$memory_pid" \
  --target "flatfile=http://127.0.0.1:$flatfile_port@$flatfile_pid"

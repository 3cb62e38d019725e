#!/usr/bin/env bash
# How many players one `parlor serve` carries at a person's pace: the load
# client's `capacity` mode (crates/server/examples/load/capacity.rs)
# against a release server on loopback, each player on an address of its
# own (so the fair-share limits are the defaults), step by step.
#
#   scripts/capacity.sh                        SQLite; 1,000 to 5,000 players
#   CAPACITY_STEPS=500,1000 CAPACITY_SECONDS=60 scripts/capacity.sh
#   bash scripts/with-postgres.sh scripts/capacity.sh     on PostgreSQL
#   CAPACITY_CLUSTER=1 scripts/capacity.sh     two servers on PostgreSQL behind
#                                              HAProxy (scripts/cluster.sh)
#   PARLOR_BIN=/elsewhere/parlor scripts/capacity.sh   another build of the server
#   CAPACITY_GZIP=0 scripts/capacity.sh        players that do not ask for gzip answers
#
# A player keeps a connection and a stream (more for spectators and lobby
# readers): the server runs with --max-connections 16000 under a file limit
# of 100,000 (or the most the machine allows). The load client shares the machine: its CPU is the server's
# loss, and the figure is a floor.
set -euo pipefail
cd "$(dirname "$0")/.."

steps="${CAPACITY_STEPS:-1000,2000,3000,5000}"
seconds="${CAPACITY_SECONDS:-120}"
if [ -z "${PARLOR_BIN:-}" ]; then cargo build --release --locked -p parlor; fi
cargo build --release --locked -p server --example load
target="${CARGO_TARGET_DIR:-$PWD/target}"
parlor="$(realpath "${PARLOR_BIN:-$target/release/parlor}")"
work="$(mktemp -d)"
server_pid=""
cluster_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ -n "$cluster_pid" ]; then
    exec 3>&- # the cluster's standard input ends: it stops everything
    wait "$cluster_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
# Each player holds connections: as many open files as may be had.
ulimit -n 100000 2>/dev/null || ulimit -n "$(ulimit -Hn)"

if [ "${CAPACITY_CLUSTER:-}" = 1 ]; then
  # Two servers and HAProxy (each player's connection and stream pass
  # through it), on a throwaway PostgreSQL; runs until fd 3 closes.
  store="PostgreSQL, two servers behind HAProxy"
  mkfifo "$work/hold"
  # HAProxy needs two open files a connection (the player's, the server's).
  maxconn=$(( ($(ulimit -n) - 100) / 2 ))
  if [ "$maxconn" -gt 40000 ]; then maxconn=40000; fi
  PARLOR_BIN="$parlor" PARLOR_CLUSTER_PORT=0 PARLOR_MAX_CONNECTIONS=16000 \
    PARLOR_CLUSTER_MAXCONN="$maxconn" bash scripts/cluster.sh <"$work/hold" >"$work/cluster.out" 2>"$work/cluster.err" &
  cluster_pid=$!
  exec 3>"$work/hold"
  for _ in $(seq 1200); do
    if grep -q "^cluster: ready in" "$work/cluster.out"; then break; fi
    if ! kill -0 "$cluster_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  dir="$(sed -n 's/^cluster: ready in //p' "$work/cluster.out")"
  [ -n "$dir" ] || { echo "scripts/cluster.sh did not start:" >&2; cat "$work/cluster.err" >&2; exit 1; }
  addr="$(sed -n 's/^balancer=//p' "$dir/cluster.env")"
  pids="$(cat "$dir/a.pid"),$(cat "$dir/b.pid")"
else
  store="SQLite"
  if [ -n "${PARLOR_DATABASE_URL:-}" ]; then store="PostgreSQL"; fi
  "$parlor" serve --addr 127.0.0.1:0 --data-dir "$work" --max-connections 16000 \
    >"$work/serve.out" 2>"$work/serve.err" &
  server_pid=$!
  for _ in $(seq 300); do
    if [ -s "$work/serve.out" ]; then break; fi
    sleep 0.1
  done
  addr="$(head -n 1 "$work/serve.out" | sed -e 's|^http://||' -e 's|/$||')"
  [ -n "$addr" ] || { echo "parlor serve did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }
  pids="$server_pid"
fi
echo "== machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg); store $store; parlor ${PARLOR_BIN:-$(git rev-parse --short HEAD)}"
echo "== players at a person's pace: steps $steps, $seconds s each"
status=0
"$target/release/examples/load" capacity "$addr" "$steps" "$seconds" --server-pid "$pids" || status=$?
for pid in ${pids//,/ }; do
  echo "   server $pid peak memory: $(awk '/VmHWM/ {print $2 " KiB"}' "/proc/$pid/status")"
done
exit "$status"

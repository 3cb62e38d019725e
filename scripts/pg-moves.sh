#!/usr/bin/env bash
# Issue 34, part 3: Chutes rolls per second through `parlor serve` on
# PostgreSQL, 8 clients in a closed loop (the load client's `compare`),
# beside the same PostgreSQL's raw single-row insert commits (pgbench, 8
# clients) with and without a NOTIFY in each: one run, interleaved, each
# server binary given on a fresh database. Run beside a throwaway
# PostgreSQL:
#
#   bash scripts/with-postgres.sh bash scripts/pg-moves.sh PARLOR... 
#
# PG_MOVES_SECONDS sets each measurement's length (default 10), LOAD the
# load client (default $CARGO_TARGET_DIR/release/examples/load), ROUNDS the
# rounds (default 2). Figures go to stdout (docs/performance.md).
set -euo pipefail
url="${PARLOR_TEST_POSTGRES_URL:?run under scripts/with-postgres.sh}"
bin="${PARLOR_TEST_POSTGRES_BIN:?run under scripts/with-postgres.sh}"
seconds="${PG_MOVES_SECONDS:-10}"
load="${LOAD:-${CARGO_TARGET_DIR:-$PWD/target}/release/examples/load}"
rounds="${ROUNDS:-2}"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

psql() { "$bin/psql" -q -X "$@"; }
psql "$url" -c "CREATE TABLE IF NOT EXISTS raw_insert (id bigserial PRIMARY KEY, match_id text, number int, entry text, at_ms bigint)"
echo "INSERT INTO raw_insert (match_id, number, entry, at_ms) VALUES ('0123456789abcdef0123456789abcdef', 1, 'roll 4', 0);" >"$work/insert.sql"
echo "INSERT INTO raw_insert (match_id, number, entry, at_ms) VALUES ('0123456789abcdef0123456789abcdef', 1, 'roll 4', 0) RETURNING pg_notify('bench', 'x m 0123456789abcdef 1');" >"$work/notify.sql"

raw() {
  local tps
  tps="$("$bin/pgbench" -n -c 8 -j 2 -T "$seconds" -f "$work/$1.sql" "$url" 2>/dev/null | awk '/^tps/ {print int($3)}')"
  echo "   raw single-row insert commits ($1), 8 clients: $tps/s"
}

n=0
server() {
  local parlor="$1"
  n=$((n + 1))
  psql "$url" -c "CREATE DATABASE run$n"
  rm -f "$work/serve.out"
  "$parlor" serve --addr 127.0.0.1:0 --database "${url%/*}/run$n" --rate-limit 0 --matches-per-client 0 \
    --connections-per-client 0 --streams-per-client 0 >"$work/serve.out" 2>"$work/serve.err" &
  server_pid=$!
  for _ in $(seq 300); do
    if [ -s "$work/serve.out" ]; then break; fi
    sleep 0.1
  done
  local addr
  addr="$(head -n 1 "$work/serve.out" | sed -e 's|^http://||' -e 's|/$||')"
  [ -n "$addr" ] || { cat "$work/serve.err" >&2; exit 1; }
  echo "   $parlor:"
  "$load" compare "$addr" 8 "$seconds" --server-pid "$server_pid" | sed 's/^/     /'
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}

echo "== machine: $(nproc) cores, $("$bin/postgres" --version)"
for round in $(seq "$rounds"); do
  echo "== round $round"
  raw insert
  raw notify
  for parlor in "$@"; do server "$parlor"; done
done

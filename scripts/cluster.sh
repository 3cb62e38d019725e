#!/usr/bin/env bash
# Two Parlor servers behind a load balancer, sharing one PostgreSQL, all on
# this machine's loopback — the deployment docs/deploy.md describes, to try
# or to test:
#
#   bash scripts/cluster.sh                 # then open the balancer's URL it prints
#   PARLOR_BIN=target/debug/parlor bash scripts/cluster.sh   # a binary already built
#
# Without PARLOR_BIN it builds parlor as the Dockerfile does (cargo build
# --release --locked -p parlor). It starts a throwaway PostgreSQL
# (scripts/with-postgres.sh: installed with apt-get when missing), servers
# `a` and `b` (`parlor serve` on free loopback ports, configured by PARLOR_*
# variables, each with its metrics address), and HAProxy (Debian's,
# installed with apt-get when missing) in front: active health checks of
# GET /readyz every ½ s (a server is out after 2 failures, back after 2
# successes), a request that finds no server, an empty answer or a 503
# (a draining server refuses new moves so) sent again to the other server;
# no cookie: any server answers any request (everything is in the store).
#
# It prints the balancer's URL and, last, `cluster: ready in DIR`; DIR holds
# cluster.env (the addresses), the logs (a.log, b.log, haproxy.log) and
# start-a / start-b, which (re)start one server (a.pid, b.pid hold their
# process ids). It runs until its standard input ends (Enter, Ctrl-D) or
# Ctrl-C, then stops everything and removes DIR.
#
# The servers trust the balancer (--trusted-proxy 127.0.0.1) and read each
# player's address from the X-Forwarded-For it adds, so the fair-share
# limits count players, not the balancer.
#
# Variables: PARLOR_BIN (the binary), PARLOR_CLUSTER_PORT (the balancer's
# port, default 8080; 0 for any free one), PARLOR_CLUSTER_MAXCONN (the
# balancer's most connections at once, default 4096); any other PARLOR_*
# setting reaches both servers (PARLOR_MAX_CONNECTIONS, for instance).
set -euo pipefail
cd "$(dirname "$0")/.."

# A PostgreSQL of its own, stopped when this script ends.
if [ "${PARLOR_CLUSTER_INSIDE:-}" != 1 ]; then
  export PARLOR_CLUSTER_INSIDE=1
  exec bash scripts/with-postgres.sh bash scripts/cluster.sh "$@"
fi

have() { command -v "$1" >/dev/null 2>&1; }
say() { echo "cluster: $*" >&2; }

if ! have haproxy; then
  say "installing HAProxy with apt-get"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends haproxy >/dev/null
fi

bin="${PARLOR_BIN:-}"
if [ -z "$bin" ]; then
  say "building parlor (cargo build --release --locked -p parlor)"
  cargo build --release --locked -p parlor >&2
  bin="${CARGO_TARGET_DIR:-target}/release/parlor"
fi
bin="$(realpath "$bin")"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

dir="$(mktemp -d /tmp/parlor-cluster.XXXXXX)"
stop() {
  trap - EXIT INT TERM
  for name in haproxy a b; do
    if [ -f "$dir/$name.pid" ]; then
      kill -TERM "$(cat "$dir/$name.pid")" 2>/dev/null || true
    fi
  done
  # Each server drains (2 s) and exits; then whatever is left is killed.
  for _ in $(seq 1 100); do
    alive=0
    for name in haproxy a b; do
      if [ -f "$dir/$name.pid" ] && kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then alive=1; fi
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for name in haproxy a b; do
    if [ -f "$dir/$name.pid" ]; then kill -KILL "$(cat "$dir/$name.pid")" 2>/dev/null || true; fi
  done
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

port="${PARLOR_CLUSTER_PORT:-8080}"
if [ "$port" = 0 ]; then port="$(free_port)"; fi
stats="$(free_port)"
url="$PARLOR_TEST_POSTGRES_URL"

# One start script per server: (re)starts it in the background, waits until
# it says it is running (its store is open), writes its process id.
for name in a b; do
  addr="127.0.0.1:$(free_port)"
  metrics="127.0.0.1:$(free_port)"
  mkdir -p "$dir/$name"
  cat >"$dir/start-$name" <<EOF
#!/usr/bin/env bash
# (Re)starts Parlor server $name of this cluster.
set -euo pipefail
: >"$dir/$name.out"
export PARLOR_ADDR=$addr
export PARLOR_METRICS_ADDR=$metrics
export PARLOR_DATA_DIR="$dir/$name"
export PARLOR_DATABASE_URL="$url"
export PARLOR_DRAIN_DELAY=2
export PARLOR_LOG_FORMAT=json
export PARLOR_TRUSTED_PROXY=127.0.0.1
nohup "$bin" serve >>"$dir/$name.out" 2>>"$dir/$name.log" </dev/null &
echo \$! >"$dir/$name.pid"
for _ in \$(seq 1 300); do
  if grep -q "^Parlor is running" "$dir/$name.out"; then exit 0; fi
  if ! kill -0 "\$(cat "$dir/$name.pid")" 2>/dev/null; then
    echo "cluster: server $name did not start:" >&2
    tail -n 20 "$dir/$name.log" >&2
    exit 1
  fi
  sleep 0.1
done
echo "cluster: server $name did not start within 30 s" >&2
exit 1
EOF
  chmod +x "$dir/start-$name"
  echo "$name=$addr" >>"$dir/cluster.env"
  echo "${name}_metrics=$metrics" >>"$dir/cluster.env"
done
# shellcheck disable=SC1091
. "$dir/cluster.env"

cat >"$dir/haproxy.cfg" <<EOF
global
    maxconn ${PARLOR_CLUSTER_MAXCONN:-4096}

defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    # A request is sent again, to the other server, when the connection
    # fails, the server closes it without an answer, or it answers 503
    # (draining, or its store is away): nothing of it was done there.
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response 503
    option http-buffer-request
    # Each live event is passed on as it comes: without it HAProxy holds a
    # small write back for more (about 200 ms a live event).
    option http-no-delay
    # The player's address, for the servers' fair-share limits.
    option forwardfor

frontend parlor
    bind 127.0.0.1:$port
    default_backend parlor

backend parlor
    # Requests take turns: matches, saved grids, uploaded boards and
    # designs are all in the store, so any server answers any of them.
    balance roundrobin
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2
    server a $a check
    server b $b check

frontend stats
    bind 127.0.0.1:$stats
    stats enable
    stats uri /stats
EOF
echo "balancer=127.0.0.1:$port" >>"$dir/cluster.env"
echo "stats=127.0.0.1:$stats" >>"$dir/cluster.env"
echo "database=$url" >>"$dir/cluster.env"

"$dir/start-a"
"$dir/start-b"
haproxy -db -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 </dev/null &
echo $! >"$dir/haproxy.pid"
# The balancer answers once a server is up.
for _ in $(seq 1 100); do
  if python3 - "127.0.0.1" "$port" <<'PY' 2>/dev/null; then break; fi
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=1)
s.sendall(b"GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
sys.exit(0 if s.recv(64).startswith(b"HTTP/1.1 200") else 1)
PY
  if ! kill -0 "$(cat "$dir/haproxy.pid")" 2>/dev/null; then
    say "HAProxy did not start:"
    cat "$dir/haproxy.log" >&2
    exit 1
  fi
  sleep 0.1
done

cat >&2 <<EOF
cluster: Parlor at http://127.0.0.1:$port/ (HAProxy), servers a at $a and b at $b
cluster: metrics at http://$a_metrics/metrics and http://$b_metrics/metrics,
cluster: HAProxy's view at http://127.0.0.1:$stats/stats; logs in $dir
cluster: kill a server (kill -9 \$(cat $dir/a.pid)) and start it again ($dir/start-a);
cluster: Enter or Ctrl-C stops everything.
EOF
echo "http://127.0.0.1:$port/"
echo "cluster: ready in $dir"
read -r _ || true

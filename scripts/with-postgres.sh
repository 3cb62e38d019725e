#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL server, for the tests:
#
#   bash scripts/with-postgres.sh cargo test --workspace
#
# Installs Debian's PostgreSQL when it is missing (apt-get, without making
# or starting the system's own cluster), makes a cluster in a temporary
# directory, starts it on a free port of 127.0.0.1 (trusting local
# connections: it holds nothing but test data), exports its URL as
# PARLOR_TEST_POSTGRES_URL, runs the command, then stops the server and
# removes the directory, however the command ends.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

find_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

bindir="$(find_bindir)"
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  if ! have apt-get; then
    echo "with-postgres: PostgreSQL is missing and apt-get is not available;" >&2
    echo "install your system's postgresql package by hand." >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if have sudo; then sudo="sudo"; else
      echo "with-postgres: run as root (or install sudo) to install PostgreSQL" >&2
      exit 1
    fi
  fi
  echo "with-postgres: installing PostgreSQL with apt-get" >&2
  # The tests make their own cluster: the package need not make or start one.
  $sudo mkdir -p /etc/postgresql-common
  if [ ! -f /etc/postgresql-common/createcluster.conf ]; then
    echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-confold postgresql
  bindir="$(find_bindir)"
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# 'postgres' user the package made.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  as_owner=(runuser -u postgres --)
fi

dir="$(mktemp -d /tmp/parlor-postgres.XXXXXX)"
chmod 755 "$dir"
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi

stop() {
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U parlor --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400" start >/dev/null || {
  cat "$dir/server.log" >&2
  exit 1
}
echo "with-postgres: $("$bindir/postgres" --version) on 127.0.0.1:$port" >&2

export PARLOR_TEST_POSTGRES_URL="postgres://parlor@127.0.0.1:$port/postgres"
export PARLOR_TEST_POSTGRES_BIN="$bindir"
status=0
"$@" || status=$?
exit "$status"

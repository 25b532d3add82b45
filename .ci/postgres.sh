#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server:
#
#   bash .ci/postgres.sh -- go test -race ./...
#
# It installs PostgreSQL from Debian's packages when initdb and pg_ctl are
# missing, creates a cluster in a temporary directory owned by an
# unprivileged user (the server refuses to run as root), starts it on a free
# port of 127.0.0.1 with trust authentication, creates the database
# pgstore_test, and runs the command in the current directory with
# DATABASE_URL pointing at it. On exit it stops the server and removes the
# directory. The command's exit status is the script's.
set -euo pipefail

if [ "${1:-}" = "--" ]; then
  shift
fi
if [ "$#" -eq 0 ]; then
  echo "usage: bash .ci/postgres.sh -- command [argument...]" >&2
  exit 2
fi

# find_bindir prints the directory of initdb and pg_ctl: the one on PATH, or
# the newest under Debian's /usr/lib/postgresql/<version>/bin.
find_bindir() {
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
  fi
}

bindir=$(find_bindir)
if [ -z "$bindir" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL is not installed, and only root can install it: run apt-get install postgresql, or run this script as root." >&2
    exit 1
  fi
  echo "== installing PostgreSQL from Debian's packages"
  # Debian's package creates a cluster of its own, and starts it where it
  # can, unless told not to; this script brings its own.
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/pgstore-ci.conf
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q </dev/null
  apt-get install -y -q --no-install-recommends postgresql </dev/null
  bindir=$(find_bindir)
  if [ -z "$bindir" ]; then
    echo "installed PostgreSQL, but found no initdb and pg_ctl under /usr/lib/postgresql/*/bin" >&2
    exit 1
  fi
fi

# The server runs as the current user, or as nobody when that is root.
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  as_server=(runuser -u nobody --)
fi

# As root, the directory goes under /tmp, where the user nobody can reach it.
tmp=${TMPDIR:-/tmp}
if [ "$(id -u)" -eq 0 ]; then
  tmp=/tmp
fi
dir=$(mktemp -d "$tmp/pgstore-ci.XXXXXX")
data="$dir/data"
cleanup() {
  if [ -f "$data/postmaster.pid" ]; then
    "${as_server[@]}" "$bindir/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

chmod 755 "$dir"
if [ "$(id -u)" -eq 0 ]; then
  chown nobody "$dir"
fi

"${as_server[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }

# The database, created in single-user mode before the server listens.
if ! echo "CREATE DATABASE pgstore_test;" |
  "${as_server[@]}" "$bindir/postgres" --single -D "$data" postgres >"$dir/createdb.log" 2>&1 ||
  grep -Eq "ERROR|FATAL" "$dir/createdb.log"; then
  cat "$dir/createdb.log" >&2
  exit 1
fi

# port_in_use reports whether something listens on 127.0.0.1:$1.
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

started=
for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  if port_in_use "$port"; then
    continue
  fi
  if "${as_server[@]}" "$bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir'" \
    -o "-c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null; then
    started=yes
    break
  fi
done
if [ -z "$started" ]; then
  echo "could not start PostgreSQL; its log:" >&2
  cat "$dir/server.log" >&2 || true
  exit 1
fi

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/pgstore_test?sslmode=disable"
echo "== PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port: $*"
"$@"

#!/usr/bin/env bash
# Measures the example server over pgstore against a bare net/http + pgx
# server (bench/pgbaseline) that does one primary-key query per request, on
# one throwaway PostgreSQL cluster in one run, with pgbench on the same
# cluster for reference, and prints requests per second, the ratios, and
# where the CPU went.
#
#   bash bench/postgres.sh        # DURATION=10s CONNECTIONS=16 ISSUES=64
#
# The example serves bench/data.json's organization with ISSUES issues of ten
# values each, from PostgreSQL (pgstore.Open). The list is
# GET of a random issue; the write is POST of ten values to a random issue,
# with a number that changes on every request, so every write commits. The
# bare server reads the issue's stored values with one SELECT and stores the
# POST's body with one UPDATE, both by primary key, in the same table, with a
# pool of the same size. pgbench runs its select-only script and a
# one-UPDATE script with the same number of clients. Each measurement reports
# the CPU seconds that the HTTP server and PostgreSQL used per 1,000 requests
# and the database transactions per request (pg_stat_database). The example
# runs with the write limits off and a primary rate limit so large that it
# never trips (-rate-limit 1000000000), whose shared budgets it still counts.
set -euo pipefail
cd "$(dirname "$0")/.."

# The script runs itself again under .ci/postgres.sh, which starts the
# cluster and sets DATABASE_URL.
if [ -z "${BENCH_IN_CLUSTER:-}" ]; then
  exec bash .ci/postgres.sh -- env BENCH_IN_CLUSTER=1 bash bench/postgres.sh
fi

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
ISSUES=${ISSUES:-64}
# The pool size of both servers: pgstore.DefaultMaxConns, 4 per CPU and at least 8.
POOL_SIZE=${POOL_SIZE:-$(( $(nproc) * 4 > 8 ? $(nproc) * 4 : 8 ))}
EXAMPLE_ADDR=127.0.0.1:18090
BASELINE_ADDR=127.0.0.1:18091
db=$DATABASE_URL

. bench/lib.sh
need wrk curl jq bc

(cd pgstore && go build -o "$tmp/example" ./cmd/issuefields-postgres)
(cd bench/pgbaseline && go build -o "$tmp/pgbaseline" .)

# The data: bench/data.json with ISSUES issues, each with issue 1's values.
jq --argjson n "$ISSUES" '.repositories[0].issues as $is
  | .repositories[0].issues = [range(1; $n + 1) | {number: ., values: $is[0].values}]' bench/data.json >"$tmp/data.json"

"$tmp/example" -addr "$EXAMPLE_ADDR" -postgres "$db" -data "$tmp/data.json" \
  -pool-size "$POOL_SIZE" -write-limit 0 -write-limit-hourly 0 -rate-limit 1000000000 -log-level warn >/dev/null 2>"$tmp/example.log" &
pids+=($!)
example_pid=$!
wait_for "http://$EXAMPLE_ADDR/repos/bench-org/bench-repo/issues/1/issue-field-values"
repository=$(psql "$db" -Atc "SELECT id FROM repositories WHERE name = 'bench-repo'")
"$tmp/pgbaseline" -addr "$BASELINE_ADDR" -postgres "$db&pool_max_conns=$POOL_SIZE" -repository "$repository" 2>/dev/null &
pids+=($!)
baseline_pid=$!
wait_for "http://$BASELINE_ADDR/repos/bench-org/bench-repo/issues/1/issue-field-values"

# cpu PID...: the CPU seconds (user and system) that the processes and their
# children that ended used.
cpu() {
  local ticks=0
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] && ticks=$((ticks + $(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat")))
  done
  echo "$ticks $(getconf CLK_TCK)" | awk '{printf "%.2f", $1 / $2}'
}
# postgres_pids: the postmaster and its live children, whose CPU the
# postmaster counts once they end.
postgres_pids() { pgrep -d ' ' -f '^postgres|bin/postgres ' || true; }
commits() { psql "$db" -Atc "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"; }

export BENCH_WRITE_BODY=$PWD/bench/write.json BENCH_ISSUES=$ISSUES
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(go env GOVERSION); PostgreSQL $(psql "$db" -Atc 'SHOW server_version')"
echo "load: wrk -t2 -c$CONNECTIONS -d$DURATION, $ISSUES issues, pool size $POOL_SIZE; every process shares the machine"
printf '\n%-6s %-12s %10s %14s %14s %10s\n' op server "requests/s" "server CPU ms" "postgres CPU ms" "xact/req"
printf '%-6s %-12s %10s %14s %14s %10s\n' "" "" "" "per 1k req" "per 1k req" ""
for kind in list write; do
  for server in example pgbaseline; do
    addr=$EXAMPLE_ADDR pid=$example_pid
    [ "$server" = pgbaseline ] && addr=$BASELINE_ADDR pid=$baseline_pid
    pg_pids=$(postgres_pids)
    server_before=$(cpu "$pid") pg_before=$(cpu $pg_pids) commits_before=$(commits)
    out=$(BENCH_KIND=$kind wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s bench/pg.lua "http://$addr")
    server_after=$(cpu "$pid") pg_after=$(cpu $(postgres_pids)) commits_after=$(commits)
    if grep -q 'Non-2xx' <<<"$out"; then
      echo "$server $kind: wrk saw failed answers:" >&2; echo "$out" >&2; exit 1
    fi
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    awk -v k="$kind" -v s="$server" -v rps="$rps" -v n="$requests" \
      -v sc="$(echo "$server_after - $server_before" | bc)" -v pc="$(echo "$pg_after - $pg_before" | bc)" \
      -v x="$((commits_after - commits_before))" \
      'BEGIN { printf "%-6s %-12s %10.0f %14.2f %14.2f %10.2f\n", k, s, rps, 1e6 * sc / n, 1e6 * pc / n, x / n }'
    eval "${server}_${kind}=$rps"
  done
done

pgbench -i -q -s 1 "$db" >/dev/null 2>&1
cat >"$tmp/update.sql" <<'SQL'
\set aid random(1, 100000)
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
SQL
pgbench_select=$(pgbench -n -S -c "$CONNECTIONS" -j 2 -T "${DURATION%s}" "$db" 2>/dev/null | awk '/^tps/ {print $3}')
pgbench_update=$(pgbench -n -f "$tmp/update.sql" -c "$CONNECTIONS" -j 2 -T "${DURATION%s}" "$db" 2>/dev/null | awk '/^tps/ {print $3}')
printf '%-6s %-12s %10.0f\n' list pgbench "$pgbench_select" write pgbench "$pgbench_update"
echo
awk -v el="$example_list" -v bl="$pgbaseline_list" -v ew="$example_write" -v bw="$pgbaseline_write" \
  -v pl="$pgbench_select" -v pw="$pgbench_update" 'BEGIN {
  printf "list:  example %.2fx the bare server, %.2fx pgbench\n", el / bl, el / pl
  printf "write: example %.2fx the bare server, %.2fx pgbench\n", ew / bw, ew / pw }'

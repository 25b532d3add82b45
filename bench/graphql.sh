#!/usr/bin/env bash
# Measures GraphQL beside its REST twins on the example server, on loopback
# with wrk: the server pinned to one core and wrk on the other, the two
# routes of each pair measured back to back in each run, several runs, and
# prints the medians of requests per second, p99 latency and the server's
# CPU time per request, and the ratios GraphQL/REST of requests/s and of
# what each serves on a core of its own (the inverse ratio of CPU time per
# request, which moves much less than requests/s on a shared machine), each
# the median of the runs' own ratios. The floor is 0.5 for both pairs.
#
#   bash bench/graphql.sh            # RUNS=5 DURATION=10s CONNECTIONS=64
#
# The pairs:
#   read:  GET of issue 1's values list (ten values), and the query that
#          github-mcp-server sends for an issue's values
#          (repository { issue { issueFieldValues(first: 25) { nodes … } } },
#          bench/graphql-read.json), which shows its eight values of the
#          four types the query asks for;
#   write: POST of eight values of issue 2 (bench/graphql-rest-write.json),
#          and setIssueFieldValue of the same eight values selecting
#          issue { id url } as set_issue_fields does
#          (bench/graphql-write.json); each alternates the estimate between
#          5 and 6, so that every write commits.
# The example runs with its default flags but for the secondary rate limit,
# which is off so that every write is served, and the primary rate limit,
# whose budget (-rate-limit 1000000000, an hour, for core and graphql alike)
# is checked on every request and never spent; its log goes to a file.
# EXAMPLE_FLAGS adds flags to its command line.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
ADDR=127.0.0.1:18083
LIST_PATH=/repos/bench-org/bench-repo/issues/1/issue-field-values
WRITE_PATH=/repos/bench-org/bench-repo/issues/2/issue-field-values

. bench/lib.sh
need wrk curl

go build -o "$tmp/example" ./example
taskset -c 0 "$tmp/example" -addr "$ADDR" -data bench/data.json \
  -write-limit 0 -write-limit-hourly 0 -rate-limit 1000000000 ${EXAMPLE_FLAGS:-} >/dev/null 2>"$tmp/example.log" &
pids+=($!)
wait_for "http://$ADDR$LIST_PATH"
# Each GraphQL body must be answered without errors.
for body in bench/graphql-read.json bench/graphql-write.json; do
  answer=$(curl -fsS -H 'Authorization: Bearer bench-token' -d @"$body" "http://$ADDR/graphql")
  case $answer in *'"errors"'*) echo "$body: $answer" >&2; exit 1 ;; esac
done

# measure LOAD: one wrk run of rest-read, graphql-read, rest-write or
# graphql-write; prints "requests/s p99-microseconds CPU-microseconds-per-request".
measure() {
  local args=(-s bench/graphql.lua "http://$ADDR")
  case $1 in
    rest-read) args=(-H 'Authorization: Bearer bench-token' "http://$ADDR$LIST_PATH") ;;
    graphql-read) export BENCH_METHOD=POST BENCH_PATH=/graphql BENCH_BODY=$PWD/bench/graphql-read.json BENCH_FROM= BENCH_TO= ;;
    rest-write) export BENCH_METHOD=POST BENCH_PATH=$WRITE_PATH BENCH_BODY=$PWD/bench/graphql-rest-write.json \
      BENCH_FROM='"field_id":5,"value":5' BENCH_TO='"field_id":5,"value":6' ;;
    graphql-write) export BENCH_METHOD=POST BENCH_PATH=/graphql BENCH_BODY=$PWD/bench/graphql-write.json \
      BENCH_FROM='"numberValue":5}' BENCH_TO='"numberValue":6}' ;;
  esac
  wrk_run "${pids[0]}" "${args[@]}"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); go $(go env GOVERSION)"
echo "load: wrk -t2 -c$CONNECTIONS -d$DURATION, server pinned to core 0, wrk to core 1, $RUNS runs each"
loads="rest-read graphql-read rest-write graphql-write"
for load in $loads; do : >"$tmp/$load"; done
for run in $(seq "$RUNS"); do
  # Alternate which of a pair goes first, so that drift hits them alike.
  order=$loads; [ $((run % 2)) -eq 0 ] && order="graphql-read rest-read graphql-write rest-write"
  for load in $order; do measure "$load" >>"$tmp/$load"; done
done

printf '\n%-14s %12s %10s %14s\n' load "requests/s" "p99 µs" "CPU µs/request"
for load in $loads; do
  printf '%-14s %12.0f %10.0f %14.1f\n' "$load" "$(cut -d' ' -f1 "$tmp/$load" | median)" \
    "$(cut -d' ' -f2 "$tmp/$load" | median)" "$(cut -d' ' -f3 "$tmp/$load" | median)"
done
echo
# ratio PAIR COLUMN: for each run, GraphQL's figure over REST's in the same
# run, as "median lowest highest": pairing the runs cancels the drift of a
# shared machine between runs, which a ratio of the two medians would keep.
ratio() {
  paste -d' ' <(cut -d' ' -f"$2" "$tmp/graphql-$1") <(cut -d' ' -f"$2" "$tmp/rest-$1") |
    awk -v col="$2" '{ print col == 3 ? $2 / $1 : $1 / $2 }' | sort -n |
    awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, v[1], v[NR] }'
}
for pair in read write; do
  read -r rps rlo rhi <<<"$(ratio "$pair" 1)"
  read -r cpu clo chi <<<"$(ratio "$pair" 3)"
  printf '%-6s GraphQL/REST: requests/s %.2f (%.2f to %.2f); on a core of its own (REST'"'"'s CPU per request over GraphQL'"'"'s) %.2f (%.2f to %.2f); the floor is 0.50\n' \
    "$pair:" "$rps" "$rlo" "$rhi" "$cpu" "$clo" "$chi"
done

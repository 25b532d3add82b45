#!/usr/bin/env bash
# Measures the example server against a bare standard-library server
# (bench/baseline) on loopback with wrk, one server at a time pinned to one
# core and wrk on the other, several runs each, and prints the medians of
# requests per second, p99 latency and the server's CPU time per request,
# and the ratios example/baseline: of CPU per request, the median of each
# run's ratio (the two servers measured back to back).
#
#   bash bench/loopback.sh            # RUNS=5 DURATION=10s CONNECTIONS=64
#   EXAMPLE_FLAGS='-log-level warn' bash bench/loopback.sh
#
# The example runs with its default flags, as users run it (a log line per
# request, its timeouts and its bound on connections), but for the secondary
# rate limit, which is off so that every write is served, and the primary
# rate limit, whose budget is so large (-rate-limit 1000000000) that it never
# trips, while every request is still counted and carries its headers; its
# log goes to a file. EXAMPLE_FLAGS adds flags to its command line.
#
# The list is GET of an issue with ten values (about 1.6 KB of JSON); the
# write is POST of the same ten values, alternating one of them so that every
# write commits. The baseline answers the list with the same bytes, and the
# write by decoding the body and answering the same bytes.
#
# A third server, the same example with -tools=false (no page, no recorded
# requests), is measured in the same runs, so that the cost of the stand-in's
# tools shows as the example's CPU per request over its own without them.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
EXAMPLE_ADDR=127.0.0.1:18080
BASELINE_ADDR=127.0.0.1:18081
NOTOOLS_ADDR=127.0.0.1:18082
# RATE_LIMIT is the primary rate limit's budget an hour: larger than any
# run's requests, so that the budget is checked and never spent.
RATE_LIMIT=1000000000
LIST_PATH=/repos/bench-org/bench-repo/issues/1/issue-field-values
WRITE_PATH=/repos/bench-org/bench-repo/issues/2/issue-field-values

. bench/lib.sh
need wrk curl

go build -o "$tmp/example" ./example
go build -o "$tmp/baseline" ./bench/baseline

taskset -c 0 "$tmp/example" -addr "$EXAMPLE_ADDR" -data bench/data.json \
  -write-limit 0 -write-limit-hourly 0 -rate-limit "$RATE_LIMIT" ${EXAMPLE_FLAGS:-} >/dev/null 2>"$tmp/example.log" &
pids+=($!)
wait_for "http://$EXAMPLE_ADDR$LIST_PATH"
curl -fsS -H 'Authorization: Bearer bench-token' "http://$EXAMPLE_ADDR$LIST_PATH" >"$tmp/list.json"

taskset -c 0 "$tmp/baseline" -addr "$BASELINE_ADDR" -body "$tmp/list.json" 2>/dev/null &
pids+=($!)
wait_for "http://$BASELINE_ADDR$LIST_PATH"

taskset -c 0 "$tmp/example" -addr "$NOTOOLS_ADDR" -data bench/data.json -tools=false \
  -write-limit 0 -write-limit-hourly 0 -rate-limit "$RATE_LIMIT" ${EXAMPLE_FLAGS:-} >/dev/null 2>"$tmp/notools.log" &
pids+=($!)
wait_for "http://$NOTOOLS_ADDR$LIST_PATH"

export BENCH_WRITE_BODY=$PWD/bench/write.json BENCH_WRITE_PATH=$WRITE_PATH

# measure SERVER KIND: one wrk run (wrk_run) of the server's list or write.
measure() {
  local addr=$EXAMPLE_ADDR args=() pid=${pids[0]}
  [ "$1" = baseline ] && addr=$BASELINE_ADDR pid=${pids[1]}
  [ "$1" = notools ] && addr=$NOTOOLS_ADDR pid=${pids[2]}
  if [ "$2" = list ]; then
    args=(-H 'Authorization: Bearer bench-token' "http://$addr$LIST_PATH")
  else
    args=(-s bench/write.lua "http://$addr")
  fi
  wrk_run "$pid" "${args[@]}"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); go $(go env GOVERSION)"
echo "load: wrk -t2 -c$CONNECTIONS -d$DURATION, server pinned to core 0, wrk to core 1, $RUNS runs each"
echo "servers: example, baseline, and notools (the example with -tools=false)"
echo "example flags: the defaults, write limits off, -rate-limit $RATE_LIMIT (checked, never spent)${EXAMPLE_FLAGS:+, $EXAMPLE_FLAGS}"
for kind in list write; do
  : >"$tmp/example.$kind" && : >"$tmp/baseline.$kind" && : >"$tmp/notools.$kind"
  for run in $(seq "$RUNS"); do
    # Alternate which server goes first, so that drift hits them alike.
    order="example baseline notools"; [ $((run % 2)) -eq 0 ] && order="notools baseline example"
    for server in $order; do measure "$server" "$kind" >>"$tmp/$server.$kind"; done
  done
done

printf '\n%-6s %-9s %12s %10s %14s\n' op server "requests/s" "p99 µs" "CPU µs/request"
for kind in list write; do
  for server in example baseline notools; do
    rps=$(cut -d' ' -f1 "$tmp/$server.$kind" | median)
    p99=$(cut -d' ' -f2 "$tmp/$server.$kind" | median)
    cpu=$(cut -d' ' -f3 "$tmp/$server.$kind" | median)
    printf '%-6s %-9s %12.0f %10.0f %14.1f\n' "$kind" "$server" "$rps" "$p99" "$cpu"
    eval "${server}_${kind}_rps=$rps"
  done
done
# pair_ratios KIND [OTHER]: for each run, the example's CPU per request over
# OTHER's (the baseline's by default) in the same run, as "median lowest
# highest": pairing the runs cancels the drift of a shared machine between
# runs, which a ratio of the two medians would keep.
pair_ratios() {
  paste -d' ' <(cut -d' ' -f3 "$tmp/example.$1") <(cut -d' ' -f3 "$tmp/${2:-baseline}.$1") |
    awk '{ print $1 / $2 }' | sort -n |
    awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, v[1], v[NR] }'
}
echo
for kind in list write; do
  read -r median lowest highest <<<"$(pair_ratios "$kind")"
  example_rps=example_${kind}_rps baseline_rps=baseline_${kind}_rps
  awk -v k="$kind:" -v m="$median" -v lo="$lowest" -v hi="$highest" -v a="${!example_rps}" -v b="${!baseline_rps}" 'BEGIN {
    printf "%-6s CPU per request %.2fx the baseline'"'"'s (median of the runs, %.2fx to %.2fx): %.2f of its requests/s on a core; requests/s %.2f of its\n", k, m, lo, hi, 1 / m, a / b }'
done
for kind in list write; do
  read -r median lowest highest <<<"$(pair_ratios "$kind" notools)"
  awk -v k="$kind:" -v m="$median" -v lo="$lowest" -v hi="$highest" 'BEGIN {
    printf "%-6s the tools cost: CPU per request %.2fx the example'"'"'s with -tools=false (%.2fx to %.2fx)\n", k, m, lo, hi }'
done

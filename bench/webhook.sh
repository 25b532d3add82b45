#!/usr/bin/env bash
# Measures what webhook deliveries cost the example server's writes, on
# loopback with wrk, side by side in one run: three example servers over the
# same data, one with no hook, one with an organization hook (-webhook) to a
# receiver that answers at once, and one with a hook to a receiver that never
# answers (the delivery gives up after 10 s). Each server is pinned to core 0
# and measured alone, in turn; wrk and the receivers share core 1. It prints
# the medians of writes per second, median and p99 latency and the server's
# CPU time per write, the deliveries' outcomes, and:
#   - the write rate with the hook over that without (goal: at least 0.5);
#   - the CPU time per delivery: the hooked server's CPU time beyond what the
#     server without a hook used for as many writes, over the deliveries made;
#   - the latency with the slow receiver over that without a hook (goal: 1).
# Each ratio is the median of the runs' ratios (the servers measured back to
# back), as bench/loopback.sh pairs its runs.
#
#   bash bench/webhook.sh                  # RUNS=3 DURATION=10s CONNECTIONS=64
#   CONNECTIONS=2 bash bench/webhook.sh    # writes that leave the workers time to deliver
#
# With 64 connections the server's core is saturated with writes, the four
# delivery workers get a small share of it, and the queue of the prompt
# receiver's hook overflows: most events are dropped, which the line of
# outcomes shows. With 2 connections the queue keeps up.
#
# The servers run with their default flags but for the rate limits, which
# are off (-rate-limit 0: a run sends more than a budget), and -debug-addr, whose counters give the deliveries'
# outcomes; their logs go to files. The write is bench/loopback.sh's: POST of
# ten values to one issue, alternating one of them, so that every write
# changes one field: one event, one delivery per hook. After each measure the
# script waits for the queue of the hook to a prompt receiver to empty, so
# that its CPU time includes the deliveries of every write.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
LIST_PATH=/repos/bench-org/bench-repo/issues/1/issue-field-values
WRITE_PATH=/repos/bench-org/bench-repo/issues/2/issue-field-values
PROMPT_RECEIVER=127.0.0.1:18082
SLOW_RECEIVER=127.0.0.1:18083

. bench/lib.sh
need wrk curl jq

go build -o "$tmp/example" ./example
go build -o "$tmp/receiver" ./bench/receiver

taskset -c 1 "$tmp/receiver" -addr "$PROMPT_RECEIVER" 2>/dev/null &
pids+=($!)
taskset -c 1 "$tmp/receiver" -addr "$SLOW_RECEIVER" -delay 1h 2>/dev/null &
pids+=($!)

declare -A addr debug pid
# start NAME PORT DEBUG_PORT [FLAG...]: starts an example server on core 0.
start() {
  local name=$1 port=$2 debug_port=$3
  shift 3
  taskset -c 0 "$tmp/example" -addr "127.0.0.1:$port" -debug-addr "127.0.0.1:$debug_port" -data bench/data.json \
    -write-limit 0 -write-limit-hourly 0 -rate-limit 0 "$@" >/dev/null 2>"$tmp/$name.log" &
  pids+=($!)
  pid[$name]=$! addr[$name]=127.0.0.1:$port debug[$name]=127.0.0.1:$debug_port
  wait_for "http://${addr[$name]}$LIST_PATH"
}
start none 18084 18094
start prompt 18085 18095 -webhook "http://$PROMPT_RECEIVER/hook" -webhook-secret bench-secret
start slow 18086 18096 -webhook "http://$SLOW_RECEIVER/hook" -webhook-secret bench-secret

export BENCH_WRITE_BODY=$PWD/bench/write.json BENCH_WRITE_PATH=$WRITE_PATH

# outcomes NAME: the server's webhook counters, "delivered failed dropped
# queued".
outcomes() {
  curl -fsS "http://${debug[$1]}/debug/vars" | jq -r '.issuefields.webhook | "\(.Delivered) \(.Failed) \(.Dropped) \(.Queued)"'
}

# measure NAME: one wrk run of writes; prints "writes/s p50-µs p99-µs
# CPU-µs-per-write writes CPU-µs delivered failed dropped".
measure() {
  local name=$1 before d0 f0 x0 q d1 f1 x1
  read -r d0 f0 x0 q <<<"$(outcomes "$name")"
  before=$(cpu_ticks "${pid[$name]}")
  taskset -c 1 wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/write.lua "http://${addr[$name]}" >"$tmp/wrk.out"
  if [ "$name" = prompt ]; then
    for _ in $(seq 100); do
      read -r d1 f1 x1 q <<<"$(outcomes "$name")"
      [ "$q" -eq 0 ] && break
      sleep 0.1
    done
  fi
  read -r d1 f1 x1 q <<<"$(outcomes "$name")"
  awk -v ticks=$(( $(cpu_ticks "${pid[$name]}") - before )) -v hz="$(getconf CLK_TCK)" \
    -v delivered=$((d1 - d0)) -v failed=$((f1 - f0)) -v dropped=$((x1 - x0)) '
    function micros(v, unit) { unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
      return v * (unit == "s" ? 1e6 : unit == "ms" ? 1e3 : 1) }
    / requests in / { n = $1 }
    /Requests\/sec/ { rps = $2 }
    $1 == "50%" { p50 = micros($2) }
    $1 == "99%" { p99 = micros($2) }
    / Non-2xx or 3xx responses/ { bad = $NF }
    END { if (bad) { print "wrk saw " bad " failed answers" > "/dev/stderr"; exit 1 }
      cpu = ticks / hz * 1e6
      printf "%d %d %d %.1f %d %.0f %d %d %d\n", rps, p50, p99, cpu / n, n, cpu, delivered, failed, dropped }' "$tmp/wrk.out"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); go $(go env GOVERSION)"
echo "load: wrk -t2 -c$CONNECTIONS -d$DURATION of writes, servers pinned to core 0, wrk and receivers to core 1, $RUNS runs"
servers="none prompt slow"
for name in $servers; do : >"$tmp/$name.runs"; done
for run in $(seq "$RUNS"); do
  # Rotate which server goes first, so that drift hits all alike.
  order=$(echo $servers | awk -v r="$run" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
  for name in $order; do measure "$name" >>"$tmp/$name.runs"; done
done

printf '\n%-7s %9s %8s %8s %12s %10s %7s %8s\n' hook "writes/s" "p50 µs" "p99 µs" "CPU µs/write" delivered failed dropped
for name in $servers; do
  col() { cut -d' ' -f"$1" "$tmp/$name.runs" | median; }
  sum() { cut -d' ' -f"$1" "$tmp/$name.runs" | awk '{ s += $1 } END { print s }'; }
  printf '%-7s %9.0f %8.0f %8.0f %12.1f %10d %7d %8d\n' "$name" "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$(sum 7)" "$(sum 8)" "$(sum 9)"
done

# ratio AWK-EXPRESSION: the median over the runs of the expression, computed
# on each run's line of none ($1...) pasted before that of the other ($10...).
ratio() {
  paste -d' ' "$tmp/none.runs" "$tmp/$1.runs" | awk "{ print $2 }" | median
}
echo
printf 'prompt receiver: writes/s %.2f of those without a hook (goal: at least 0.5), with %.0f%% of the events delivered; CPU per delivery %.1f µs\n' \
  "$(ratio prompt '$10 / $1')" "$(ratio prompt '100 * ($16 + $17) / ($16 + $17 + $18)')" "$(ratio prompt '($15 - $4 * $14) / ($16 + $17)')"
printf 'slow receiver:   p50 latency %.2f, p99 latency %.2f of those without a hook (goal: 1); writes/s %.2f\n' \
  "$(ratio slow '$11 / $2')" "$(ratio slow '$12 / $3')" "$(ratio slow '$10 / $1')"

# Shared by the benchmark scripts, which source it after cd to the
# repository's root: need installs missing tools, tmp is a directory and pids
# a list of processes that the script's exit removes and stops, and wait_for
# polls a server until it answers; cpu_ticks, median and wrk_run measure.

# need TOOL...: installs the tools that are missing from Debian's packages.
need() {
  local missing=()
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} from Debian's packages"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# wait_for URL: polls until the server answers, for at most ten seconds.
wait_for() {
  for _ in $(seq 100); do
    curl -fs -o /dev/null -H 'Authorization: Bearer bench-token' "$1" && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2
  exit 1
}

# cpu_ticks PID: the CPU time the process has used, user and system, in
# clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# wrk_run PID WRK-ARGUMENT...: one wrk run, on core 1, of the server whose
# process is PID; prints "requests/s p99-microseconds
# CPU-microseconds-per-request", and fails if a request was not answered
# 2xx or 3xx. The CPU time per request is what the server process used,
# divided by the requests answered: unlike requests/s, it hardly moves when
# other processes take turns on the server's core.
wrk_run() {
  local pid=$1 before
  shift
  before=$(cpu_ticks "$pid")
  taskset -c 1 wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$@" >"$tmp/wrk.out"
  awk -v ticks=$(( $(cpu_ticks "$pid") - before )) -v hz="$(getconf CLK_TCK)" '
    / requests in / { n = $1 }
    /Requests\/sec/ { rps = $2 }
    $1 == "99%" { v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
      p99 = v * (unit == "s" ? 1e6 : unit == "ms" ? 1e3 : 1) }
    / Non-2xx or 3xx responses/ { bad = $NF }
    END { if (bad) { print "wrk saw " bad " failed answers" > "/dev/stderr"; exit 1 }
      printf "%d %d %.1f\n", rps, p99, ticks / hz * 1e6 / n }' "$tmp/wrk.out"
}

# Shared by the benchmark scripts, which source it after cd to the
# repository's root: need installs missing tools, tmp is a directory and pids
# a list of processes that the script's exit removes and stops, and wait_for
# polls a server until it answers.

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

#!/usr/bin/env bash
# Measures what held connections cost the example server, and that they do
# not keep an ordinary client waiting at -max-conns. For each case it starts
# the example, opens the connections with bench/conns, and prints one line:
# how many the server kept, its resident memory before and after they were
# opened (and per connection kept), how long an ordinary GET /healthz on a
# new connection then took to be answered, and how many of the connections
# the server closed in all.
#
#   bash bench/conns.sh                 # N=1024 FLOOD=5000
#   N=5000 bash bench/conns.sh
#
# The cases:
#   - N connections of each kind (sent nothing, part of the headers, one
#     request then idle) in the clear, and N that never start their
#     handshake and N idle ones over TLS, under -max-conns N: what the
#     server holds for N connections; the ordinary GET, the N+1st, closes
#     the oldest of them;
#   - FLOOD connections that send nothing, and FLOOD idle ones, in the
#     clear, and FLOOD that never start their handshake over TLS, under the
#     default -max-conns: the server keeps the default's worth of them,
#     closes the rest (oldest first), and serves the ordinary GET. Its
#     memory then includes what the closed connections used, which Go gives
#     back to the system only over minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-1024}
FLOOD=${FLOOD:-5000}
ADDR=127.0.0.1:18090

. bench/lib.sh
need curl openssl

go build -o "$tmp/example" ./example
go build -o "$tmp/conns" ./bench/conns
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null

# measure COUNT MODE TLS [FLAG...]: starts the example with the flags, holds
# COUNT connections of MODE (over TLS if TLS is "tls"), prints the line of
# bench/conns and stops the example.
measure() {
  local count=$1 mode=$2 secure=$3 scheme=http
  shift 3
  local flags=("$@") client=()
  if [ "$secure" = tls ]; then
    flags+=(-tls-cert "$tmp/cert.pem" -tls-key "$tmp/key.pem")
    client+=(-tls)
    scheme=https
  fi
  "$tmp/example" -addr "$ADDR" -log-level warn "${flags[@]}" >/dev/null 2>"$tmp/example.log" &
  local pid=$!
  pids+=("$pid")
  for _ in $(seq 100); do
    curl -fsk -o /dev/null "$scheme://$ADDR/healthz" && break
    sleep 0.1
  done
  "$tmp/conns" -addr "$ADDR" -pid "$pid" -n "$count" -mode "$mode" "${client[@]}"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

echo "under -max-conns $N:"
for mode in silent partial idle; do
  measure "$N" "$mode" clear -max-conns "$N"
done
for mode in silent idle; do
  measure "$N" "$mode" tls -max-conns "$N"
done
echo "under the default -max-conns:"
for mode in silent idle; do
  measure "$FLOOD" "$mode" clear
done
measure "$FLOOD" silent tls

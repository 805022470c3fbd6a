#!/usr/bin/env bash
# Benchmark "slow link mode": a network namespace of the benchmark's own, reached from the host over a
# veth pair whose two directions are shaped with tc, so that a store started inside it (local-store.sh with
# STORK_STORE_NETNS/STORK_STORE_BIND) sits behind a link of a chosen rate.
#
#   slow-link.sh up            create namespace $STORK_NETNS (default stork-bench), veth stork-h0 10.231.0.1/30
#                              on the host and stork-n0 10.231.0.2/30 inside, lo up inside (idempotent)
#   slow-link.sh rate <R>      shape both directions at R (1gbit, 50mbit, 30mbit, 800kbit, 10mbps ...):
#                              host egress = uploads to the store, namespace egress = downloads from it
#   slow-link.sh rate none     remove the shaping
#   slow-link.sh down          delete the namespace and the veth pair (idempotent; refuses while processes
#                              still run inside, stop the store first)
#   slow-link.sh status        print namespace, addresses, qdiscs (with counters) and processes inside
#
# Containment: the namespace gets no default route and the host does not forward, so whatever runs inside
# can reach only its own loopback and the host end 10.231.0.1. Nothing else on the host is changed.
# Latency: netem is not in this kernel; use scripts/delay-proxy.py for added delay.
set -euo pipefail

NS="${STORK_NETNS:-stork-bench}"
HOST_IF=stork-h0
NS_IF=stork-n0
HOST_ADDR=10.231.0.1/30
NS_ADDR=10.231.0.2/30

log() { printf '[slow-link] %s\n' "$*" >&2; }
die() { printf '[slow-link] error: %s\n' "$*" >&2; exit 1; }

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

ensure_tools() {
  command -v ip >/dev/null 2>&1 && command -v tc >/dev/null 2>&1 && return 0
  log "installing: iproute2"
  export DEBIAN_FRONTEND=noninteractive
  local apt_log; apt_log="$(mktemp)"
  $SUDO apt-get install -y --no-install-recommends iproute2 >"$apt_log" 2>&1 || {
    $SUDO apt-get update >>"$apt_log" 2>&1
    $SUDO apt-get install -y --no-install-recommends iproute2 >>"$apt_log" 2>&1 \
      || { tail -20 "$apt_log" >&2; die "apt-get install iproute2 failed (log: $apt_log)"; }
  }
  rm -f "$apt_log"
}

ns_exists() { $SUDO ip netns list 2>/dev/null | awk '{print $1}' | grep -x -- "$NS" >/dev/null; }
host_if_exists() { ip link show dev "$HOST_IF" >/dev/null 2>&1; }

cmd_up() {
  ns_exists || $SUDO ip netns add "$NS"
  # A veth whose namespace end is missing (or elsewhere) is recreated rather than patched.
  if host_if_exists && ! $SUDO ip -n "$NS" link show dev "$NS_IF" >/dev/null 2>&1; then
    $SUDO ip link del dev "$HOST_IF"
  fi
  host_if_exists || $SUDO ip link add "$HOST_IF" type veth peer name "$NS_IF" netns "$NS"
  $SUDO ip addr replace "$HOST_ADDR" dev "$HOST_IF"
  $SUDO ip link set dev "$HOST_IF" up
  $SUDO ip -n "$NS" addr replace "$NS_ADDR" dev "$NS_IF"
  $SUDO ip -n "$NS" link set dev "$NS_IF" up
  # Backends of the store bind to 127.0.0.1 inside: the namespace's own loopback must be up.
  $SUDO ip -n "$NS" link set dev lo up
  log "up: namespace $NS, host $HOST_IF ${HOST_ADDR%/*} <-> $NS_IF ${NS_ADDR%/*}"
}

# Bytes per second of a tc rate such as 1gbit, 50mbit, 10mbps (tc's units: k/m/g are powers of 1000,
# *bit are bits, *bps are bytes).
rate_bytes() {
  local r=${1,,} n unit
  [[ $r =~ ^([0-9]+(\.[0-9]+)?)([kmgt]?)(bit|bps)$ ]] || die "rate '$1' not understood (e.g. 1gbit, 50mbit, 800kbit, 10mbps)"
  n=${BASH_REMATCH[1]}; unit=${BASH_REMATCH[3]}
  awk -v n="$n" -v p="$unit" -v b="${BASH_REMATCH[4]}" 'BEGIN {
    m = 1; if (p == "k") m = 1e3; if (p == "m") m = 1e6; if (p == "g") m = 1e9; if (p == "t") m = 1e12
    v = n * m; if (b == "bit") v = v / 8; printf "%d\n", v }'
}

cmd_rate() {
  local r=${1:-}
  [ -n "$r" ] || die "usage: slow-link.sh rate <R|none>"
  ns_exists && host_if_exists || die "namespace $NS or $HOST_IF missing: run 'slow-link.sh up' first"
  if [ "$r" = none ]; then
    $SUDO tc qdisc del dev "$HOST_IF" root 2>/dev/null || true
    $SUDO tc -n "$NS" qdisc del dev "$NS_IF" root 2>/dev/null || true
    log "rate: unshaped"
    return 0
  fi
  local bps burst limit
  bps=$(rate_bytes "$r")
  [ "$bps" -gt 0 ] || die "rate '$r' is zero"
  # burst = what the rate delivers in 5 ms, at least 128 KiB. tbf may send only `burst` bytes per wake-up
  # of its hrtimer watchdog; at 1gbit a burst of a few packets asks for a wake-up every ~12-50 us, and timer
  # and softirq latency (tens of us on a VM) then make it under-deliver. 5 ms worth (625 KB at 1gbit) hides
  # that latency. The 128 KiB floor keeps burst above the largest skb veth hands over with TSO/GSO (64 KiB),
  # so tbf need not segment it; at 30-50mbit it allows at most 20-35 ms of line-rate burst, which is noise
  # over a transfer of megabytes. Measured here (2 cores, one TCP stream, 500 MB at 1gbit, ideal goodput
  # 119.5 MB/s after TCP/IP headers): burst 15000 -> ~100 MB/s, 64 KiB -> ~111, 128 KiB -> ~117,
  # 625 KB -> 119.5 MB/s both ways; 50mbit -> 6.0 MB/s, 30mbit -> 3.6 MB/s.
  burst=$(( bps / 200 )); [ "$burst" -ge 131072 ] || burst=131072
  # limit = burst + 50 ms of queue at the rate. TCP Small Queues lets one local socket put up to ~1 MiB
  # into the qdisc; a queue much shorter than that drops packets, TCP backs off and the link under-delivers.
  # 50 ms bounds the added queueing delay (bufferbloat) while still absorbing a few flows' bursts; drops of
  # locally generated packets are reported to TCP at once, so the rare overflow costs little.
  limit=$(( burst + bps / 20 ))
  $SUDO tc qdisc replace dev "$HOST_IF" root tbf rate "$r" burst "$burst" limit "$limit"
  $SUDO tc -n "$NS" qdisc replace dev "$NS_IF" root tbf rate "$r" burst "$burst" limit "$limit"
  log "rate: $r both directions (tbf burst $burst B, limit $limit B)"
}

cmd_down() {
  if ns_exists; then
    # Deleting the name of a namespace that still has processes keeps the namespace (and the veth) alive,
    # invisible: refuse instead, so that everything this script created stays removable.
    local pids; pids=$($SUDO ip netns pids "$NS" 2>/dev/null | paste -sd, -)
    if [ -n "$pids" ]; then
      ps -o pid,args -p "$pids" >&2 || true
      die "processes still run in namespace $NS; stop them first (e.g. local-store.sh stop with the store's STORK_STORE_HOME)"
    fi
    $SUDO ip netns del "$NS"
  fi
  # Deleting the namespace deletes its veth end, and with it the host end; this catches a leftover.
  if host_if_exists; then $SUDO ip link del dev "$HOST_IF"; fi
  log "down: namespace $NS and $HOST_IF removed"
}

cmd_status() {
  if ns_exists; then echo "namespace: $NS"; else echo "namespace: $NS (absent)"; fi
  if host_if_exists; then
    echo "host:"
    ip -br addr show dev "$HOST_IF"
    $SUDO tc -s qdisc show dev "$HOST_IF"
  else
    echo "host: $HOST_IF absent"
  fi
  if ns_exists; then
    echo "inside $NS:"
    $SUDO ip -n "$NS" -br addr
    $SUDO tc -n "$NS" -s qdisc show dev "$NS_IF" 2>/dev/null || true
    local pids; pids=$($SUDO ip netns pids "$NS" 2>/dev/null | paste -sd, -)
    if [ -n "$pids" ]; then echo "processes inside:"; ps -o pid,args -p "$pids"; else echo "processes inside: none"; fi
  fi
}

ensure_tools
case "${1:-}" in
  up) cmd_up ;;
  rate) cmd_rate "${2:-}" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

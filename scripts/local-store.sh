#!/usr/bin/env bash
# A real OpenStack Swift (Debian packages) on loopback, speaking the Swift API and,
# through the s3api middleware, the S3 API: one store, the same objects through both.
#
#   local-store.sh install        install the Debian packages (idempotent)
#   local-store.sh start          configure and start on free loopback ports (or STORK_STORE_PORT=...),
#                                 wait until healthy, write $STATE/store.env
#   local-store.sh start --tls    also an https endpoint for both APIs (or STORK_STORE_TLS=1), see tls_*
#   local-store.sh start --vhost  also host names for virtual-hosted S3 requests (or STORK_STORE_VHOST=1)
#   local-store.sh stop           stop only the processes this script started (by PID)
#   local-store.sh wipe           stop, then delete all data and configuration
#   local-store.sh status         print whether it runs and where
#   local-store.sh env            print the store.env of a running store
#   local-store.sh logs           print where the logs are
#   local-store.sh bucket NAME    create bucket NAME (a Swift container: the same bucket over S3)
#   local-store.sh keystone-start add Keystone v3 and a Keystone-enabled Swift proxy to the running store
#                                 (installs their packages; exit 75 if that is impossible); or set
#                                 STORK_STORE_KEYSTONE=1 for `start`. `stop` stops them too.
#   local-store.sh keystone-stop  stop only Keystone and its proxy
#
# State lives in $STORK_STORE_HOME (default: <repo>/.stork/local-store). See docs/local-store.md.
#
# Inside a network namespace (the benchmarks' slow link mode, see scripts/slow-link.sh): with
# STORK_STORE_NETNS=<ns> and STORK_STORE_BIND=<ip of that namespace> every daemon runs in <ns>, the
# backends and memcached on the namespace's own 127.0.0.1, the proxy on <ip>; store.env then points at <ip>
# (STORK_STORE_HOST). Needs root (ip netns exec). Use a STORK_STORE_HOME of its own for it.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${STORK_STORE_HOME:-$REPO/.stork/local-store}"
CONF="$STATE/etc"
RUN="$STATE/run"
LOGS="$STATE/logs"
DEVICES="$STATE/devices"
ENV_FILE="$STATE/store.env"
PACKAGES=(swift swift-proxy swift-account swift-container swift-object memcached curl)
SERVERS=(memcached account container object proxy)
NETNS="${STORK_STORE_NETNS:-}"
# The address clients use, and the proxy's bind_ip. Backends always stay on 127.0.0.1.
HOST="${STORK_STORE_BIND:-127.0.0.1}"
# Prefix that runs a command in the store's namespace; empty: on the host.
NS_EXEC=()

# shellcheck source=local-store-keystone.sh
. "$REPO/scripts/local-store-keystone.sh"
# shellcheck source=local-store-tls.sh
. "$REPO/scripts/local-store-tls.sh"

log() { printf '[local-store] %s\n' "$*" >&2; }
die() { printf '[local-store] error: %s\n' "$*" >&2; exit 1; }

# The packages given, else the store's own.
cmd_install() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=("${PACKAGES[@]}")
  local missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "packages present: ${wanted[*]}"
    return 0
  fi
  log "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" >"$STATE.apt.log" 2>&1 || {
    $sudo apt-get update >>"$STATE.apt.log" 2>&1
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>"$STATE.apt.log" 2>&1 \
      || { tail -20 "$STATE.apt.log" >&2; die "apt-get install failed (log: $STATE.apt.log)"; }
  }
  rm -f "$STATE.apt.log"
}

# In a namespace the port is picked there: its ports are what the daemons will bind, and the host's
# free ports say nothing about them (nor the other way round).
free_port() {
  "${NS_EXEC[@]}" python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

pid_alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

# A bucket for users of the running store (the tests make their own through the clients).
make_bucket() {
  local name="$1" headers token url
  [[ "$name" =~ ^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$ ]] \
    || die "bucket: give a bucket name of 3-63 lower-case letters, digits, dots or dashes, not '$name'"
  healthy || die "not running (start it first: bash scripts/local-store.sh start)"
  # shellcheck disable=SC1090
  . "$ENV_FILE"
  headers=$(curl -fsS -m 10 -D - -o /dev/null -H "X-Auth-User: $STORK_SWIFT_USER" \
      -H "X-Auth-Key: $STORK_SWIFT_KEY" "$STORK_SWIFT_AUTH_URL") || die "bucket: authentication failed"
  token=$(printf '%s' "$headers" | tr -d '\r' | sed -n 's/^[Xx]-[Aa]uth-[Tt]oken: //p')
  url=$(printf '%s' "$headers" | tr -d '\r' | sed -n 's/^[Xx]-[Ss]torage-[Uu]rl: //p')
  curl -fsS -m 10 -o /dev/null -X PUT -H "X-Auth-Token: $token" "$url/$name" || die "bucket: could not create '$name'"
  echo "bucket $name ready (S3: $STORK_S3_ENDPOINT, Swift: $url)"
}

healthy() {
  [ -f "$ENV_FILE" ] || return 1
  # shellcheck disable=SC1090
  local port host
  port="$(. "$ENV_FILE"; echo "$STORK_STORE_PORT")"
  # store.env files written before STORK_STORE_HOST existed are loopback ones.
  host="$(. "$ENV_FILE"; echo "${STORK_STORE_HOST:-127.0.0.1}")"
  curl -fsS -m 2 "http://$host:$port/healthcheck" >/dev/null 2>&1
}

write_configs() {
  local proxy_port=$1 account_port=$2 container_port=$3 object_port=$4 memcached_port=$5
  local user; user="$(id -un)"
  mkdir -p "$CONF" "$RUN" "$LOGS" "$DEVICES/d1"

  local common="[DEFAULT]
bind_ip = 127.0.0.1
user = $user
swift_dir = $CONF
devices = $DEVICES
mount_check = false
workers = 1
log_level = INFO
"
  printf '%s\nbind_port = %s\n\n[pipeline:main]\npipeline = account-server\n\n[app:account-server]\nuse = egg:swift#account\n' \
    "$common" "$account_port" >"$CONF/account-server.conf"
  printf '%s\nbind_port = %s\n\n[pipeline:main]\npipeline = container-server\n\n[app:container-server]\nuse = egg:swift#container\n' \
    "$common" "$container_port" >"$CONF/container-server.conf"
  printf '%s\nbind_port = %s\n\n[pipeline:main]\npipeline = object-server\n\n[app:object-server]\nuse = egg:swift#object\n' \
    "$common" "$object_port" >"$CONF/object-server.conf"

  # The access-log template is the project's own, so the log reader (AccessLog.java) parses
  # one fixed shape. Copy headers are logged so server-side copies can be told from PUTs.
  cat >"$CONF/proxy-server.conf" <<EOF
[DEFAULT]
bind_ip = $HOST
bind_port = $proxy_port
user = $user
swift_dir = $CONF
workers = ${STORK_STORE_PROXY_WORKERS:-1}
log_level = INFO

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl ratelimit s3api tempauth copy container-quotas account-quotas slo dlo versioned_writes symlink proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:proxy-logging]
use = egg:swift#proxy_logging
access_log_name = proxy-access
access_log_headers = true
access_log_headers_only = X-Amz-Copy-Source, X-Copy-From, Destination
log_msg_template = STORK-ACCESS {method} {path} {status_int} {bytes_recvd} {bytes_sent} {source} {start_time} {end_time} {transaction_id} {user_agent} {headers}

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$memcached_port

[filter:listing_formats]
use = egg:swift#listing_formats

[filter:bulk]
use = egg:swift#bulk

[filter:tempurl]
use = egg:swift#tempurl

[filter:ratelimit]
use = egg:swift#ratelimit

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
max_upload_part_num = 10000

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin
user_test_reader = reading
reseller_prefix = AUTH
token_life = 86400

[filter:copy]
use = egg:swift#copy

[filter:container-quotas]
use = egg:swift#container_quotas

[filter:account-quotas]
use = egg:swift#account_quotas

[filter:slo]
use = egg:swift#slo
max_manifest_segments = 10000

[filter:dlo]
use = egg:swift#dlo

[filter:versioned_writes]
use = egg:swift#versioned_writes

[filter:symlink]
use = egg:swift#symlink
EOF

  (
    cd "$CONF"
    rm -f ./*.builder ./*.ring.gz
    for ring in account:"$account_port" container:"$container_port" object:"$object_port"; do
      local name=${ring%%:*} port=${ring##*:}
      swift-ring-builder "$name.builder" create 8 1 1 >/dev/null
      swift-ring-builder "$name.builder" add "r1z1-127.0.0.1:$port/d1" 100 >/dev/null
      swift-ring-builder "$name.builder" rebalance >/dev/null 2>&1 || true
    done
  )
  [ -f /etc/swift/swift.conf ] || die "/etc/swift/swift.conf is missing (reinstall the swift package)"
}

start_daemon() {
  local name=$1; shift
  # `ip netns exec` (outside batch mode) enters the namespace and execs the daemon in place, without a
  # fork: $! stays the daemon's PID and process-group leader, so stop works the same in a namespace.
  ( close_inherited_fds; exec setsid "${NS_EXEC[@]}" "$@" >"$LOGS/$name.log" 2>&1 < /dev/null ) &
  echo $! >"$RUN/$name.pid"
}

# A daemon must not keep the caller's descriptors: under `flock /tmp/stork-mvn.lock bash scripts/test.sh`
# it would hold the build lock for as long as it runs (flock's descriptor is inherited), blocking every
# other build on the machine.
close_inherited_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
}

# STORK_STORE_NETNS/STORK_STORE_BIND: check the namespace before anything starts in it.
setup_netns() {
  [ -n "$NETNS" ] || { [ -z "${STORK_STORE_BIND:-}" ] || die "STORK_STORE_BIND needs STORK_STORE_NETNS"; return 0; }
  [ -n "${STORK_STORE_BIND:-}" ] || die "STORK_STORE_NETNS needs STORK_STORE_BIND (an address in $NETNS)"
  # Root, not sudo: under sudo the recorded PID would be sudo's and stop could not signal the daemons.
  [ "$(id -u)" -eq 0 ] || die "STORK_STORE_NETNS needs root (ip netns exec)"
  ip netns list | awk '{print $1}' | grep -x -- "$NETNS" >/dev/null \
    || die "network namespace $NETNS does not exist (scripts/slow-link.sh up creates one)"
  ip -n "$NETNS" -o -4 addr show | grep " inet $HOST/" >/dev/null || die "$HOST is not an address in namespace $NETNS"
  ip -n "$NETNS" -o -4 addr show dev lo | grep ' inet 127.0.0.1/' >/dev/null \
    || die "loopback is down in namespace $NETNS (the backends bind 127.0.0.1 there)"
  NS_EXEC=(ip netns exec "$NETNS")
}

# Guards the PID claim of start_daemon: each recorded PID must be the daemon itself, inside the namespace,
# not an `ip` that forked it (iproute2 does fork in batch mode).
check_netns_pids() {
  [ -n "$NETNS" ] || return 0
  local ns_ino; ns_ino=$(stat -L -c %i "/run/netns/$NETNS")
  for s in "${SERVERS[@]}"; do
    local pid; pid=$(cat "$RUN/$s.pid")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != ip ] && [ "$(stat -L -c %i "/proc/$pid/ns/net" 2>/dev/null)" = "$ns_ino" ] \
      || { cmd_stop >/dev/null 2>&1 || true; die "PID $pid recorded for $s is not the daemon in namespace $NETNS"; }
  done
}

cmd_start() {
  mkdir -p "$STATE"
  if healthy && pid_alive proxy && tls_satisfied && vhost_satisfied; then
    log "already running ($(. "$ENV_FILE"; echo "$STORK_SWIFT_AUTH_URL"))"
    [ "${STORK_STORE_KEYSTONE:-0}" = 1 ] && keystone_start
    return 0
  fi
  cmd_stop >/dev/null 2>&1 || true
  if tls_wanted; then PACKAGES+=(stunnel4 openssl); fi
  cmd_install
  setup_netns
  local proxy_port=${STORK_STORE_PORT:-$(free_port)}
  local account_port object_port container_port memcached_port
  account_port=$(free_port); container_port=$(free_port); object_port=$(free_port); memcached_port=$(free_port)
  write_configs "$proxy_port" "$account_port" "$container_port" "$object_port" "$memcached_port"
  vhost_configure
  if tls_wanted; then tls_configure "$(free_port)"; fi

  start_daemon memcached memcached -l 127.0.0.1 -p "$memcached_port" -U 0 -u "$(id -un)" -m 64
  start_daemon account swift-account-server "$CONF/account-server.conf" -v
  start_daemon container swift-container-server "$CONF/container-server.conf" -v
  start_daemon object swift-object-server "$CONF/object-server.conf" -v
  start_daemon proxy swift-proxy-server "$CONF/proxy-server.conf" -v

  local deadline=$((SECONDS + 90))
  until curl -fsS -m 2 "http://$HOST:$proxy_port/healthcheck" >/dev/null 2>&1; do
    for s in "${SERVERS[@]}"; do
      pid_alive "$s" || { tail -30 "$LOGS/$s.log" >&2; die "$s exited during start-up (log: $LOGS/$s.log)"; }
    done
    [ $SECONDS -lt $deadline ] || { tail -30 "$LOGS/proxy.log" >&2; die "not healthy after 90 s (logs: $LOGS)"; }
    sleep 0.5
  done
  # tempauth needs memcached and the account servers: wait until a token can be had.
  until curl -fsS -m 5 -o /dev/null -H 'X-Auth-User: test:tester' -H 'X-Auth-Key: testing' \
      "http://$HOST:$proxy_port/auth/v1.0"; do
    [ $SECONDS -lt $deadline ] || die "authentication does not work after 90 s (logs: $LOGS)"
    sleep 0.5
  done
  check_netns_pids
  if tls_wanted; then tls_start "$proxy_port"; fi

  cat >"$ENV_FILE" <<EOF
# Written by scripts/local-store.sh start; read by tests, the demo and the benchmarks.
STORK_STORE_PORT=$proxy_port
STORK_STORE_HOST=$HOST
STORK_S3_ENDPOINT=http://$HOST:$proxy_port
STORK_S3_REGION=us-east-1
STORK_S3_ACCESS_KEY=test:tester
STORK_S3_SECRET_KEY=testing
STORK_SWIFT_AUTH_URL=http://$HOST:$proxy_port/auth/v1.0
STORK_SWIFT_USER=test:tester
STORK_SWIFT_KEY=testing
STORK_SWIFT_READER_USER=test:reader
STORK_SWIFT_READER_KEY=reading
STORK_STORE_ACCESS_LOG=$LOGS/proxy.log
STORK_STORE_LOGS=$LOGS
EOF
  vhost_env "$proxy_port" >>"$ENV_FILE"
  if tls_wanted; then tls_env >>"$ENV_FILE"; fi
  log "running: S3 endpoint http://$HOST:$proxy_port, Swift auth http://$HOST:$proxy_port/auth/v1.0"
  log "environment: $ENV_FILE"
  [ "${STORK_STORE_KEYSTONE:-0}" = 1 ] && keystone_start
  return 0
}

cmd_stop() {
  keystone_stop >/dev/null 2>&1 || true
  tls_stop
  local stopped=0
  for s in proxy object container account memcached; do
    if [ -f "$RUN/$s.pid" ]; then
      local pid; pid=$(cat "$RUN/$s.pid")
      if kill -0 "$pid" 2>/dev/null; then
        # setsid made each daemon a process-group leader: stop the group (its forked workers too).
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        stopped=1
      fi
    fi
  done
  if [ $stopped -eq 1 ]; then
    for _ in $(seq 1 50); do
      local any=0
      for s in "${SERVERS[@]}"; do pid_alive "$s" && any=1; done
      [ $any -eq 0 ] && break
      sleep 0.2
    done
    for s in "${SERVERS[@]}"; do
      pid_alive "$s" && kill -KILL -- "-$(cat "$RUN/$s.pid")" 2>/dev/null || true
    done
  fi
  rm -f "$RUN"/*.pid "$ENV_FILE"
  log "stopped"
}

cmd_wipe() {
  cmd_stop
  rm -rf "$STATE"
  log "wiped $STATE"
}

cmd_status() {
  if healthy && pid_alive proxy; then
    echo "running"; cat "$ENV_FILE"
  else
    echo "stopped"; return 3
  fi
}

case "${1:-}" in
  install) mkdir -p "$(dirname "$STATE")"; cmd_install ;;
  start) shift; parse_start_flags "$@"; cmd_start ;;
  stop) cmd_stop ;;
  wipe) cmd_wipe ;;
  status) cmd_status ;;
  env) healthy || die "not running"; cat "$ENV_FILE" ;;
  logs) echo "$LOGS" ;;
  bucket) make_bucket "${2:-}" ;;
  keystone-start) keystone_start ;;
  keystone-stop) keystone_stop ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

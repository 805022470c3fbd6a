#!/usr/bin/env bash
# A second real store on loopback, for what the local Swift store's S3 API cannot do: conditional writes
# (If-None-Match: * on PUT, atomic under concurrency). Versity's S3 gateway (versitygw, Apache 2.0) over a
# POSIX directory, built from its Go module.
#
#   conditional-s3-store.sh install   build versitygw $VERSION with the Go toolchain (idempotent)
#   conditional-s3-store.sh start     start on a free loopback port (or STORK_COND_S3_PORT), wait until it
#                                     answers, write $STATE/store.env
#   conditional-s3-store.sh stop      stop the gateway this script started (by PID)
#   conditional-s3-store.sh wipe      stop, then delete its data
#   conditional-s3-store.sh status    print whether it runs and where
#   conditional-s3-store.sh env       print the store.env of a running gateway
#
# State lives in $STORK_COND_S3_HOME (default: <repo>/.stork/conditional-s3). See docs/local-store.md.
# The access log ($STATE/access.log) has one line per S3 call (operation such as s3_PutObject, status).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${STORK_COND_S3_HOME:-$REPO/.stork/conditional-s3}"
VERSION="v1.8.0"
MODULE="github.com/versity/versitygw/cmd/versitygw"
GOBIN_DIR="$STATE/bin"
BIN="$GOBIN_DIR/versitygw"
ENV_FILE="$STATE/store.env"
PID_FILE="$STATE/versitygw.pid"
ACCESS_KEY="stork"
SECRET_KEY="stork-conditional-secret"

log() { printf '[conditional-s3] %s\n' "$*" >&2; }
die() { printf '[conditional-s3] error: %s\n' "$*" >&2; exit 1; }

go_tool() {
  if command -v go >/dev/null 2>&1; then command -v go; return; fi
  [ -x /usr/local/go/bin/go ] && { echo /usr/local/go/bin/go; return; }
  log "installing the Go toolchain (Debian's golang-go)"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go >/dev/null
  command -v go || die "no Go toolchain"
}

cmd_install() {
  if [ -x "$BIN" ] && "$(go_tool)" version -m "$BIN" 2>/dev/null | grep -q "$VERSION"; then
    return
  fi
  local go; go="$(go_tool)"
  mkdir -p "$GOBIN_DIR"
  log "building versitygw $VERSION from its Go module (about 2 minutes on 2 cores)"
  GOBIN="$GOBIN_DIR" GOFLAGS=-mod=mod "$go" install "$MODULE@$VERSION" || die "go install $MODULE@$VERSION failed"
}

healthy() {
  [ -f "$ENV_FILE" ] && [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null || return 1
  # shellcheck disable=SC1090
  source "$ENV_FILE"
  # Unauthenticated requests get an S3 error document: the gateway is up.
  curl -s -o /dev/null -w '%{http_code}' "$STORK_COND_S3_ENDPOINT/" | grep -qE '^(2|3|4)[0-9][0-9]$'
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

cmd_start() {
  if healthy; then log "already running"; return; fi
  cmd_install
  mkdir -p "$STATE/data"
  local port="${STORK_COND_S3_PORT:-$(free_port)}"
  : > "$STATE/access.log"
  setsid "$BIN" --access "$ACCESS_KEY" --secret "$SECRET_KEY" --region us-east-1 --port "127.0.0.1:$port" \
    --access-log "$STATE/access.log" --quiet posix "$STATE/data" > "$STATE/gateway.log" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
  cat > "$ENV_FILE" <<ENV
STORK_COND_S3_ENDPOINT=http://127.0.0.1:$port
STORK_COND_S3_REGION=us-east-1
STORK_COND_S3_ACCESS_KEY=$ACCESS_KEY
STORK_COND_S3_SECRET_KEY=$SECRET_KEY
STORK_COND_S3_ACCESS_LOG=$STATE/access.log
ENV
  for _ in $(seq 1 50); do
    if healthy; then log "running at http://127.0.0.1:$port (versitygw $VERSION)"; return; fi
    sleep 0.2
  done
  tail -n 20 "$STATE/gateway.log" >&2 || true
  die "versitygw did not start"
}

cmd_stop() {
  if [ -f "$PID_FILE" ]; then
    kill "$(cat "$PID_FILE")" 2>/dev/null || true
    rm -f "$PID_FILE"
    log "stopped"
  fi
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  wipe) cmd_stop; rm -rf "$STATE/data" "$STATE/access.log" "$ENV_FILE" ;;
  status) if healthy; then echo "running: $STORK_COND_S3_ENDPOINT"; else echo "stopped"; exit 1; fi ;;
  env) healthy || die "not running"; cat "$ENV_FILE" ;;
  *) echo "usage: $0 install|start|stop|wipe|status|env" >&2; exit 2 ;;
esac

# OpenStack Keystone v3 beside the local store; sourced by scripts/local-store.sh (its variables and
# functions: STATE, CONF, RUN, LOGS, HOST, ENV_FILE, log, die, free_port, start_daemon, pid_alive, cmd_install).
#
# Keystone (Debian's python3-keystone: keystone-manage and the keystone-wsgi-public test server, without the
# `keystone` package's uwsgi service that would start on its own) with an sqlite database and fernet tokens,
# bootstrapped by scripts/keystone-setup.py; and a second Swift proxy on its own port, over the same
# backends, whose pipeline has keystonemiddleware's authtoken + Swift's keystoneauth instead of tempauth and
# s3api. The default proxy stays as it is, so tempauth tests and their call counts do not change.
# Everything is appended to store.env as STORK_KEYSTONE_* lines; nothing secret is logged.

KEYSTONE_PACKAGES=(python3-keystone python3-keystonemiddleware)
KEYSTONE_SERVERS=(keystone proxy-keystone)
KEYSTONE_STATE="$STATE/keystone"
KEYSTONE_REGION=RegionOne
KEYSTONE_TOKEN_CACHE=5
# Exit status of `keystone-start` when the packages cannot be installed: tests skip on it, and only on it.
KEYSTONE_UNAVAILABLE=75

keystone_manage() {
  keystone-manage --config-file "$CONF/keystone.conf" "$@" >>"$LOGS/keystone-manage.log" 2>&1 \
    || die "keystone-manage $1 failed (log: $LOGS/keystone-manage.log)"
}

keystone_running() {
  pid_alive keystone && pid_alive proxy-keystone && [ -f "$ENV_FILE" ] && grep -q '^STORK_KEYSTONE_URL=' "$ENV_FILE"
}

keystone_write_configs() {
  local ks_port=$1 proxy_port=$2 admin_password=$3
  mkdir -p -m 700 "$KEYSTONE_STATE" "$KEYSTONE_STATE/fernet-keys" "$KEYSTONE_STATE/credential-keys"
  chmod 700 "$KEYSTONE_STATE"
  # [token] expiration: STORK_KEYSTONE_TOKEN_EXPIRATION seconds (Keystone's default, 3600, otherwise).
  cat >"$CONF/keystone.conf" <<EOF
[DEFAULT]
debug = false

[database]
connection = sqlite:///$KEYSTONE_STATE/keystone.db

[token]
provider = fernet
expiration = ${STORK_KEYSTONE_TOKEN_EXPIRATION:-3600}

[fernet_tokens]
key_repository = $KEYSTONE_STATE/fernet-keys

[credential]
key_repository = $KEYSTONE_STATE/credential-keys

[cache]
enabled = false
EOF
  # The tempauth proxy's configuration with another port and pipeline, plus the two filters.
  # authtoken caches a validated token for KEYSTONE_TOKEN_CACHE seconds (300 by default in production): a
  # revoked token is refused once that has passed, which the re-authentication test waits for. Without the
  # cache every Swift call costs the proxy a validation at Keystone (about a second on a loaded machine).
  sed -e "s/^bind_port = .*/bind_port = $proxy_port/" \
      -e "s/^pipeline = \(.*\) s3api tempauth /pipeline = \1 authtoken keystoneauth /" \
      "$CONF/proxy-server.conf" >"$CONF/proxy-keystone.conf"
  grep -q ' authtoken keystoneauth ' "$CONF/proxy-keystone.conf" || die "unexpected pipeline in proxy-server.conf"
  cat >>"$CONF/proxy-keystone.conf" <<EOF

[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
www_authenticate_uri = http://$HOST:$ks_port/v3
auth_url = http://$HOST:$ks_port/v3
auth_type = password
username = admin
password = $admin_password
user_domain_id = default
project_name = admin
project_domain_id = default
delay_auth_decision = true
token_cache_time = $KEYSTONE_TOKEN_CACHE
include_service_catalog = false

[filter:keystoneauth]
use = egg:swift#keystoneauth
operator_roles = admin, member
EOF
  chmod 600 "$CONF/proxy-keystone.conf" "$CONF/keystone.conf"
}

keystone_start() {
  healthy && pid_alive proxy || die "the store is not running: scripts/local-store.sh start first"
  if keystone_running; then
    log "Keystone already running ($(. "$ENV_FILE"; echo "$STORK_KEYSTONE_URL"))"
    return 0
  fi
  keystone_stop >/dev/null 2>&1 || true
  # In a subshell: die() there ends only the install, so its failure can be told from others.
  ( cmd_install "${KEYSTONE_PACKAGES[@]}" ) || {
    log "Keystone cannot be installed (${KEYSTONE_PACKAGES[*]}): its tests will be skipped"
    exit $KEYSTONE_UNAVAILABLE
  }
  local ks_port proxy_port admin_password user_password
  ks_port=$(free_port); proxy_port=$(free_port)
  admin_password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
  user_password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
  rm -rf "$KEYSTONE_STATE"
  : >"$LOGS/keystone-manage.log"
  keystone_write_configs "$ks_port" "$proxy_port" "$admin_password"

  keystone_manage db_sync
  # Write-ahead logging: Keystone keeps a read transaction open on one connection while it writes on
  # another (POST /v3/services did), which sqlite's default journal refuses with "database is locked".
  python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode=WAL")' \
    "$KEYSTONE_STATE/keystone.db"
  keystone_manage fernet_setup --keystone-user "$(id -un)" --keystone-group "$(id -gn)"
  keystone_manage credential_setup --keystone-user "$(id -un)" --keystone-group "$(id -gn)"
  # The password through the environment (OS_BOOTSTRAP_PASSWORD), not the command line.
  OS_BOOTSTRAP_PASSWORD="$admin_password" keystone_manage bootstrap \
    --bootstrap-admin-url "http://$HOST:$ks_port/v3/" \
    --bootstrap-internal-url "http://$HOST:$ks_port/v3/" \
    --bootstrap-public-url "http://$HOST:$ks_port/v3/" \
    --bootstrap-region-id "$KEYSTONE_REGION"

  ( export OS_KEYSTONE_CONFIG_FILES="$CONF/keystone.conf"
    start_daemon keystone keystone-wsgi-public --host "$HOST" --port "$ks_port" )
  local deadline=$((SECONDS + 90))
  until curl -fsS -m 2 -o /dev/null "http://$HOST:$ks_port/v3" 2>/dev/null; do
    pid_alive keystone || { tail -30 "$LOGS/keystone.log" >&2; die "Keystone exited during start-up (log: $LOGS/keystone.log)"; }
    [ $SECONDS -lt $deadline ] || die "Keystone not answering after 90 s (log: $LOGS/keystone.log)"
    sleep 0.5
  done
  start_daemon proxy-keystone swift-proxy-server "$CONF/proxy-keystone.conf" -v
  until curl -fsS -m 2 -o /dev/null "http://$HOST:$proxy_port/healthcheck" 2>/dev/null; do
    pid_alive proxy-keystone || { tail -30 "$LOGS/proxy-keystone.log" >&2; die "the Keystone proxy exited (log: $LOGS/proxy-keystone.log)"; }
    [ $SECONDS -lt $deadline ] || die "the Keystone proxy is not healthy after 90 s (log: $LOGS/proxy-keystone.log)"
    sleep 0.5
  done

  local lines
  lines=$(KS_URL="http://$HOST:$ks_port/v3" KS_REGION="$KEYSTONE_REGION" \
    KS_SWIFT_PUBLIC="http://$HOST:$proxy_port" KS_SWIFT_INTERNAL="http://localhost:$proxy_port" \
    KS_ADMIN_PASSWORD="$admin_password" KS_USER_PASSWORD="$user_password" \
    python3 "$REPO/scripts/keystone-setup.py") || die "Keystone setup failed (logs: $LOGS/keystone.log)"

  sed -i '/^STORK_KEYSTONE_/d' "$ENV_FILE"
  cat >>"$ENV_FILE" <<EOF
STORK_KEYSTONE_URL=http://$HOST:$ks_port/v3
STORK_KEYSTONE_REGION=$KEYSTONE_REGION
STORK_KEYSTONE_DOMAIN=Default
STORK_KEYSTONE_ADMIN_USER=admin
STORK_KEYSTONE_ADMIN_PASSWORD=$admin_password
STORK_KEYSTONE_SWIFT_URL=http://$HOST:$proxy_port
STORK_KEYSTONE_SWIFT_INTERNAL_URL=http://localhost:$proxy_port
STORK_KEYSTONE_ACCESS_LOG=$LOGS/proxy-keystone.log
STORK_KEYSTONE_LOG=$LOGS/keystone.log
STORK_KEYSTONE_PROXY_TOKEN_CACHE_SECONDS=$KEYSTONE_TOKEN_CACHE
$lines
EOF
  chmod 600 "$ENV_FILE"
  log "Keystone running: http://$HOST:$ks_port/v3, its Swift proxy http://$HOST:$proxy_port"
}

keystone_stop() {
  local s
  for s in "${KEYSTONE_SERVERS[@]}"; do
    if pid_alive "$s"; then
      kill -TERM -- "-$(cat "$RUN/$s.pid")" 2>/dev/null || kill -TERM "$(cat "$RUN/$s.pid")" 2>/dev/null || true
    fi
  done
  for _ in $(seq 1 50); do
    pid_alive keystone || pid_alive proxy-keystone || break
    sleep 0.2
  done
  for s in "${KEYSTONE_SERVERS[@]}"; do
    pid_alive "$s" && kill -KILL -- "-$(cat "$RUN/$s.pid")" 2>/dev/null || true
    rm -f "$RUN/$s.pid"
  done
  [ -f "$ENV_FILE" ] && sed -i '/^STORK_KEYSTONE_/d' "$ENV_FILE"
  log "Keystone stopped"
}

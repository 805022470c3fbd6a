#!/usr/bin/env bash
# The TLS endpoint and virtual-hosted addressing of the local store (sourced by local-store.sh, which
# defines STATE, CONF, LOGS, RUN, ENV_FILE, NETNS, start_daemon, pid_alive, log and die).
# ---- TLS (STORK_STORE_TLS=1 or start --tls) ------------------------------------------------------------
# stunnel (Debian's stunnel4) terminates TLS on a port of its own and forwards the plain bytes to the proxy,
# so the proxy's access log still counts every call and the plain endpoint stays as it is. Certificates:
# a CA made here (openssl) signs a server certificate for DNS names only (localhost, the vhost domain),
# never the IP: connecting to https://127.0.0.1:<port> is the host-name mismatch the tests need. A second
# CA that signs nothing is the "wrong CA" trust store. tempauth builds storage URLs from the request's
# scheme, which is http behind stunnel: the user test:tlstester (same account AUTH_test, same objects) is
# given an explicit https storage URL instead.
TLS_DIR="$STATE/tls"
TLS_PASSWORD=changeit
TLS_PORT=""

tls_wanted() { [ "${STORK_STORE_TLS:-0}" = 1 ]; }

tls_satisfied() {
  tls_wanted || return 0
  pid_alive tls && grep -q '^STORK_S3_TLS_ENDPOINT=' "$ENV_FILE" 2>/dev/null
}

parse_start_flags() {
  for flag in "$@"; do
    case "$flag" in
      --tls) STORK_STORE_TLS=1 ;;
      --vhost) STORK_STORE_VHOST=1 ;;
      *) die "unknown start option: $flag" ;;
    esac
  done
}

tls_make_certificates() {
  mkdir -p "$TLS_DIR"
  # Reused while valid: trust stores handed out earlier stay good across restarts.
  if [ -f "$TLS_DIR/truststore.p12" ] && [ -f "$TLS_DIR/other-ca.p12" ] \
      && openssl x509 -checkend 86400 -noout -in "$TLS_DIR/server.pem" >/dev/null 2>&1; then
    return 0
  fi
  rm -f "$TLS_DIR"/*
  (
    set -e
    cd "$TLS_DIR"
    for ca in ca other-ca; do
      openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=Stork test $ca" \
        -keyout "$ca.key" -out "$ca.pem" -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign >/dev/null 2>&1
      keytool -importcert -noprompt -alias "stork-test-$ca" -file "$ca.pem" -keystore "$ca.p12" \
        -storetype PKCS12 -storepass "$TLS_PASSWORD" >/dev/null 2>&1
    done
    mv ca.p12 truststore.p12
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr >/dev/null 2>&1
    printf 'subjectAltName=DNS:localhost,DNS:%s,DNS:*.%s\nextendedKeyUsage=serverAuth\n' \
      "$VHOST_DOMAIN" "$VHOST_DOMAIN" >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
      -extfile server.ext -out server.pem >/dev/null 2>&1
    rm -f other-ca.key ca.srl server.csr server.ext
  ) || die "could not make the test certificates in $TLS_DIR (needs openssl and the JDK's keytool)"
}

tls_configure() {
  TLS_PORT=$1
  [ -z "$NETNS" ] || die "STORK_STORE_TLS does not run in a network namespace (its certificate names localhost)"
  tls_make_certificates
  # After the reader: a user with an explicit https storage URL (see above).
  sed -i "/^user_test_reader = /a user_test_tlstester = testing .admin https://localhost:$TLS_PORT/v1/AUTH_test" \
    "$CONF/proxy-server.conf"
  grep -q '^user_test_tlstester = ' "$CONF/proxy-server.conf" || die "could not add the TLS user to tempauth"
}

tls_start() {
  local proxy_port=$1
  cat >"$CONF/stunnel.conf" <<EOF
foreground = yes
pid =
debug = notice
[stork-https]
accept = 127.0.0.1:$TLS_PORT
connect = 127.0.0.1:$proxy_port
cert = $TLS_DIR/server.pem
key = $TLS_DIR/server.key
EOF
  start_daemon tls stunnel "$CONF/stunnel.conf"
  local deadline=$((SECONDS + 30))
  until curl -fsS -m 2 --cacert "$TLS_DIR/ca.pem" "https://localhost:$TLS_PORT/healthcheck" >/dev/null 2>&1; do
    pid_alive tls || { tail -20 "$LOGS/tls.log" >&2; die "stunnel exited during start-up (log: $LOGS/tls.log)"; }
    [ $SECONDS -lt $deadline ] || die "the TLS endpoint does not answer after 30 s (log: $LOGS/tls.log)"
    sleep 0.2
  done
}

tls_env() {
  cat <<EOF
STORK_STORE_TLS_PORT=$TLS_PORT
STORK_S3_TLS_ENDPOINT=https://localhost:$TLS_PORT
STORK_SWIFT_TLS_AUTH_URL=https://localhost:$TLS_PORT/auth/v1.0
STORK_SWIFT_TLS_USER=test:tlstester
STORK_SWIFT_TLS_KEY=testing
STORK_TLS_TRUSTSTORE=$TLS_DIR/truststore.p12
STORK_TLS_TRUSTSTORE_PASSWORD=$TLS_PASSWORD
STORK_TLS_CA_PEM=$TLS_DIR/ca.pem
STORK_TLS_OTHER_TRUSTSTORE=$TLS_DIR/other-ca.p12
EOF
}

tls_stop() {
  if pid_alive tls; then
    kill -TERM -- "-$(cat "$RUN/tls.pid")" 2>/dev/null || kill -TERM "$(cat "$RUN/tls.pid")" 2>/dev/null || true
    for _ in $(seq 1 25); do pid_alive tls || break; sleep 0.2; done
    if pid_alive tls; then kill -KILL -- "-$(cat "$RUN/tls.pid")" 2>/dev/null || true; fi
  fi
  rm -f "$RUN/tls.pid"
}

# ---- Virtual-hosted S3 addressing (storage domain; STORK_STORE_VHOST=1 or start --vhost) ----------------
# s3api takes the bucket from the Host header when it ends in the storage domain; path-style requests (any
# other host, such as 127.0.0.1) work as before, so the domain is always configured. Clients must resolve
# <bucket>.stork.localhost to the store: glibc does not resolve *.localhost here, so --vhost writes
# /etc/hosts lines (root or sudo) for the domain and fixed test bucket names, as an operator's wildcard DNS
# record would; they are left in place (other stores on the machine may use them). The access log records
# the Host header, so tests see which addressing each request used.
VHOST_DOMAIN=stork.localhost
VHOST_BUCKETS=(stork-vhost-it stork-vhost-fs)

vhost_wanted() { [ "${STORK_STORE_VHOST:-0}" = 1 ] && [ -z "$NETNS" ]; }

vhost_satisfied() {
  vhost_wanted || return 0
  grep -q '^STORK_S3_VHOST_BUCKETS=' "$ENV_FILE" 2>/dev/null
}

vhost_configure() {
  sed -i "/^use = egg:swift#s3api$/a storage_domain = $VHOST_DOMAIN" "$CONF/proxy-server.conf"
  sed -i 's/^access_log_headers_only = \(.*\)$/access_log_headers_only = \1, Host/' "$CONF/proxy-server.conf"
}

# Each name resolves to 127.0.0.1, or the /etc/hosts line that makes it so is added; fails if it cannot.
vhost_resolve() {
  local names=("$VHOST_DOMAIN") missing=()
  for b in "${VHOST_BUCKETS[@]}"; do names+=("$b.$VHOST_DOMAIN"); done
  for n in "${names[@]}"; do
    [ "$(getent ahostsv4 "$n" 2>/dev/null | awk 'NR==1{print $1}')" = 127.0.0.1 ] || missing+=("$n")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  printf '127.0.0.1 %s # stork local-store --vhost\n' "${missing[*]}" | $sudo tee -a /etc/hosts >/dev/null \
    || { log "cannot add ${missing[*]} to /etc/hosts (needs root or sudo): no virtual-hosted test buckets"; return 1; }
}

vhost_env() {
  echo "STORK_S3_STORAGE_DOMAIN=$VHOST_DOMAIN"
  if vhost_wanted && vhost_resolve; then
    echo "STORK_S3_VHOST_ENDPOINT=http://$VHOST_DOMAIN:$1"
    echo "STORK_S3_VHOST_BUCKETS=$(IFS=,; echo "${VHOST_BUCKETS[*]}")"
  fi
}

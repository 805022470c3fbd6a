#!/usr/bin/env bash
# All tests, both lanes (README, "Tests"): the unit tests (Surefire) and the integration tests (Failsafe,
# *StoreTest and *IT) against the real local object store (both APIs), an S3 gateway with conditional
# writes, and Spark clusters and processes. Starts the stores if they are not running, and stops afterwards
# those it started. The unit tests alone, with no store: scripts/unit-tests.sh.
# Extra arguments go to Maven (e.g. one integration test class: -Dit.test=CallCountIT
# -Dfailsafe.failIfNoSpecifiedTests=false -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
bash scripts/prerequisites.sh
# A Spark distribution for the executors of the failure campaign's standalone cluster.
SPARK_HOME="$(bash scripts/spark-home.sh)"
export SPARK_HOME SPARK_SCALA_VERSION=2.13

started=0
if ! bash scripts/local-store.sh status >/dev/null 2>&1; then
  started=1
fi
# With the https endpoint and the virtual-hosted names (TlsIT, VirtualHostedIT, FileSystemTlsIT): a running
# store without them is restarted with them.
bash scripts/local-store.sh start --tls --vhost
# Keystone v3 and its Swift proxy beside the store (the Keystone ITs); exit 75: its packages cannot be
# installed here, and those tests skip saying so.
ks_started=0
bash scripts/local-store.sh env | grep -q '^STORK_KEYSTONE_URL=' || ks_started=1
ks_status=0
bash scripts/local-store.sh keystone-start || ks_status=$?
case $ks_status in
  0) ;;
  75) ks_started=0; echo "[test] Keystone cannot be installed: its integration tests will be skipped" >&2 ;;
  *) exit $ks_status ;;
esac
# The second store: an S3 gateway with conditional writes (built from its Go module on first use).
cond_started=0
if ! bash scripts/conditional-s3-store.sh status >/dev/null 2>&1; then
  bash scripts/conditional-s3-store.sh start
  cond_started=1
fi
finish() {
  status=$?
  if [ $status -ne 0 ]; then
    logs="$(bash scripts/local-store.sh logs)"
    echo "[test] failed; the store's logs are in $logs. Last lines of the proxy log:" >&2
    tail -n 40 "$logs/proxy.log" >&2 || true
  fi
  [ $started -eq 1 ] && bash scripts/local-store.sh stop || true
  [ $started -eq 0 ] && [ $ks_started -eq 1 ] && bash scripts/local-store.sh keystone-stop || true
  [ $cond_started -eq 1 ] && bash scripts/conditional-s3-store.sh stop || true
  exit $status
}
trap finish EXIT
mvn -B --no-transfer-progress install -Dstork.repo.root="$REPO" "$@"

#!/usr/bin/env bash
# The fast lane: unit tests only (Surefire, `mvn test`), with stork:// over the in-memory store. Starts no
# store, no cluster, no Spark distribution; works offline once Maven has the dependencies (it tries offline
# first and goes online only if something is missing). Integration tests (*StoreTest, *IT) run in
# scripts/test.sh, which runs both lanes.
# Extra arguments go to Maven (e.g. -pl stork-hadoop -am, or -Dtest=MemoryFileSystemTest
# -Dsurefire.failIfNoSpecifiedTests=false).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
  bash scripts/prerequisites.sh --build-only
fi
mkdir -p .stork
log=.stork/unit-tests.log
set +e
mvn -o -B --no-transfer-progress test -Dstork.repo.root="$REPO" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ] && grep -q "in offline mode" "$log"; then
  echo "[unit-tests] dependencies missing from the local Maven repository: running online" >&2
  mvn -B --no-transfer-progress test -Dstork.repo.root="$REPO" "$@"
  exit $?
fi
exit "$rc"

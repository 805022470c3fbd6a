#!/usr/bin/env bash
# Installs what Stork's build, tests and demo need on a fresh Debian/Ubuntu machine, if missing:
# a JDK 17+, Maven, curl, and the local object store's packages (scripts/local-store.sh install).
#   --build-only   the build's tools only, no store (the unit tests: scripts/unit-tests.sh)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
java_ok() { command -v java >/dev/null && [ "$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)" -ge 17 ] 2>/dev/null; }
java_ok || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
command -v curl >/dev/null || missing+=(curl)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  echo "[prerequisites] installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
    $sudo apt-get update >/dev/null
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  }
fi
mkdir -p "$REPO/.stork"
[ "${1:-}" = "--build-only" ] || bash "$REPO/scripts/local-store.sh" install

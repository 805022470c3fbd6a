#!/usr/bin/env bash
# The main job: start the local object store (Swift + S3 API) and run the Stork demo against it,
# printing what it did and the REST calls of each step (client counters and the store's access log).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
bash scripts/prerequisites.sh
echo "[demo] building (first run downloads Maven dependencies)..." >&2
mvn -q -B --no-transfer-progress install -DskipTests
bash scripts/local-store.sh start
# A Spark distribution for the executors' JVMs of the short benchmark's local-cluster.
SPARK_HOME="$(bash scripts/spark-home.sh)"
export SPARK_HOME SPARK_SCALA_VERSION=2.13
mvn -q -B --no-transfer-progress -pl stork-demo exec:exec -Dstork.repo.root="$REPO"
echo "[demo] the store keeps running; stop it with: bash scripts/local-store.sh stop" >&2

#!/usr/bin/env bash
# Benchmark (not a test): single-stream PUT and GET of one large object by curl and by Stork's clients,
# both APIs, same store, same run; prints medians and Stork/curl ratios and writes
# docs/benchmarks/store-throughput.md.   Options: --size-mib N (default 512), --runs N (default 5).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
bash scripts/prerequisites.sh
mvn -q -B --no-transfer-progress install -DskipTests
bash scripts/local-store.sh start
# A JVM of its own (not Maven's), as a client application would run.
mvn -q -B --no-transfer-progress -pl stork-benchmarks dependency:build-classpath \
  -Dmdep.outputFile="$REPO/stork-benchmarks/target/classpath.txt"
classpath="$(cat "$REPO/stork-benchmarks/target/classpath.txt")"
java -cp "stork-benchmarks/target/classes:$classpath" -Dstork.repo.root="$REPO" \
  io.stork.bench.StoreThroughputBenchmark "$@" --report "$REPO/docs/benchmarks/store-throughput.md"

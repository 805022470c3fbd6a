#!/usr/bin/env bash
# Benchmark (not a test): Stork's data skipping against Delta Lake's on the local store. Writes the same rows
# as Parquet and CSV through Stork and as a Delta table through S3A, runs selective queries (point lookups, a
# time range, IN, a geo box) and reports per query objects and bytes read, GET calls, listing and wall time,
# for Stork with and without skipping and for Delta. Writes docs/benchmarks/<name>.md and a chart.
#
#   bench-skipping.sh [--rows 2000000] [--objects 20] [--runs 3] [--tail-exact false] [--name data-skipping]
#   bench-skipping.sh --scale 10000,100000 [--warm-runs 3] [--cold-runs 1] [--name data-skipping-scale]   planning over many objects
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
command_line="bash scripts/bench-skipping.sh $*"
bash scripts/prerequisites.sh
if [ "${STORK_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B --no-transfer-progress install -DskipTests
fi
mvn -q -B --no-transfer-progress -pl stork-benchmarks dependency:build-classpath \
  -Dmdep.outputFile="$REPO/stork-benchmarks/target/classpath.txt"
classpath="stork-benchmarks/target/classes:$(cat "$REPO/stork-benchmarks/target/classpath.txt")"
bash scripts/local-store.sh start
main=io.stork.bench.skipping.SkippingBenchmark
if [ "${1:-}" = "--scale" ]; then
  main=io.stork.bench.skipping.SkippingScaleBenchmark
fi
java -Xmx${STORK_BENCH_HEAP:-4g} -Djava.awt.headless=true -cp "$classpath" -Dstork.repo.root="$REPO" \
  "$main" --command "$command_line" "$@"

#!/usr/bin/env bash
# Benchmark (not a test): the IOStack paper's GridPocket experiment on the local store. Writes the same
# smart-meter readings once per layout (none, grid at precisions 0 and 1, k-d trees, a k-d tree built from a
# query history) at 32, 64 and 128 objects, and as Delta tables through S3A clustered by OPTIMIZE ZORDER BY
# and by liquid clustering; runs box queries around drawn meters (and queries the history did not foresee)
# and reports per query objects and bytes read, GETs, planning and wall time, the reductions against no
# layout and against reading everything, and each layout's write cost. Writes docs/benchmarks/<name>.md and
# charts. The rows of every query are asserted equal under every scenario.
#
#   bench-layout.sh [--meters 1500] [--days 7] [--objects 32,64,128] [--queries 10] [--history 100]
#                   [--window 96] [--runs 1] [--seed 42] [--name layouts] [--master local[2]]
#   bench-layout.sh --paper ...      the paper's size (1,000,000 meters × 91 days): for a cluster
#
# Builds only the benchmark and the modules it needs (no install into ~/.m2); STORK_BENCH_SKIP_BUILD=1 skips
# the build. Every Maven call takes /tmp/stork-mvn.lock, so that builds on a shared machine queue.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
command_line="bash scripts/bench-layout.sh $*"
bash scripts/prerequisites.sh
if [ "${STORK_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  flock /tmp/stork-mvn.lock mvn -q -B --no-transfer-progress -pl stork-benchmarks -am package -DskipTests
fi
flock /tmp/stork-mvn.lock mvn -q -B --no-transfer-progress -pl stork-benchmarks dependency:build-classpath \
  -Dmdep.outputFile="$REPO/stork-benchmarks/target/classpath.txt"
# This tree's modules first: the classpath file names the jars in ~/.m2, which another build may replace.
classes=""
for module in stork-store stork-store-s3 stork-store-swift stork-local-stores stork-skipping stork-layout \
              stork-manifest stork-commit stork-hadoop stork-spark stork-benchmarks; do
  [ -d "$module/target/classes" ] && classes="$classes$module/target/classes:"
done
classpath="$classes$(cat "$REPO/stork-benchmarks/target/classpath.txt")"
bash scripts/local-store.sh start
java -Xmx${STORK_BENCH_HEAP:-6g} -Djava.awt.headless=true -cp "$classpath" -Dstork.repo.root="$REPO" \
  io.stork.bench.layout.LayoutBenchmark --command "$command_line" "$@"

#!/usr/bin/env bash
# Benchmark (not a test): the block cache. Repeated full scans of one dataset (Parquet and text) through Stork
# without and with the block cache, and through S3A with and without its prefetching stream, on the local
# store; per scan: wall time, GETs and bytes at the store. Writes docs/benchmarks/<name>.md and a chart.
#
#   bench-cache.sh [--rows 2000000] [--objects 8] [--runs 3] [--warm-scans 3] [--block-size 1m] [--name block-cache]
#                  [--scenarios stork,stork-cache,s3a,s3a-prefetch,local]   (fewer scenarios: room for more runs)
#   bench-cache.sh --large [--size-mib 2048] [--split-mib 128] [--runs 3]   one large object read as one split
#                                                 and as part-aligned splits read in parallel (docs/benchmarks/large-object.md)
#   bench-cache.sh --eviction [--seed 42]        the eviction policies replayed on block-read traces of Spark
#                                                 workloads (no store, seconds; docs/benchmarks/cache-eviction.md)
#   bench-cache.sh --slow-link 30mbit [options]   the store in a network namespace of its own, reached over a veth
#                                                 pair shaped with tc at that rate (scripts/slow-link.sh; needs root)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
command_line="bash scripts/bench-cache.sh $*"
rate=""
main=io.stork.bench.cache.CacheBenchmark
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --slow-link) rate="$2"; shift ;;
    --large) main=io.stork.bench.cache.LargeObjectBenchmark ;;
    --eviction) main=io.stork.bench.cache.EvictionSimulation ;;
    *) args+=("$1") ;;
  esac
  shift
done
bash scripts/prerequisites.sh
if [ "${STORK_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B --no-transfer-progress install -DskipTests
fi
mvn -q -B --no-transfer-progress -pl stork-benchmarks dependency:build-classpath \
  -Dmdep.outputFile="$REPO/stork-benchmarks/target/classpath.txt"
classpath="stork-benchmarks/target/classes:$(cat "$REPO/stork-benchmarks/target/classpath.txt")"
run_benchmark() {
  java -Xmx${STORK_BENCH_HEAP:-4g} -Djava.awt.headless=true -cp "$classpath" -Dstork.repo.root="$REPO" \
    "$main" --command "$command_line" "$@"
}
if [ "$main" = io.stork.bench.cache.EvictionSimulation ]; then
  run_benchmark "${args[@]}" # a replay of traces: no store
  exit $?
fi
if [ -z "$rate" ]; then
  bash scripts/local-store.sh start
  run_benchmark "${args[@]}"
  exit $?
fi
# Slow-link mode: a store of its own inside the namespace (the default store is left alone).
export STORK_STORE_HOME="$REPO/.stork/slow-link-store"
ns_address=10.231.0.2
cleanup() {
  status=$?
  STORK_STORE_NETNS=stork-bench STORK_STORE_BIND=$ns_address bash scripts/local-store.sh stop || true
  bash scripts/slow-link.sh down || true
  exit $status
}
trap cleanup EXIT
bash scripts/slow-link.sh up
STORK_STORE_NETNS=stork-bench STORK_STORE_BIND=$ns_address bash scripts/local-store.sh start
bash scripts/slow-link.sh rate "$rate"
[ "$main" = io.stork.bench.cache.CacheBenchmark ] || args+=(--name "large-object-$rate")
run_benchmark --name "block-cache-$rate" --link "$rate, a veth pair into a network namespace shaped with tc" "${args[@]}"

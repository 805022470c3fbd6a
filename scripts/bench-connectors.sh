#!/usr/bin/env bash
# Benchmark (not a test): Stork against S3A (FileOutputCommitter v1, v2, magic) and Stocator (cos://, swift2d://)
# on the same local store in the same run: REST calls by type counted at the store, bytes written, read and
# copied, wall time, cost; medians of several runs, ratios to Stork, charts. Writes docs/benchmarks/<name>.md.
#
#   bench-connectors.sh [options]             the full campaign (defaults: 3 runs, all scenarios and workloads)
#   bench-connectors.sh --slow-link [options] the store in a network namespace of its own, reached over a veth
#                                             pair shaped with tc at each of --rates (default 1gbit,50mbit,30mbit),
#                                             optionally through a delaying proxy (--latency-ms N per request round trip)
# Options (all optional): --runs N, --scenarios a,b (stork-s3, stork-swift, s3a-v1, s3a-v2, s3a-magic,
# stocator-cos, stocator-swift), --workloads a,b (read-small, read-large, teragen, copy, wordcount, terasort,
# sql-write, sql-queries, one-object), --object-kib N, --small-objects N, --large-factor N, --sales-rows N,
# --prices FILE, --name NAME, --executors N. See docs/benchmarks.md.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
command_line="bash scripts/bench-connectors.sh $*"

slow_link=0
latency_ms=0
rates="1gbit,50mbit,30mbit"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --slow-link) slow_link=1 ;;
    --latency-ms) latency_ms="$2"; shift ;;
    --rates) rates="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done

bash scripts/prerequisites.sh
SPARK_HOME="$(bash scripts/spark-home.sh)"
export SPARK_HOME SPARK_SCALA_VERSION=2.13
if [ "${STORK_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -B --no-transfer-progress install -DskipTests
fi
mvn -q -B --no-transfer-progress -pl stork-benchmarks dependency:build-classpath \
  -Dmdep.outputFile="$REPO/stork-benchmarks/target/classpath.txt"
classpath="stork-benchmarks/target/classes:$(cat "$REPO/stork-benchmarks/target/classpath.txt")"

run_benchmark() {
  java -Xmx1g -Djava.awt.headless=true -cp "$classpath" -Dstork.repo.root="$REPO" \
    io.stork.bench.spark.ConnectorBenchmark --command "$command_line" "$@"
}

if [ $slow_link -eq 0 ]; then
  bash scripts/local-store.sh start
  run_benchmark "${args[@]}"
  exit $?
fi

# Slow-link mode: a store of its own inside the namespace (the default store is left alone).
export STORK_STORE_HOME="$REPO/.stork/slow-link-store"
ns_address=10.231.0.2
proxy_pid=""
cleanup() {
  status=$?
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  STORK_STORE_NETNS=stork-bench STORK_STORE_BIND=$ns_address bash scripts/local-store.sh stop || true
  bash scripts/slow-link.sh down || true
  exit $status
}
trap cleanup EXIT
bash scripts/slow-link.sh up
STORK_STORE_NETNS=stork-bench STORK_STORE_BIND=$ns_address bash scripts/local-store.sh start
through=()
link="veth pair into a network namespace, shaped with tc"
if [ "$latency_ms" -gt 0 ]; then
  port_file="$(mktemp)"
  store_port="$(. "$STORK_STORE_HOME/store.env"; echo "$STORK_STORE_PORT")"
  python3 scripts/delay-proxy.py --listen 127.0.0.1:0 --target "$ns_address:$store_port" \
    --delay-ms $((latency_ms / 2)) --port-file "$port_file" >/dev/null 2>&1 &
  proxy_pid=$!
  for _ in $(seq 1 50); do [ -s "$port_file" ] && break; sleep 0.1; done
  through=(--through "127.0.0.1:$(cat "$port_file")")
  link="$link, plus ${latency_ms} ms per request round trip from scripts/delay-proxy.py"
fi
run_benchmark --name connectors-slow-link --rates "$rates" --link "$link" "${through[@]}" "${args[@]}"

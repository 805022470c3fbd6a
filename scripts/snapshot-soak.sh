#!/usr/bin/env bash
# Snapshots under a long run: a writer process commits overwrites, appends and partition overwrites to one
# dataset while this process queries it without pause, through each API; every query must return exactly
# one committed generation and see every commit that returned before it started.
#   bash scripts/snapshot-soak.sh [--rounds 60]
# Writes the tally to docs/benchmarks/snapshot-soak.md. (The default test run does 6 rounds per API.)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
ROUNDS=60
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    *) echo "usage: $0 [--rounds N]" >&2; exit 2 ;;
  esac
done
bash scripts/prerequisites.sh
started=0
if ! bash scripts/local-store.sh status >/dev/null 2>&1; then
  bash scripts/local-store.sh start
  started=1
fi
trap '[ $started -eq 1 ] && bash scripts/local-store.sh stop || true' EXIT
mvn -q -B --no-transfer-progress install -DskipTests >&2
start=$(date +%s)
set +e
mvn -B --no-transfer-progress -pl stork-spark-tests failsafe:integration-test failsafe:verify \
  -Dit.test=TwoProcessSnapshotStoreTest \
  -Dstork.snapshot.rounds="$ROUNDS" -Dstork.repo.root="$REPO" > "$REPO/.stork/snapshot-soak.log" 2>&1
status=$?
set -e
seconds=$(( $(date +%s) - start ))
tally="$(grep -h "queries, rounds seen" stork-spark-tests/target/failsafe-reports/*TwoProcessSnapshotStoreTest*-output.txt || true)"
result="$(grep -E "Tests run:.*TwoProcess" "$REPO/.stork/snapshot-soak.log" | tail -1)"
{
  echo "# Snapshot soak: one writer process, one reader, both APIs"
  echo
  echo "Command: \`bash scripts/snapshot-soak.sh --rounds $ROUNDS\` — $(date -u +%Y-%m-%d), $(nproc) cores, $((seconds / 60)) min."
  echo
  echo "A writer process (its own JVM and Spark application) commits $ROUNDS rounds to one dataset, cycling"
  echo "overwrite, append and dynamic partition overwrite, 0.8 s apart; this process queries the dataset"
  echo "(count and sum of ids) without pause. Each answer must equal the state after exactly one committed"
  echo "round, and must be that of the last round the writer reported committed before the query started,"
  echo "or a later one. Test: \`TwoProcessSnapshotStoreTest\` (6 rounds in the default test run)."
  echo
  if [ $status -eq 0 ]; then echo "Result: **every query read one generation, none failed, none missed a commit**"; else echo "Result: **FAILED** (see .stork/snapshot-soak.log)"; fi
  echo
  echo '```'
  echo "$result"
  echo "$tally" | sed -E 's/rounds seen \[(.{0,300}).*/rounds seen [\1 …]/'
  echo '```'
} > docs/benchmarks/snapshot-soak.md
cat docs/benchmarks/snapshot-soak.md
exit $status

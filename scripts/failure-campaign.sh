#!/usr/bin/env bash
# The commit protocol's failure campaign: Spark as a standalone cluster on loopback (two workers, executor
# JVMs), speculation on, tasks failing before, during and after writing, an executor killed mid-job; each
# round writes and reads back a dataset through each API and checks it row for row.
#   bash scripts/failure-campaign.sh [--rounds 20]
# Prints the tally and writes it to docs/benchmarks/failure-campaign.md. (The default test run does 2 rounds.)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
ROUNDS=20
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS="$2"; shift 2 ;;
    *) echo "usage: $0 [--rounds N]" >&2; exit 2 ;;
  esac
done
bash scripts/prerequisites.sh
SPARK_HOME="$(bash scripts/spark-home.sh)"
export SPARK_HOME SPARK_SCALA_VERSION=2.13
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
  -Dit.test=CommitFailureCampaignIT -Dstork.campaign.rounds="$ROUNDS" -Dstork.repo.root="$REPO" \
  > "$REPO/.stork/failure-campaign.log" 2>&1
rc=$?
set -e
report="$(ls stork-spark-tests/target/failsafe-reports/*CommitFailureCampaignIT-output.txt)"
grep -h "^campaign" "$report" | tee /dev/stderr >/dev/null
tally="$(grep -h "^campaign tally" "$report" | tail -1)"
mkdir -p docs/benchmarks
{
  echo "# Commit protocol failure campaign"
  echo
  echo "Command: \`bash scripts/failure-campaign.sh --rounds $ROUNDS\` — $(date -u +%Y-%m-%d), $(nproc) cores, $(( ($(date +%s) - start) / 60 )) min."
  echo
  echo "Spark $(sed -n 's:.*<spark.version>\(.*\)</spark.version>.*:\1:p' pom.xml | head -1) standalone on loopback (master + 2 workers at 127.0.0.2/.3, 1 core each, executor JVMs), speculation on (quantile 0.5, multiplier 1.5), \`spark.task.maxFailures=4\`. Each round, per API, writes 6 tasks × 200 rows twice: with Stork's commit protocol, and with Spark's default protocol (Hadoop's classic committer, its temporary tree emulated by the file system); and, alternating the API, once through an RDD \`saveAsTextFile\` (Hadoop's old API) and once through \`saveAsNewAPIHadoopFile\`, both committed by Stork's committers with task commits reported through Spark; the six tasks' first attempts get, in a random order, one each of: no fault, failure before writing, failure mid-write, failure after writing before the task commit, a 10 s stall (speculation races it), the executor's JVM halted mid-write. The data is read back through \`stork://\` and compared row for row; the manifest must name exactly one part per task. Each round also runs a job that fails for good and checks it left no manifest. Stray attempt parts (in the store, named by no manifest: invisible through Stork, visible to any other reader of the bucket) are counted by a direct listing right after each job and again 12 s after the last one; the job commit removes the parts of the attempts the driver saw lose (Stork's SQL protocol and RDD committers: one full listing of the dataset and one bulk DELETE, only in jobs where an attempt was lost; every job here loses some), counted at the store's access log."
  echo
  echo "Result: $( [ $rc -eq 0 ] && echo "**all rounds exact**" || echo "**FAILURES** (see .stork/failure-campaign.log)")"
  echo
  echo '```'
  grep -h "^campaign" "$report"
  echo '```'
} > docs/benchmarks/failure-campaign.md
echo "[campaign] $tally" >&2
exit $rc

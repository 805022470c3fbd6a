#!/usr/bin/env bash
# The dataset tool (docs/commit-protocol.md#maintenance-and-running-jobs):
#   bash scripts/stork-dataset.sh [--local-store] inspect|stats|history stork://bucket/path
#   bash scripts/stork-dataset.sh [--local-store] stats stork://bucket/path <key column> ...   (separation over them)
#   bash scripts/stork-dataset.sh [--local-store] clean [--dry-run] [--older-than 24h] stork://bucket/path
#   bash scripts/stork-dataset.sh [--local-store] vacuum [--dry-run] [--retention 7d] stork://bucket/path
#   bash scripts/stork-dataset.sh [--local-store] changes|restore stork://bucket/path <generation> ...
#   bash scripts/stork-dataset.sh [--local-store] index stork://bucket/path <format> [option=value ...]
# Bucket settings come from -Dfs.stork.bucket.<b>.*=... arguments or core-site.xml on the class path;
# with --local-store, every bucket points at the project's local store (S3 API; add
# -Dfs.stork.api=swift for the Swift API). Every argument reaches the tool as given, spaces included.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
ARGS=()
for arg in "$@"; do
  if [[ "$arg" == "--local-store" ]]; then
    # shellcheck disable=SC1091
    source .stork/local-store/store.env
    ARGS+=("-Dfs.stork.endpoint=$STORK_S3_ENDPOINT" "-Dfs.stork.access.key=$STORK_S3_ACCESS_KEY"
           "-Dfs.stork.access.secret=$STORK_S3_SECRET_KEY" "-Dfs.stork.swift.auth.url=$STORK_SWIFT_AUTH_URL"
           "-Dfs.stork.swift.user=$STORK_SWIFT_USER" "-Dfs.stork.swift.password=$STORK_SWIFT_KEY")
  else
    ARGS+=("$arg")
  fi
done
if [[ ! -f stork-demo/target/classes/io/stork/demo/Demo.class ]]; then
  mvn -q -B --no-transfer-progress install -DskipTests >&2
fi
# The demo module's class path holds Hadoop, the connector, the commit module and Spark (for index);
# computed once, then java runs the tool directly, so that arguments pass through untouched.
CLASSPATH_FILE="$REPO/.stork/dataset-tool.classpath"
if [[ ! -s "$CLASSPATH_FILE" || stork-demo/pom.xml -nt "$CLASSPATH_FILE" || pom.xml -nt "$CLASSPATH_FILE" ]]; then
  mkdir -p "$REPO/.stork"
  mvn -q -B --no-transfer-progress -pl stork-demo dependency:build-classpath \
    -Dmdep.outputFile="$CLASSPATH_FILE" -Dmdep.includeScope=runtime >&2
fi
exec java -cp "$REPO/stork-demo/target/classes:$(cat "$CLASSPATH_FILE")" io.stork.commit.DatasetTool ${ARGS[@]+"${ARGS[@]}"}

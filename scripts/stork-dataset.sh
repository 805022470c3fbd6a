#!/usr/bin/env bash
# Inspect a dataset, or clean up the objects of failed attempts that no manifest names.
#   bash scripts/stork-dataset.sh inspect stork://bucket/path
#   bash scripts/stork-dataset.sh clean [--dry-run] [--older-than 60m] stork://bucket/path
# Bucket settings come from -Dfs.stork.bucket.<b>.*=... arguments or core-site.xml on the class path;
# with --local-store, every bucket points at the project's local store (S3 API; add
# -Dfs.stork.api=swift for the Swift API).
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
# The demo module's class path holds Hadoop, the connector and the commit module.
exec mvn -q -B --no-transfer-progress -pl stork-demo exec:exec \
  -Dexec.args="-classpath %classpath io.stork.commit.DatasetTool ${ARGS[*]}"

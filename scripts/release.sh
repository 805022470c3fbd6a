#!/usr/bin/env bash
# Builds the release artifacts and puts them in dist/stork-<version>/: the runtime jar for Spark
# (spark-submit --jars, or --packages io.stork:stork-spark-runtime:<version> from the local Maven
# repository, where the build installs it), the tools jar (java -jar, the dataset tool), SHA-256 sums.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
# The build's tools only: a release needs no object store.
bash scripts/prerequisites.sh --build-only >&2
VERSION="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' pom.xml | head -1)"
mvn -q -B --no-transfer-progress install -DskipTests >&2
OUT="dist/stork-$VERSION"
rm -rf "$OUT"
mkdir -p "$OUT"
cp "stork-spark-runtime/target/stork-spark-runtime-$VERSION.jar" "stork-tools/target/stork-tools-$VERSION.jar" "$OUT/"
cp LICENSE docs/runtime-jar.md docs/pyspark.md "$OUT/"
(cd "$OUT" && sha256sum ./*.jar > SHA256SUMS)
echo "[release] $OUT:" >&2
ls -la "$OUT" >&2
echo "$OUT"

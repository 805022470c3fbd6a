#!/usr/bin/env bash
# Installs a Spark distribution for local-cluster runs (separate executor JVMs), if missing, and prints
# its SPARK_HOME. It is pyspark's, which carries Spark's jars and launch scripts; its version must equal
# the spark-core the project builds against (see ../shared/notes/versions.md).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(sed -n 's:.*<spark.version>\(.*\)</spark.version>.*:\1:p' "$REPO/pom.xml" | head -1)"
TARGET="$REPO/.stork/spark-$VERSION"
HOME_DIR="$TARGET/pyspark"
if [ ! -x "$HOME_DIR/bin/spark-submit" ] || [ ! -f "$TARGET/.complete" ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "[spark-home] installing python3-pip" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends python3-pip >/dev/null 2>&1 || {
      $sudo apt-get update >/dev/null; DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends python3-pip >/dev/null; }
  fi
  echo "[spark-home] installing Spark $VERSION (pyspark distribution) into $TARGET" >&2
  rm -rf "$TARGET"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$TARGET" "pyspark==$VERSION" >&2 \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages --no-deps --target "$TARGET" "pyspark==$VERSION" >&2
  touch "$TARGET/.complete"
fi
echo "$HOME_DIR"
